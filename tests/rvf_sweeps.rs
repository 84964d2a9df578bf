//! Sweeps of the rvf explorer over every program of tests/programs: each reduction
//! (causal maps, fixed reads, folded joins, guarded folds, silent stops) against the
//! exploration without it, on the programs whose whole space both explore within half a
//! second: the same violations, the same classes, no more instances. They share one
//! lowering of the programs and one plain exploration.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use yogar::explore::rvf;
use yogar::frontend;
use yogar::ir::{DataModel, Program};

#[path = "common/rvf.rs"]
mod common;
use common::options;

/// Every program of tests/programs that lowers, with the bound its header names; lowered
/// once for the whole test binary (the sweeps below share it).
fn test_programs() -> &'static [(String, Program, u32)] {
    static PROGRAMS: OnceLock<Vec<(String, Program, u32)>> = OnceLock::new();
    PROGRAMS.get_or_init(lower_test_programs)
}

fn lower_test_programs() -> Vec<(String, Program, u32)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/programs")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let head = std::fs::read_to_string(dir.join(&name)).expect("readable");
        let unwind: u32 = head
            .lines()
            .next()
            .and_then(|l| l.split("unwind:").nth(1))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("unwind header");
        if let Ok(prog) = frontend::load_file(&dir.join(&name), DataModel::Lp64) {
            out.push((name, prog, unwind));
        }
    }
    out
}

/// rvf over the whole space of `prog` (classes counted) within half a second, with the
/// options `--engine rvf` uses (`common::options`) as `change` leaves them.
fn half_second(prog: &Program, unwind: u32, change: impl FnOnce(&mut rvf::Options)) -> rvf::Report {
    let mut opts = options(unwind, Some(Duration::from_millis(500)));
    change(&mut opts);
    rvf::explore(prog, &opts)
}

/// [`half_second`] as `--engine rvf` explores with classes counted (no causal maps, fixed
/// reads, symbolic inputs, joins folded) on every test program, computed once: the
/// causal-map, silent-stop and folded-join sweeps all compare against exactly this
/// exploration. Two worker threads:
/// the sweep that waits for it would otherwise hold a test thread idle.
fn plain_runs() -> &'static [rvf::Report] {
    static RUNS: OnceLock<Vec<rvf::Report>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let progs = test_programs();
        let next = AtomicUsize::new(0);
        let done = Mutex::new(Vec::with_capacity(progs.len()));
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    let mut i = next.fetch_add(1, Ordering::Relaxed);
                    while let Some((_, prog, unwind)) = progs.get(i) {
                        let r = half_second(prog, *unwind, |_| ());
                        done.lock().unwrap().push((i, r));
                        i = next.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        let mut done = done.into_inner().unwrap();
        done.sort_by_key(|(i, _)| *i);
        done.into_iter().map(|(_, r)| r).collect()
    })
}

/// On every program of tests/programs whose whole space both explore within half a second each,
/// the exploration with causal maps covers the same RVF classes (those of its leaves) and
/// finds the same violations as without them. (Not always in fewer instances: an instance
/// reached again under a causal map that the first visit's map does not imply is explored
/// again.)
#[test]
fn causal_maps_lose_no_execution_on_the_test_programs() {
    let mut compared = 0;
    for ((name, prog, unwind), without) in test_programs().iter().zip(plain_runs()) {
        if without.findings.incomplete.is_some() {
            continue;
        }
        let with = half_second(prog, *unwind, |o| o.causal_maps = true);
        if with.findings.incomplete.is_some() {
            continue;
        }
        compared += 1;
        let (w, wo) = (&with.findings.stats, &without.findings.stats);
        eprintln!(
            "{name}: instances {} (+{} cut by the memo) vs {} (+{}), steps {} vs {}",
            w.nodes, w.redundant, wo.nodes, wo.redundant, w.steps, wo.steps
        );
        // After a violation a witness search stops (`verify_sc::search` returns at the first
        // violating run): the rest of the space is not covered then, in either exploration.
        if without.findings.violation.is_none() {
            assert_eq!(with.classes, without.classes, "{name}");
        }
        assert_eq!(
            with.findings.violation.is_some(),
            without.findings.violation.is_some(),
            "{name}"
        );
    }
    assert!(compared >= 40, "only {compared} programs compared");
}

