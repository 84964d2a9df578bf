//! The prover as users meet it: `--engine prove` never answers TRUE without a checked
//! certificate (on a FALSE program it cannot), and every TRUE says how it was obtained.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yogar-prove-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn verify(dir: &Path, args: &[&str]) -> (i32, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("verify")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

/// Threads created without bound, each writing `write` to x and asserting x <= 1.
fn unbounded(write: u32) -> String {
    format!(
        "#include <pthread.h>\n#include <assert.h>\nint x;\n\
         void *t(void *a) {{ x = {write}; assert(x <= 1); return 0; }}\n\
         int main() {{ pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    )
}

#[test]
fn engine_prove_gives_no_true_on_a_false_program() {
    let dir = scratch("false");
    std::fs::write(dir.join("p.c"), unbounded(2)).unwrap();
    let (code, out) = verify(&dir, &["--engine", "prove", "p.c"]);
    let last = out.last().cloned().unwrap_or_default();
    assert_ne!(last, "TRUE", "{out:?}");
    assert_ne!(code, 0, "{out:?}");
    assert!(last.starts_with("UNKNOWN (prover: "), "{out:?}");
    assert_eq!(code, 5);
    assert!(!out.iter().any(|l| l.starts_with("proved by:")), "{out:?}");
}

#[test]
fn a_bounded_true_says_how_it_was_obtained() {
    let dir = scratch("bounded");
    let src = "#include <pthread.h>\n#include <assert.h>\nint x;\n\
               void *t(void *a) { x = 1; return 0; }\n\
               int main() { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0);\n\
               assert(x == 1); return 0; }\n";
    std::fs::write(dir.join("p.c"), src).unwrap();
    let (code, out) = verify(&dir, &["p.c"]);
    assert_eq!(code, 0, "{out:?}");
    let n = out.len();
    assert_eq!(out[n - 1], "TRUE");
    assert!(
        out[n - 2].starts_with("proved by: unwinding assertions at bound "),
        "{out:?}"
    );
    let (_, out) = verify(&dir, &["--json", "p.c"]);
    let json: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert!(json["proved_by"]
        .as_str()
        .is_some_and(|s| s.starts_with("unwinding assertions at bound ")));
    // A FALSE verdict carries none.
    std::fs::write(dir.join("f.c"), src.replace("x == 1", "x == 0")).unwrap();
    let (code, out) = verify(&dir, &["--json", "f.c"]);
    assert_eq!(code, 10);
    let json: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert!(json["proved_by"].is_null());
}

#[test]
fn unwind_auto_never_proves_a_false_program_unbounded() {
    // The prover runs inside `--unwind auto` after bound 3: the bug needs no deep bound, and
    // FALSE (not TRUE) must come out.
    let dir = scratch("auto");
    std::fs::write(dir.join("p.c"), unbounded(2)).unwrap();
    let (code, out) = verify(&dir, &["--timeout", "30", "p.c"]);
    assert_eq!(code, 10, "{out:?}");
}

/// The stack tasks' shape (`tests/programs/prove/paired_cells_*.c`): the default command line
/// proves the TRUE twin and says how, and finds the FALSE twin (the pool's bound off by one)
/// FALSE at the bound check, so the prover's refusal is not all that keeps the bug from TRUE.
#[test]
fn paired_cells_twins_on_the_default_command_line() {
    let prove = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/prove");
    let dir = scratch("paired");
    let f = prove.join("paired_cells_false.c");
    let (code, out) = verify(&dir, &["--timeout", "60", f.to_str().unwrap()]);
    assert_eq!(code, 10, "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.contains("violation") && l.ends_with("paired_cells_false.c:34")),
        "{out:?}"
    );
    let t = prove.join("paired_cells_true.c");
    let (code, out) = verify(&dir, &["--timeout", "60", t.to_str().unwrap()]);
    assert_eq!(code, 0, "{out:?}");
    let n = out.len();
    assert_eq!(out[n - 1], "TRUE", "{out:?}");
    assert_eq!(out[n - 2], "proved by: thread-modular intervals", "{out:?}");
}
