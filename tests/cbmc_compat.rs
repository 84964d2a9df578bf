//! The C that CBMC users write: the frontend options `-D`, `-I`, `--function` and
//! `--error-label` from the command line, and the reserved name families (`__CPROVER_`,
//! `__VERIFIER_`, `__builtin_`, `__sync_`, `__atomic_`, `pthread_`, `sem_`): every name is either
//! modelled, with a test program that uses it, or a call of it is `UNKNOWN (unsupported: NAME)`,
//! never a silent no-op.

use std::path::PathBuf;
use std::process::Command;

use yogar::frontend::{self, FrontendError};
use yogar::ir::DataModel;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yogar-cbmc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `yogar verify --unwind 2 ARGS`: (exit code, last stdout line).
fn verify(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--unwind", "2"])
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    (
        out.status.code().unwrap_or(-1),
        stdout.lines().last().unwrap_or("").to_string(),
    )
}

/// The README's CBMC-style example: the README shows this file's program and the two commands
/// run here, with the verdicts checked here.
#[test]
fn the_readme_cbmc_program_with_and_without_a_define() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let file = "tests/programs/readme_cbmc_style_false.c";
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let program: String = text
        .lines()
        .skip_while(|l| l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        readme.contains(&format!("```c\n{program}```")),
        "the README shows {file}"
    );
    for (command, verdict) in [
        (
            format!("$ yogar verify --unwind 2 {file}"),
            "FALSE(unreach-call)",
        ),
        (
            format!("$ yogar verify --unwind 2 -D ATOMIC_UPDATE {file}"),
            "TRUE",
        ),
    ] {
        let at = readme.find(&command).unwrap_or_else(|| panic!("{command}"));
        let shown = readme[at..].lines().nth(2).unwrap_or("");
        assert!(shown.starts_with(verdict), "{command}: {shown}");
    }
    let p = root().join(file);
    let p = p.to_str().unwrap();
    assert_eq!(verify(&[p]), (10, "FALSE(unreach-call)".into()));
    assert_eq!(verify(&["-D", "ATOMIC_UPDATE", p]), (0, "TRUE".into()));
    assert_eq!(verify(&["-DATOMIC_UPDATE=1", p]), (0, "TRUE".into()));
    for engine in ["dpor", "rvf"] {
        let (code, _) = verify(&["--engine", engine, "-D", "ATOMIC_UPDATE", p]);
        assert_eq!(code, 0, "{engine}");
    }
}

#[test]
fn include_directories_are_searched() {
    let dir = scratch("include");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/limit.h"), "#define LIMIT 3\n").unwrap();
    let prog = dir.join("sub/p.c");
    std::fs::create_dir_all(prog.parent().unwrap()).unwrap();
    std::fs::write(
        &prog,
        "#include <limit.h>\nint main(void) { __CPROVER_assert(LIMIT == 3, \"\"); return 0; }\n",
    )
    .unwrap();
    let inc = dir.join("inc");
    let (code, _) = verify(&[prog.to_str().unwrap()]);
    assert_eq!(code, 3, "without -I the header is missing: an input error");
    let (code, last) = verify(&["-I", inc.to_str().unwrap(), prog.to_str().unwrap()]);
    assert_eq!((code, last.as_str()), (0, "TRUE"));
}

#[test]
fn the_entry_function_and_the_error_label() {
    let dir = scratch("entry");
    let prog = dir.join("p.c");
    std::fs::write(
        &prog,
        "int g;\n\
         void check(int x) { if (x == 7) { ERROR: g = 1; } }\n\
         void safe(void) { int y = 3; if (y == 7) { ERROR2: g = 1; } }\n\
         int main(void) { return 0; }\n",
    )
    .unwrap();
    let p = prog.to_str().unwrap();
    // From main nothing is reached; from check(x), x = 7 is an input that reaches ERROR.
    assert_eq!(verify(&["--error-label", "ERROR", p]).0, 0);
    assert_eq!(
        verify(&["--error-label", "ERROR", "--function", "check", p]),
        (10, "FALSE(unreach-call)".into())
    );
    assert_eq!(
        verify(&["--error-label", "ERROR2", "--function", "safe", p]),
        (0, "TRUE".into())
    );
    let (code, _) = verify(&["--function", "missing", p]);
    assert_eq!(
        code, 3,
        "an entry function that is not defined is an input error"
    );
}