/// The reads the closure fixes (`rvf::fixed`, taken without a witness search) lose nothing:
/// on every test program the exploration explores the same executions, standing for the
/// same RVF classes, and finds the same violations as with every read searched.
#[test]
fn fixed_reads_lose_no_class_on_the_test_programs() {
    let mut compared = 0;
    let mut faster = 0;
    for (name, prog, unwind) in test_programs() {
        let unwind = *unwind;
        let run = |fixed_reads| {
            half_second(prog, unwind, |o| {
                o.fixed_reads = fixed_reads;
                o.symbolic_inputs = false;
            })
        };
        // The exploration with fixed reads first: where it does not complete, the one that
        // searches every read is not compared either.
        let with = run(true);
        if with.findings.incomplete.is_some() {
            continue;
        }
        let without = run(false);
        if without.findings.incomplete.is_some() {
            continue;
        }
        compared += 1;
        let (w, wo) = (&with.findings.stats, &without.findings.stats);
        faster += usize::from(w.steps < wo.steps);
        // After a violation a witness search stops at the first violating run: the rest of
        // the space is not covered then, and the two explorations may cover different parts.
        assert_eq!(
            with.findings.violation.is_some(),
            without.findings.violation.is_some(),
            "{name}"
        );
        if without.findings.violation.is_none() {
            assert_eq!(w.executions, wo.executions, "{name}");
            assert_eq!(w.nodes, wo.nodes, "{name}");
            assert_eq!(with.classes, without.classes, "{name}");
        }
    }
    assert!(compared >= 40, "only {compared} programs compared");
    assert!(
        faster >= 10,
        "only {faster} programs with fewer search steps"
    );
}

/// Compares the plain exploration (every fold on) with the one `without` leaves, on every
/// test program both explore whole within half a second: a violation in one exactly when in
/// the other, and without one the same classes in no more instances. Returns how many
/// programs were compared and on how many the plain one explored fewer instances.
fn fold_loses_nothing(without: impl Fn(&mut rvf::Options)) -> (usize, usize) {
    let mut compared = 0;
    let mut fewer = 0;
    for ((name, prog, unwind), with) in test_programs().iter().zip(plain_runs()) {
        if with.findings.incomplete.is_some() {
            continue;
        }
        let without = half_second(prog, *unwind, &without);
        if without.findings.incomplete.is_some() {
            continue;
        }
        compared += 1;
        let (w, wo) = (&with.findings.stats, &without.findings.stats);
        fewer += usize::from(w.nodes < wo.nodes);
        assert_eq!(
            with.findings.violation.is_some(),
            without.findings.violation.is_some(),
            "{name}"
        );
        if without.findings.violation.is_none() {
            assert_eq!(with.classes, without.classes, "{name}");
            assert!(w.nodes <= wo.nodes, "{name}: {} vs {}", w.nodes, wo.nodes);
        }
    }
    (compared, fewer)
}

/// Joins of finished threads taken into the extension (`rvf::joins`) lose nothing: on every
/// test program whose whole space both explore within half a second, the exploration finds
/// a violation exactly when the one that searches every join does, and without a violation
/// its leaves stand for the same RVF classes. On some programs it explores fewer instances.
#[test]
fn folded_joins_lose_no_violation_on_the_test_programs() {
    let (compared, fewer) = fold_loses_nothing(|o| o.fold_joins = false);
    assert!(compared >= 40, "only {compared} programs compared");
    assert!(fewer >= 5, "fewer instances on only {fewer} programs");
}

/// Reads of guarded or unwritten globals and releases by the holder taken into the extension
/// (`rvf::guarded`) lose nothing: on every test program whose whole space both explore
/// within half a second, the exploration finds a violation exactly when the one without the
/// fold does, and without a violation its leaves stand for the same RVF classes, in no more
/// instances. On some programs it explores fewer (the twins and the lock counter are in
/// tests/rvf_guarded.rs).
#[test]
fn folded_guarded_reads_lose_no_violation_on_the_test_programs() {
    let (compared, fewer) = fold_loses_nothing(|o| o.fold_guarded = false);
    eprintln!("guarded folds: {compared} programs compared, {fewer} with fewer instances");
    assert!(compared >= 40, "only {compared} programs compared");
    assert!(fewer >= 10, "fewer instances on only {fewer} programs");
}

/// rvf over the whole space of `prog` within half a second, as `--engine rvf` explores it:
/// classes not counted, so children whose read stops its thread silently are not explored
/// (`rvf::stopping`); with `count`, classes counted and every child explored.
fn half_second_pruned(prog: &Program, unwind: u32, count: bool) -> rvf::Report {
    half_second(prog, unwind, |o| o.count_classes = count)
}

/// On every program of tests/programs whose whole space both explore within half a second,
/// not exploring silent stops finds a violation exactly when exploring them does (both
/// complete), in at most as many executions.
#[test]
fn silent_stops_lose_no_violation_on_the_test_programs() {
    let mut compared = 0;
    let mut pruned_some = 0;
    for ((name, prog, unwind), w) in test_programs().iter().zip(plain_runs()) {
        if w.findings.incomplete.is_some() {
            continue;
        }
        let p = half_second_pruned(prog, *unwind, false);
        if p.findings.incomplete.is_some() {
            continue;
        }
        compared += 1;
        pruned_some += usize::from(p.findings.stats.silent_stops > 0);
        assert_eq!(
            p.findings.violation.is_some(),
            w.findings.violation.is_some(),
            "{name}"
        );
        if w.findings.violation.is_none() {
            assert!(
                p.findings.stats.executions <= w.findings.stats.executions,
                "{name}"
            );
        }
    }
    assert!(compared >= 40, "only {compared} programs compared");
    assert!(
        pruned_some >= 3,
        "silent stops in only {pruned_some} programs"
    );
}
