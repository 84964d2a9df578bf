//! `yogar sat` end to end: the built binary on generated DIMACS files, with every back end.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use cnf_gen::{pigeonhole, random_ksat};
use solver_glue::dimacs::Cnf;
use solver_glue::solver_names;

/// A file in a fresh directory under the system temp dir, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(contents: &[u8]) -> TempFile {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "yogar-sat-test-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("formula.cnf");
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn yogar_sat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("sat")
        .args(args)
        .output()
        .expect("the yogar binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The assignment in the `v` lines (index = variable − 1), checking every variable appears
/// exactly once and the list ends with 0.
fn model_of(stdout: &str, num_vars: u32) -> Vec<bool> {
    let mut values: Vec<Option<bool>> = vec![None; num_vars as usize];
    let mut ended = false;
    for line in stdout.lines().filter(|l| l.starts_with("v")) {
        assert!(!ended, "v line after the closing 0");
        for token in line[1..].split_whitespace() {
            let n: i64 = token.parse().expect("v lines hold integers");
            if n == 0 {
                ended = true;
                continue;
            }
            let slot = &mut values[(n.unsigned_abs() - 1) as usize];
            assert!(slot.is_none(), "variable {n} twice");
            *slot = Some(n > 0);
        }
    }
    assert!(ended, "v lines must end with 0");
    values
        .into_iter()
        .enumerate()
        .map(|(i, v)| v.unwrap_or_else(|| panic!("variable {} missing", i + 1)))
        .collect()
}

#[test]
fn pigeonhole_is_unsat_with_every_back_end() {
    let file = TempFile::new(pigeonhole(7, 6).to_dimacs_string().as_bytes());
    for name in solver_names() {
        let out = yogar_sat(&[file.0.to_str().unwrap(), "--solver", name]);
        assert_eq!(out.status.code(), Some(20), "{name}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.lines().any(|l| l == "s UNSATISFIABLE"), "{stdout}");
        assert!(!stdout.lines().any(|l| l.starts_with('v')));
    }
}

#[test]
fn random_3sat_model_satisfies_the_formula_with_every_back_end() {
    // Ratio 3.0 is far below the threshold: satisfiable for these seeds.
    for seed in [1u64, 2] {
        let cnf: Cnf = random_ksat(300, 900, 3, seed);
        let mut dimacs = b"c random 3-SAT\nc two comment lines\n".to_vec();
        dimacs.extend(cnf.to_dimacs_string().bytes());
        let file = TempFile::new(&dimacs);
        for name in solver_names() {
            let out = yogar_sat(&["--solver", name, file.0.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(10), "{name}: {}", text(&out.stderr));
            let stdout = text(&out.stdout);
            assert!(stdout.lines().any(|l| l == "s SATISFIABLE"), "{stdout}");
            let model = model_of(&stdout, cnf.num_vars);
            assert!(
                cnf.is_satisfied_by(&model),
                "{name}: model violates the formula"
            );
        }
    }
}

#[test]
fn default_back_end_answers() {
    let file = TempFile::new(b"p cnf 2 3\n1 2 0\n-1 0\n-2 0\n");
    let out = yogar_sat(&[file.0.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(20));
}

#[test]
fn bad_input_is_one_line_and_exit_3() {
    let cases: &[&[u8]] = &[b"p cnf 2 1\n1 x 0\n", b"1 2 0\n", b"p cnf 2 2\n1 0\n"];
    for contents in cases {
        let file = TempFile::new(contents);
        let out = yogar_sat(&[file.0.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(3));
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("line "), "{stderr}");
    }
    let out = yogar_sat(&["/nonexistent/dir/formula.cnf"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(text(&out.stderr).lines().count(), 1);
}

#[test]
fn unknown_solver_is_a_usage_error() {
    let file = TempFile::new(b"p cnf 1 1\n1 0\n");
    let out = yogar_sat(&["--solver", "nosuch", file.0.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("batsat"));
}

#[test]
fn timeout_gives_unknown_quickly_with_every_back_end() {
    let file = TempFile::new(pigeonhole(11, 10).to_dimacs_string().as_bytes());
    for name in solver_names() {
        let start = Instant::now();
        let out = yogar_sat(&[
            "--timeout",
            "0.3",
            "--solver",
            name,
            file.0.to_str().unwrap(),
        ]);
        assert!(start.elapsed() < Duration::from_secs(3), "{name}");
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stdout).lines().any(|l| l == "s UNKNOWN"));
    }
}