/// Names the frontend models, each with the test program(s) that use it.
const MODELLED: &[&str] = &[
    "__CPROVER_assert",
    "__CPROVER_assume",
    "__CPROVER_atomic_begin",
    "__CPROVER_atomic_end",
    "__CPROVER_fence",
    "__CPROVER_ASYNC_1",
    "__CPROVER_bool",
    "__CPROVER_thread_local",
    "nondet_int",
    "__VERIFIER_assume",
    "__VERIFIER_atomic_begin",
    "__VERIFIER_atomic_end",
    "__VERIFIER_nondet_int",
    "__sync_lock_test_and_set",
    "__sync_lock_release",
    "__sync_fetch_and_add",
    "__sync_sub_and_fetch",
    "__sync_bool_compare_and_swap",
    "__sync_val_compare_and_swap",
    "__sync_synchronize",
    "atomic_fetch_add",
    "atomic_fetch_sub_explicit",
    "atomic_compare_exchange_weak",
    "atomic_compare_exchange_strong",
    "atomic_exchange",
    "atomic_flag_test_and_set",
    "atomic_flag_clear",
    "atomic_load",
    "atomic_store",
    "atomic_init",
    "_Atomic",
    "pthread_create",
    "pthread_join",
    "pthread_exit",
    "pthread_mutex_lock",
    "pthread_mutex_unlock",
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "pthread_once",
    "pthread_barrier_init",
    "pthread_barrier_wait",
    "pthread_rwlock_rdlock",
    "pthread_rwlock_wrlock",
    "pthread_rwlock_tryrdlock",
    "pthread_rwlock_trywrlock",
    "pthread_rwlock_unlock",
    "pthread_spin_init",
    "pthread_spin_lock",
    "pthread_spin_trylock",
    "pthread_spin_unlock",
    "sem_init",
    "sem_wait",
    "sem_post",
    "sem_trywait",
    "sem_getvalue",
    "pthread_detach",
    "pthread_attr_setdetachstate",
    "pthread_mutexattr_init",
    "pthread_mutexattr_settype",
    "pthread_mutexattr_gettype",
    "pthread_mutexattr_destroy",
    "PTHREAD_MUTEX_RECURSIVE",
    "PTHREAD_MUTEX_ERRORCHECK",
    "PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP",
    "PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP",
    "pthread_mutex_trylock",
    "pthread_attr_getdetachstate",
];

/// Names that are not modelled: a call of one is unsupported.
const UNSUPPORTED: &[&str] = &[
    "__CPROVER_input",
    "__CPROVER_output",
    "__CPROVER_cover",
    "__CPROVER_havoc_object",
    "__CPROVER_r_ok",
    "__CPROVER_array_set",
    "__VERIFIER_atomic_undefined",
    "__VERIFIER_nondet_unknown_type_name",
    "__builtin_popcount",
    "__builtin_clz",
    "__builtin_memcpy",
    "__sync_fetch_and_min",
    "__atomic_always_lock_free",
    "__atomic_is_lock_free",
    "__c11_atomic_load",
    "pthread_cancel",
    "pthread_testcancel",
    "pthread_setcancelstate",
    "pthread_mutexattr_setpshared",
    "pthread_mutexattr_setprotocol",
    "pthread_kill",
    "pthread_barrierattr_init",
    "pthread_rwlockattr_init",
    "pthread_rwlock_timedrdlock",
    "pthread_mutex_timedlock",
    "sem_timedwait",
    "sem_open",
];

