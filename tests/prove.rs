//! The prover's analyser (`prove::analyze`) against the certificate checker: small programs
//! of the shapes the SV-COMP targets have, each proved TRUE, each with a FALSE twin that
//! differs minimally and that no certificate may prove; and deliberately broken analyses
//! whose certificates the checker must reject.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

#[path = "common/cpu.rs"]
mod cpu;
use cpu::thread_cpu;
use yogar::frontend::load_file;
use yogar::ir::DataModel;
use yogar::prove::analyze::{analyze_opts, analyze_with, Sabotage};
use yogar::prove::{check, templates};
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

/// What the prover made of a program.
#[derive(Debug, PartialEq)]
enum Outcome {
    Proved,
    /// The analyser found no certificate (why).
    GaveUp(String),
    /// The checker rejected the certificate (why).
    Rejected(String),
}

/// As `prove::run::prove` does: the plain analysis, then, each time the checker rejects a
/// certificate, the analysis with phase ghosts, then the one with private keys.
fn prove_with(path: &Path, model: DataModel, sabotage: Sabotage) -> Outcome {
    let prog = load_file(path, model).expect("program loads");
    let sharing = Sharing::analyse(&prog);
    let mut first: Option<String> = None;
    for rung in 0..4 {
        // The counting rung has no such mistakes to make: a sabotaged analysis is judged by
        // the rungs it breaks, not rescued by the counting rung's own (unbroken) search.
        if rung == 3 && sabotage != Sabotage::default() {
            continue;
        }
        let mut ts = match templates::build(&prog, &sharing) {
            Ok(ts) => ts,
            Err(e) => return Outcome::GaveUp(e.to_string()),
        };
        let cert = match rung {
            0 => analyze_with(&mut ts, sabotage),
            1 => yogar::prove::analyze::analyze_phased(&mut ts, sabotage),
            2 => analyze_opts(&mut ts, sabotage, true),
            _ => yogar::prove::analyze::counters::analyze_counting(
                &mut ts,
                Some(Duration::from_secs(120)),
            ),
        };
        let cert = match cert {
            Ok(c) => c,
            Err(e) if rung == 0 => return Outcome::GaveUp(e.to_string()),
            Err(_) => continue,
        };
        match check::check(&ts, &cert, Some(Duration::from_secs(120))) {
            Ok(_) => return Outcome::Proved,
            Err(e) => {
                first.get_or_insert_with(|| e.to_string());
            }
        }
    }
    Outcome::Rejected(first.unwrap_or_default())
}

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/prove")
        .join(name)
}

fn prove(name: &str) -> Outcome {
    prove_with(&program(name), DataModel::Lp64, Sabotage::default())
}

/// Every `*_true.c` of `tests/programs/prove` is proved; every `*_false.c` is not (nor any
/// other file there: `*_unproved.c` are TRUE programs the analyser cannot prove yet).
#[test]
fn twins() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/prove");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("test programs")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    // Two worker threads: this is the binary's longest test, and the others finish early.
    let next = AtomicUsize::new(0);
    let wrong = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(n) = names.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let start = thread_cpu();
                    let o = prove(n);
                    eprintln!("{n}: {o:?} ({:.2?} CPU)", thread_cpu() - start);
                    let ok = if n.ends_with("_true.c") {
                        o == Outcome::Proved
                    } else {
                        o != Outcome::Proved
                    };
                    if !ok {
                        wrong.lock().unwrap().push(format!("{n}: {o:?}"));
                    }
                }
            });
        }
    });
    let mut wrong = wrong.into_inner().unwrap();
    wrong.sort();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// An analysis that drops the interference claims that a lock-protected counter is always 0
/// even without the lock (its states see no other thread's write), and the checker refuses
/// that certificate; with the lock in place, the same broken analysis happens to be right,
/// and the checker accepts it only because it is.
#[test]
fn checker_rejects_an_analysis_without_interference() {
    let broken = Sabotage {
        drop_interference: true,
        ..Sabotage::default()
    };
    let o = prove_with(&program("lock_counter_false.c"), DataModel::Lp64, broken);
    assert!(matches!(o, Outcome::Rejected(_)), "{o:?}");
    let o = prove_with(
        &program("written_constant_false.c"),
        DataModel::Lp64,
        broken,
    );
    assert!(matches!(o, Outcome::Rejected(_)), "{o:?}");
    let o = prove_with(&program("nonzero_seed_false.c"), DataModel::Lp64, broken);
    assert!(matches!(o, Outcome::Rejected(_)), "{o:?}");
}

