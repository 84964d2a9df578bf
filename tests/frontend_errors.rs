//! Each way the frontend refuses a program: one line on stderr with a location, the exit code
//! of `crate::exit`, never a panic.

use std::path::PathBuf;
use std::process::Command;

use yogar::exit;

fn write(name: &str, src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yogar-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, src).unwrap();
    p
}

/// Runs `yogar parse --32 FILE`: (exit code, stdout, stderr).
fn parse(path: &std::path::Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["parse", "--32"])
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn unreadable_file_is_an_input_error() {
    let (code, _, err) = parse(std::path::Path::new("/nonexistent/dir/prog.c"));
    assert_eq!(code, exit::INPUT as i32);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot read /nonexistent/dir/prog.c"), "{err}");
}

#[test]
fn syntax_error_names_file_line_column_and_text() {
    let p = write(
        "syntax.c",
        "int main() {\n  int x = 1;\n  x = = 2;\n  return x;\n}\n",
    );
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::INPUT as i32);
    assert_eq!(err.lines().count(), 1, "{err}");
    let line = err.trim();
    assert!(line.contains("syntax.c:3:"), "{line}");
    assert!(line.contains("syntax error at '="), "{line}");
}

#[test]
fn preprocessor_error_is_an_input_error() {
    let p = write(
        "pp.c",
        "#include \"does_not_exist.h\"\nint main() { return 0; }\n",
    );
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::INPUT as i32);
    assert!(err.contains("preprocessor failed"), "{err}");
}

#[test]
fn unsupported_construct_names_location_and_construct() {
    let p = write(
        "vla.c",
        "int n;\nint main() {\n  int a[n][2];\n  return a[0][0];\n}\n",
    );
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::UNKNOWN as i32);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("vla.c:3: unsupported: variable-length array"),
        "{err}"
    );
    let p = write(
        "float.c",
        "int main() {\n  long double d = 0.5L;\n  return d > 0;\n}\n",
    );
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::UNKNOWN as i32);
    assert!(
        err.contains("float.c:2: unsupported: floating-point"),
        "{err}"
    );
}

#[test]
fn pragma_pack_is_unsupported_rather_than_mis_laid_out() {
    let p = write(
        "pack.c",
        "#pragma pack(1)\nstruct S { char c; int i; } s;\nint main() { return sizeof s; }\n",
    );
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::UNKNOWN as i32);
    assert!(err.contains("pack.c:1: unsupported: #pragma pack"), "{err}");
}

#[test]
fn atomic_objects_the_lowering_cannot_track_are_unsupported() {
    // `x++` on an _Atomic int is one indivisible step; lowered as a plain load and store, two
    // such increments could lose one and a verifier would report a race that cannot happen.
    // Atomic variables are tracked (atomic_objects); atomic members and atomic pointer
    // objects are not, and an update of an lvalue that may be atomic is unsupported.
    for (name, decl, ok) in [
        ("atomic_q.c", "_Atomic int x;", true),
        ("atomic_s.c", "_Atomic(int) x;", true),
        ("atomic_p.c", "int * _Atomic x;", false),
        ("atomic_f.c", "struct S { _Atomic int n; } x;", false),
    ] {
        let p = write(name, &format!("{decl}\nint main() {{ return 0; }}\n"));
        let (code, _, err) = parse(&p);
        if ok {
            assert_eq!(code, 0, "{name}: {err}");
            continue;
        }
        assert_eq!(code, exit::UNKNOWN as i32, "{name}: {err}");
        assert!(
            err.contains(&format!("{name}:1: unsupported: _Atomic")),
            "{err}"
        );
    }
    let p = write(
        "atomic_m.c",
        "_Atomic int a;\nstruct S { int n; } s, *ps = &s;\nint main() {\n  ps->n++;\n  return 0;\n}\n",
    );
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::UNKNOWN as i32, "{err}");
    assert!(
        err.contains("atomic_m.c:4: unsupported: read-modify-write of an lvalue that may be an _Atomic object"),
        "{err}"
    );
}

#[test]
fn a_call_of_main_that_reads_its_parameters_is_unsupported() {
    // main's parameters get arbitrary values at its entry, which is right for the call by the
    // environment but not for `main(3, 0)`: the callee would not see 3.
    let p = write(
        "rmain.c",
        "int main(int argc, char **argv) {\n  if (argc > 100)\n    return main(3, 0);\n  return 0;\n}\n",
    );
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::UNKNOWN as i32, "{err}");
    assert!(
        err.contains("rmain.c:3: unsupported: a call of main"),
        "{err}"
    );
    // Without parameters there is nothing to over-approximate: recursion into main is fine.
    let q = write(
        "rmain_void.c",
        "int d;\nint main(void) {\n  if (++d < 3)\n    return main();\n  return 0;\n}\n",
    );
    let (code, _, err) = parse(&q);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn type_errors_are_input_errors_with_a_location() {
    let p = write("undeclared.c", "int main() {\n  return y;\n}\n");
    let (code, _, err) = parse(&p);
    assert_eq!(code, exit::INPUT as i32);
    assert!(
        err.contains("undeclared.c:2: error: undeclared identifier 'y'"),
        "{err}"
    );
}

#[test]
fn parse_prints_a_summary_and_show_ir_the_instructions() {
    let p = write(
        "ok.c",
        "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = 1; return 0; }\n\
         int main() { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); return x; }\n",
    );
    let (code, out, _) = parse(&p);
    assert_eq!(code, 0);
    assert!(out.contains("2 functions"), "{out}");
    assert!(out.contains("1 thread creations"), "{out}");
    let o = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["show-ir", "--32"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("thread_create t("), "{text}");
    assert!(text.contains("ok.c:4"), "{text}");
}

#[test]
fn a_mutex_with_a_recursive_static_initialiser_is_recursive() {
    // glibc's recursive initialiser writes `__kind = 1`: two locks by the owner both return
    // (they were once taken as a deadlock, and the assertion as unreachable).
    let src = "#define _GNU_SOURCE\n#include <pthread.h>\n\
               pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;\n\
               int main(void) { pthread_mutex_lock(&m); pthread_mutex_lock(&m);\n\
               __CPROVER_assert(0, \"reached\"); return 0; }\n";
    let verify = |p: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_yogar"))
            .args(["verify", "--unwind", "1"])
            .arg(p)
            .current_dir(std::env::temp_dir())
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(verify(&write("recursive_mutex_init.c", src)), Some(10));
    // The default initialiser is an ordinary mutex: the second lock blocks.
    let plain = src.replace(
        "PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP",
        "PTHREAD_MUTEX_INITIALIZER",
    );
    assert_eq!(verify(&write("plain_mutex_init.c", &plain)), Some(0));
    // A kind written by hand as a number is no kind the lowering looks for: unsupported.
    let literal = src.replace(
        "PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP",
        "{ { 0, 0, 0, 0, 1 } }",
    );
    let (code, _, err) = parse(&write("literal_mutex_init.c", &literal));
    assert_eq!(code, exit::UNKNOWN as i32, "{err}");
    assert!(err.contains("PTHREAD_MUTEX_INITIALIZER"), "{err}");
}
