//! The POWER explorer on C programs (`--engine rsmc`): under SC it must give every test
//! program's expected verdict where it decides; on POWER the store-buffering mutual exclusion
//! fails without barriers and holds with `sync`; models and engines that do not go together
//! give UNKNOWN.

use std::path::{Path, PathBuf};
use std::time::Duration;

use yogar::engine::{EngineOptions, MemoryModel, Verdict};
use yogar::explore::{verify, Explorer};
use yogar::frontend;
use yogar::ir::DataModel;
use yogar::verdict::UnknownReason;

fn run(path: &Path, mm: MemoryModel) -> Verdict {
    let prog = frontend::load_file(path, DataModel::Lp64).expect("lowers");
    let opts = EngineOptions {
        timeout: Some(Duration::from_secs(10)),
        memory_model: mm,
        ..EngineOptions::with_unwind(2)
    };
    verify(&prog, &opts, Explorer::Rsmc, None).verdict
}

/// Writes `text` as `<tag>.c` in a temporary directory of its own.
fn program(tag: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yogar-rsmc-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let f = dir.join(format!("{tag}.c"));
    std::fs::write(&f, text).expect("write");
    f
}

fn power(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/power")
        .join(name)
}

#[test]
fn sb_mutex_fails_on_power_and_holds_under_sc() {
    let p = power("sb_mutex.c");
    assert!(matches!(run(&p, MemoryModel::Power), Verdict::False { .. }));
    assert!(matches!(run(&p, MemoryModel::Sc), Verdict::True { .. }));
}

#[test]
fn sb_mutex_with_syncs_holds_on_power() {
    let p = power("sb_mutex_syncs.c");
    assert!(matches!(run(&p, MemoryModel::Power), Verdict::True { .. }));
    assert!(matches!(run(&p, MemoryModel::Sc), Verdict::True { .. }));
}

#[test]
fn tso_and_pso_are_unknown() {
    for mm in [MemoryModel::Tso, MemoryModel::Pso] {
        let v = run(&power("sb_mutex.c"), mm);
        assert!(
            matches!(
                v,
                Verdict::Unknown(UnknownReason::UnsupportedMemoryModel { .. })
            ),
            "{v:?}"
        );
    }
}

#[test]
fn power_with_a_sat_engine_is_unknown() {
    let task = yogar::pipeline::program_task(&power("sb_mutex.c"));
    let opts = yogar::pipeline::Options {
        memory_model: MemoryModel::Power,
        unwind: yogar::pipeline::Unwind::Fixed(2),
        ..yogar::pipeline::Options::default()
    };
    let out = yogar::pipeline::verify(&task, &opts).expect("runs");
    assert!(matches!(
        out.verdict,
        Verdict::Unknown(UnknownReason::UnsupportedMemoryModel { .. })
    ));
}

/// Every program of tests/programs the explorer decides under SC gets its expected verdict;
/// those outside the subset are UNKNOWN (unsupported), never a guess.
#[test]
fn sc_verdicts_match_the_test_programs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut decided = 0;
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/programs") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let expect_true = text.lines().next().unwrap_or("").contains("expect: TRUE");
        match run(&path, MemoryModel::Sc) {
            Verdict::True { .. } if expect_true => decided += 1,
            Verdict::False { .. } if !expect_true => decided += 1,
            Verdict::Unknown(_) => {}
            v => wrong.push(format!("{}: {v:?}", path.display())),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(decided >= 25, "only {decided} programs decided");
}

#[test]
fn loops_are_unsupported() {
    let f = program(
        "loop",
        "#include <pthread.h>\nint x;\nvoid *t(void *a) { for (int i = 0; i < 2; i++) x = i; return 0; }\n\
         int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); return 0; }\n",
    );
    let v = run(&f, MemoryModel::Power);
    assert!(
        matches!(&v, Verdict::Unknown(UnknownReason::Unsupported { what, .. }) if what.contains("loops")),
        "{v:?}"
    );
}

/// `abort()` ends the whole program: the join after it never returns, so the final-state
/// check after the joins is unreachable (TRUE). Ending only the thread would let the check
/// see `x == 1` and report a spurious FALSE.
#[test]
fn abort_in_a_thread_before_the_final_check_is_not_false() {
    let f = program(
        "abort",
        "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\nint x;\n\
         void *t(void *a) { x = 1; abort(); return 0; }\n\
         int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0);\n\
         assert(x == 0); return 0; }\n",
    );
    for mm in [MemoryModel::Sc, MemoryModel::Power] {
        let v = run(&f, mm);
        assert!(
            matches!(
                &v,
                Verdict::True { .. } | Verdict::Unknown(UnknownReason::Unsupported { .. })
            ),
            "{mm:?}: {v:?}"
        );
    }
}

/// The twin: a thread's `assert` (whose `__assert_fail` also ends the program) stays in the
/// subset, and the final check after the joins still fails.
#[test]
fn assert_in_a_thread_before_the_final_check_is_false() {
    let f = program(
        "assert",
        "#include <assert.h>\n#include <pthread.h>\nint x, y;\n\
         void *t(void *a) { x = 1; assert(y == 0); return 0; }\n\
         int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0);\n\
         assert(x == 0); return 0; }\n",
    );
    for mm in [MemoryModel::Sc, MemoryModel::Power] {
        let v = run(&f, mm);
        assert!(matches!(&v, Verdict::False { .. }), "{mm:?}: {v:?}");
    }
}

/// `flag && b` with `flag == 0` does not read `b` (C's sequencing): the store to `c` after it
/// depends on `flag` only, so `r = b ... c = 1` against `s = c; b = s` is LB+po+data, allowed
/// on POWER (both read 1). Loading `b` anyway would order `r = b` before `c = 1` (`po-loc`
/// to that load, whose value the branch depends on) and lose the violation.
#[test]
fn short_circuit_does_not_load_the_right_operand() {
    let f = program(
        "lb_and",
        "#include <assert.h>\n#include <pthread.h>\nint b, c, flag, r0, r1;\n\
         void *p(void *a) { int r = b; if (flag && b) { r0 = 5; } c = 1; r0 = r; return 0; }\n\
         void *q(void *a) { int s = c; b = s; r1 = s; return 0; }\n\
         int main(void) { pthread_t h, k; pthread_create(&h, 0, p, 0);\n\
         pthread_create(&k, 0, q, 0); pthread_join(h, 0); pthread_join(k, 0);\n\
         assert(!(r0 == 1 && r1 == 1)); return 0; }\n",
    );
    let v = run(&f, MemoryModel::Power);
    assert!(matches!(&v, Verdict::False { .. }), "{v:?}");
    let v = run(&f, MemoryModel::Sc);
    assert!(matches!(&v, Verdict::True { .. }), "{v:?}");
}

/// A thread whose parameter is `unsigned` reads the argument `(void *)-1` as `UINT_MAX`, not
/// as -1: the argument is converted to the parameter's type.
#[test]
fn thread_argument_is_converted_to_the_parameter_type() {
    let f = program(
        "arg",
        "#include <assert.h>\n#include <pthread.h>\nint x;\n\
         void *t(unsigned a) { if (a > 5) x = 1; return 0; }\n\
         int main(void) { pthread_t h;\n\
         pthread_create(&h, 0, (void *(*)(void *))t, (void *)-1); pthread_join(h, 0);\n\
         assert(x == 0); return 0; }\n",
    );
    for mm in [MemoryModel::Sc, MemoryModel::Power] {
        let v = run(&f, mm);
        assert!(
            matches!(&v, Verdict::False { .. } | Verdict::Unknown(_)),
            "{mm:?}: {v:?}"
        );
    }
}
