//! The counting rung keeps to its CPU share. Alone in its test binary: the budget counts the
//! process's CPU time, which other tests running beside it in one process would use up.

use std::time::Duration;

#[path = "common/cpu.rs"]
mod cpu;
use cpu::thread_cpu;
use yogar::frontend::load_file;
use yogar::ir::DataModel;
use yogar::sharing::Sharing;

/// The shared SV-COMP task `c/<rel>` (`../shared/sv-benchmarks` or `$SVB`), or `None` with a
/// message when there is no checkout.
fn shared_task(rel: &str) -> Option<std::path::PathBuf> {
    let Some(svb) = yogar::svcomp::sv_benchmarks(None) else {
        eprintln!("skipped: no sv-benchmarks checkout (../shared/sv-benchmarks or $SVB)");
        return None;
    };
    Some(svb.join("c").join(rel))
}

/// The counting rung keeps to its share: on fkp2013_variant-1, which its Houdini search
/// proves in about 9 s of CPU, a 1 s CPU budget ends it, as a timeout, after about that
/// much CPU (so the stateful search and bounded checking after it keep their time).
#[test]
fn the_counting_rung_keeps_to_its_cpu_share() {
    use yogar::budget::Budget;
    let Some(task) = shared_task("pthread-lit/fkp2013_variant-1.i") else {
        return;
    };
    let prog = load_file(&task, DataModel::Ilp32).expect("loads");
    let sharing = Sharing::analyse(&prog);
    let before = thread_cpu();
    let budget = Budget::cpu(Duration::from_secs(1), std::time::Instant::now());
    let r = yogar::prove::run::prove_counting(&prog, &sharing, &budget);
    let used = thread_cpu() - before;
    let no = r.expect_err("no proof within 1 s of CPU");
    assert!(no.timed_out, "ended by its budget: {}", no.reason);
    assert!(
        used < Duration::from_secs(3),
        "used {used:?} of a 1 s share"
    );
}