/// An analysis whose transfer function for `+` is off by one (it adds one more than the
/// program) produces a certificate the checker refuses, even on a TRUE program.
#[test]
fn checker_rejects_a_wrong_transfer_function() {
    let broken = Sabotage {
        add_off_by_one: true,
        ..Sabotage::default()
    };
    let o = prove_with(&program("bounded_counter_true.c"), DataModel::Lp64, broken);
    assert!(matches!(o, Outcome::Rejected(_)), "{o:?}");
}

/// The SV-COMP targets of issue #24 (run with `--ignored`; prints a table).
#[test]
#[ignore]
fn svcomp_targets() {
    let Some(base) = shared_task("pthread-ext") else {
        return;
    };
    for name in [
        "25_stack_longer-2",
        "25_stack_longest-1",
        "26_stack_cas_longer-2",
        "26_stack_cas_longest-2",
        "29_conditionals_vs",
        "30_Function_Pointer3_vs",
        "31_simple_loop5_vs",
        "33_double_lock_p1_vs",
        "34_double_lock_p2_vs",
        "35_double_lock_p3_vs",
        "36_stack_cas_p0_vs_concur",
        "38_rand_cas_vs_concur",
        "39_rand_lock_p0_vs",
        "41_FreeBSD_abd_kbd_sliced",
        "43_NetBSD_sysmon_power_sliced",
        "44_Solaris_space_map_sliced",
        "45_monabsex1_vs",
        "46_monabsex2_vs",
    ] {
        let p = base.join(format!("{name}.i"));
        if !p.exists() {
            continue;
        }
        let start = cpu_time();
        let o = prove_with(&p, DataModel::Ilp32, Sabotage::default());
        eprintln!("| {name} | {o:?} | {:.2}s |", cpu_time() - start);
    }
}

fn cpu_time() -> f64 {
    yogar::budget::cpu_time().as_secs_f64()
}

/// Prints the templates and the analyser's invariants of `PROVE_DUMP` (a path), for
/// debugging (run with `--ignored --nocapture`; `PROVE_PHASED=1` for the analysis with phase
/// ghosts).
#[test]
#[ignore]
fn dump() {
    let Ok(path) = std::env::var("PROVE_DUMP") else {
        return;
    };
    let model = if path.ends_with(".i") {
        DataModel::Ilp32
    } else {
        DataModel::Lp64
    };
    let prog = load_file(Path::new(&path), model).expect("program loads");
    let sharing = Sharing::analyse(&prog);
    let mut ts = templates::build(&prog, &sharing).expect("templates");
    let start = cpu_time();
    let cert = if std::env::var("PROVE_PHASED").is_ok() {
        yogar::prove::analyze::analyze_phased(&mut ts, Sabotage::default())
    } else {
        analyze_with(&mut ts, Sabotage::default())
    };
    eprintln!("analysis: {:.2}s CPU", cpu_time() - start);
    let pr = yogar::ir::print::Printer { prog: &ts.program };
    let Ok(cert) = cert else {
        eprintln!("{cert:?}");
        return;
    };
    for (t, tpl) in ts.templates.iter() {
        eprintln!("template {:?} {}", t, ts.program.funcs[tpl.entry].name);
        for (l, ins) in tpl.body.instrs.iter() {
            let inv = &cert.invariants[t][l];
            let facts: Vec<String> = inv
                .facts
                .iter()
                .map(|f| match f {
                    yogar::prove::Fact::Holds(e) => pr.expr(e),
                    yogar::prove::Fact::PointsTo { var, targets } => {
                        format!("{} -> {targets:?}", ts.program.vars[*var].name)
                    }
                })
                .collect();
            eprintln!(
                "  {:3} d{} {:50} {}",
                l.as_u32(),
                tpl.atomic_depth[l],
                pr.instr(&ins.kind),
                if inv.unreachable {
                    "UNREACHABLE".into()
                } else {
                    facts.join(" ; ")
                }
            );
        }
    }
    for u in &cert.updates {
        eprintln!(
            "update {:?} at {} : {} := {:?}",
            u.template,
            u.at.as_u32(),
            ts.program.vars[u.ghost].name,
            u.value
        );
    }
    let start = cpu_time();
    let r = check::check(&ts, &cert, Some(Duration::from_secs(120)));
    eprintln!("check: {:.2}s CPU: {r:?}", cpu_time() - start);
}