#[test]
fn every_modelled_name_has_a_test_program() {
    let dir = root().join("tests/programs");
    let texts: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("c"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let missing: Vec<&&str> = MODELLED
        .iter()
        .filter(|n| !texts.iter().any(|t| t.contains(**n)))
        .collect();
    assert!(missing.is_empty(), "no test program uses {missing:?}");
}

/// A program whose reachable `main` calls `name` with arguments of every usual kind.
fn calling(name: &str) -> String {
    format!("int x;\nint main(void) {{\n  {name}(&x, 1, 2);\n  return 0;\n}}\n")
}

#[test]
fn every_unmodelled_name_is_unsupported() {
    let mut wrong = Vec::new();
    for name in UNSUPPORTED {
        match frontend::load_source(&calling(name), DataModel::Lp64) {
            Err(FrontendError::Unsupported(m)) if m.contains(name) => {}
            other => wrong.push(format!("{name}: {other:?}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn atomic_updates_of_untracked_lvalues_are_unsupported() {
    let member = "_Atomic int a;\nstruct s { int f; } v;\n\
        int main(void) { v.f++; return 0; }\n";
    let atomic_member = "struct s { _Atomic int f; } v;\nint main(void) { return 0; }\n";
    let plain = "_Atomic int a;\nstruct s { long f; } v;\n\
        int main(void) { v.f++; a++; return 0; }\n";
    for (src, ok) in [(member, false), (atomic_member, false), (plain, true)] {
        let r = frontend::load_source(src, DataModel::Lp64);
        match (r, ok) {
            (Ok(_), true) => {}
            (Err(FrontendError::Unsupported(_)), false) => {}
            (r, _) => panic!("{src}: {r:?}"),
        }
    }
}

#[test]
fn a_thread_label_that_leaves_its_statement_is_unsupported() {
    let src =
        "int g;\nint main(void) {\n  __CPROVER_ASYNC_1: { g = 1; return 1; }\n  return 0;\n}\n";
    let r = frontend::load_source(src, DataModel::Lp64);
    assert!(
        matches!(&r, Err(FrontendError::Unsupported(m)) if m.contains("return")),
        "{r:?}"
    );
}

/// A program that detaches a thread (either way) and joins one is unsupported: the join may be
/// of a detached thread (undefined). Without the join, or with the joinable state, it verifies.
#[test]
fn a_join_in_a_program_that_detaches_is_unsupported() {
    let src = |detach: &str, join: &str| {
        format!(
            "#include <pthread.h>\nint x;\nvoid *w(void *a) {{ x = 1; return 0; }}\n\
             int main(void) {{\n  pthread_t t; pthread_attr_t attr;\n  pthread_attr_init(&attr);\n\
             {detach}\n  pthread_create(&t, &attr, w, 0);\n  {join}\n  return 0;\n}}\n"
        )
    };
    let detached = "pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);";
    let joinable = "pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_JOINABLE);";
    let self_detach = "pthread_detach(t);";
    let join = "pthread_join(t, 0);";
    for (d, j, ok) in [
        (detached, join, false),
        (self_detach, join, false),
        (joinable, join, true),
        (detached, "", true),
        (self_detach, "", true),
    ] {
        let text = src(d, j);
        match (frontend::load_source(&text, DataModel::Lp64), ok) {
            (Ok(_), true) => {}
            (Err(FrontendError::Unsupported(m)), false) if m.contains("pthread_join") => {}
            (r, _) => panic!("{text}: {r:?}"),
        }
    }
}

/// Mutex kinds: every kind glibc knows is modelled (recursive and error-checking ones with
/// their own semantics, see `tests/mutex_kinds.rs`), so no `settype` is refused, whatever its
/// kind; an unknown kind is glibc's `EINVAL`, which a program can observe.
#[test]
fn every_mutex_type_is_accepted() {
    let src = |kind: &str| {
        format!(
            "#include <pthread.h>\npthread_mutex_t m;\nint k;\nint main(void) {{\n\
             pthread_mutexattr_t a;\n  pthread_mutexattr_init(&a);\n\
             pthread_mutexattr_settype(&a, {kind});\n  pthread_mutex_init(&m, &a);\n\
             pthread_mutex_lock(&m);\n  pthread_mutex_unlock(&m);\n  return 0;\n}}\n"
        )
    };
    for kind in [
        "PTHREAD_MUTEX_NORMAL",
        "PTHREAD_MUTEX_DEFAULT",
        "PTHREAD_MUTEX_RECURSIVE",
        "PTHREAD_MUTEX_ERRORCHECK",
        "k",
    ] {
        let text = src(kind);
        if let Err(e) = frontend::load_source(&text, DataModel::Lp64) {
            panic!("{text}: {e:?}");
        }
    }
}
