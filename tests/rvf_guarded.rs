//! The rvf explorer's guarded folds (`rvf::guarded`): reads of a global the thread's held
//! mutex guards (or that nothing writes after the first thread creation) and releases of a
//! clean mutex by its holder go into a node's extension. The twins show that an access that
//! breaks the static precondition (`sharing::guards`) keeps the fold off, so their
//! violations stay found; the sweep over every test program is in tests/rvf_sweeps.rs.

use yogar::engine::{EngineOptions, Verdict};
use yogar::explore::{rvf, Explorer};
use yogar::frontend;
use yogar::ir::{DataModel, Program};

#[path = "common/rvf.rs"]
mod common;
use common::{load, options};

/// The whole space of `prog` at bound `unwind`, classes counted, with the guarded folds on
/// or off (everything else as `--engine rvf`).
fn explore(prog: &Program, unwind: u32, fold_guarded: bool) -> rvf::Report {
    rvf::explore(
        prog,
        &rvf::Options {
            fold_guarded,
            ..options(unwind, Some(std::time::Duration::from_secs(120)))
        },
    )
}

fn verdict(name: &str) -> Verdict {
    yogar::explore::verify(
        &load(name),
        &EngineOptions::with_unwind(2),
        Explorer::Rvf,
        None,
    )
    .verdict
}

const FALSE_TWINS: [&str; 4] = [
    "guarded_reads_unlocked_write_false.c",
    "guarded_reads_main_write_false.c",
    "guarded_trylock_busy_false.c",
    "unwritten_after_create_false.c",
];

const TRUE_TWINS: [&str; 2] = ["guarded_reads_true.c", "unwritten_after_create_true.c"];

/// Each FALSE twin (a write outside the lock, a write by main after the first creation, a
/// trylock that may find the mutex held, a write after the first creation of a global
/// the threads read) is FALSE with and without the fold; each TRUE twin is TRUE.
#[test]
fn the_twins_keep_their_verdicts() {
    for name in FALSE_TWINS {
        let v = verdict(name);
        assert!(matches!(v, Verdict::False { .. }), "{name}: {v:?}");
        for fold in [true, false] {
            let r = explore(&load(name), 2, fold);
            assert!(r.findings.incomplete.is_none(), "{name}, fold {fold}");
            assert!(r.findings.violation.is_some(), "{name}, fold {fold}");
        }
    }
    for name in TRUE_TWINS {
        let v = verdict(name);
        assert!(matches!(v, Verdict::True { .. }), "{name}: {v:?}");
    }
}

/// On the TRUE twins the fold covers the same RVF classes in fewer instances: the reads
/// inside the critical section (and the unlock), or of the global set before the threads
/// start, are no levels of their own.
#[test]
fn the_true_twins_have_the_same_classes_in_fewer_instances() {
    for name in TRUE_TWINS {
        let prog = load(name);
        let (with, without) = (explore(&prog, 2, true), explore(&prog, 2, false));
        for r in [&with, &without] {
            assert!(r.findings.incomplete.is_none(), "{name}");
            assert!(r.findings.violation.is_none(), "{name}");
        }
        assert_eq!(with.classes, without.classes, "{name}");
        assert!(with.classes.is_some(), "{name}");
        assert!(
            with.findings.stats.nodes < without.findings.stats.nodes,
            "{name}: {} vs {}",
            with.findings.stats.nodes,
            without.findings.stats.nodes
        );
    }
}

/// The lock counter at 3 threads: 3! executions and classes with and without the fold, and
/// with it at most half the instances (the read of the counter and the unlock are taken
/// with the lock's child).
#[test]
fn the_lock_counter_explores_the_same_orders_in_fewer_instances() {
    let n = 3;
    let src = format!(
        "#include <pthread.h>\n#include <assert.h>\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint counter = 0;\n\
         void *t(void *arg) {{ pthread_mutex_lock(&m); counter = counter + 1; \
         pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{\n  pthread_t th[{n}];\n\
         for (int i = 0; i < {n}; i++) pthread_create(&th[i], 0, t, 0);\n\
         for (int i = 0; i < {n}; i++) pthread_join(th[i], 0);\n\
         assert(counter == {n});\n  return 0;\n}}\n"
    );
    let prog = frontend::load_source(&src, DataModel::Lp64).expect("program lowers");
    let (with, without) = (explore(&prog, n + 1, true), explore(&prog, n + 1, false));
    for r in [&with, &without] {
        assert!(
            r.findings.incomplete.is_none(),
            "{:?}",
            r.findings.incomplete
        );
        assert!(r.findings.violation.is_none());
        assert_eq!(r.findings.stats.executions, 6);
        assert_eq!(r.classes, Some(6));
    }
    let (w, wo) = (with.findings.stats.nodes, without.findings.stats.nodes);
    assert!(2 * w <= wo, "{w} vs {wo} instances");
}