/// An analysis whose small-variable partitions are wrong (a copy into `a`, `b` or `c` stores
/// the next value instead) yields a wrong tuple set, and the checker refuses it.
#[test]
fn checker_rejects_a_wrong_tuple_set() {
    let broken = Sabotage {
        skew_small_copies: true,
        ..Sabotage::default()
    };
    let o = prove_with(&program("small_rotation_true.c"), DataModel::Lp64, broken);
    assert!(matches!(o, Outcome::Rejected(_)), "{o:?}");
}

/// An analysis whose path facts survive writes (a relation between `z` and `x == y` kept after
/// `x` changed) yields a stale relation, and the checker refuses it.
#[test]
fn checker_rejects_a_stale_path_fact() {
    let broken = Sabotage {
        keep_path_facts_on_write: true,
        ..Sabotage::default()
    };
    let o = prove_with(
        &program("branch_correlation_stale_false.c"),
        DataModel::Lp64,
        broken,
    );
    assert!(matches!(o, Outcome::Rejected(_)), "{o:?}");
}

/// With phase ghosts, an analysis that drops the interference claims `count == 0` where a
/// worker holding the other lock may have changed it, and the checker refuses it.
#[test]
fn checker_rejects_phases_without_interference() {
    let broken = Sabotage {
        drop_interference: true,
        ..Sabotage::default()
    };
    let mut ts = {
        let prog = load_file(&program("lock_phases_false.c"), DataModel::Lp64).expect("loads");
        let sharing = Sharing::analyse(&prog);
        templates::build(&prog, &sharing).expect("templates")
    };
    let cert = yogar::prove::analyze::analyze_phased(&mut ts, broken).expect("a certificate");
    assert!(
        cert.updates
            .iter()
            .any(|u| ts.program.vars[u.ghost].name.starts_with("__yogar_phase")),
        "phase ghosts are used"
    );
    let r = check::check(&ts, &cert, Some(Duration::from_secs(120)));
    assert!(r.is_err(), "{r:?}");
}

/// A counter certificate whose "created" counters do not count the new instance (their sets
/// leave out the entries, the facts found with them kept) is rejected by the checker: the
/// checker, not the certificate, decides how a creation changes a counter.
#[test]
fn checker_rejects_a_counter_that_misses_creations() {
    use yogar::prove::analyze::counters::{analyze_counting_with, Sabotage as CounterSabotage};
    let Some(task) = shared_task("pthread-lit/fkp2013_variant-1.i") else {
        return;
    };
    let prog = load_file(&task, DataModel::Ilp32).expect("loads");
    let sharing = Sharing::analyse(&prog);
    // Generous: the limit is wall-clock time, and a loaded machine gives a fraction of it.
    let limit = Some(Duration::from_secs(600));
    let mut ts = templates::build(&prog, &sharing).expect("templates");
    let good = analyze_counting_with(&mut ts, limit, CounterSabotage::default()).expect("cert");
    assert!(check::check(&ts, &good, limit).is_ok());
    let mut ts = templates::build(&prog, &sharing).expect("templates");
    let broken = CounterSabotage {
        uncounted_creation: true,
    };
    let bad = analyze_counting_with(&mut ts, limit, broken).expect("a certificate");
    assert_ne!(
        good.counters, bad.counters,
        "the sabotage changes a counter"
    );
    let r = check::check(&ts, &bad, limit);
    assert!(r.is_err(), "{r:?}");
}

/// The FALSE twin of the counter-ghost program is FALSE for the bounded engine.
#[test]
fn counter_twin_is_false_for_bounded_checking() {
    let name = "counted_section_false.c";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--unwind", "3"])
        .arg(program(name))
        .output()
        .expect("yogar runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(10), "{name}: {text}");
}
