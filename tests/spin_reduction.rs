//! The spin reduction (symbolic execution cuts iterations without a visible effect and
//! repeated condition waits) on the programs of tests/spin: every header's verdict with the
//! reduction, on the Yogar and the monolithic engine; whether the reduction cut anything as the
//! header says (`spin: yes|no`); and without the reduction the same verdict wherever that run
//! finishes (a TRUE program whose waiting loop has no bound ends in "unwind bound too small").

use std::path::{Path, PathBuf};

use yogar::engine::{self, EngineOptions, UnknownReason, Verdict};
use yogar::frontend;
use yogar::ir::DataModel;

struct Case {
    path: PathBuf,
    expect_true: bool,
    unwind: u32,
    reduced: bool,
}

fn field<'a>(head: &'a str, key: &str, path: &Path) -> &'a str {
    head.split(key)
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{}: no `{key}` in the header", path.display()))
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spin");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/spin") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let head = text.lines().next().unwrap_or("").to_string();
        let expect_true = match field(&head, "expect:", &path) {
            "TRUE" => true,
            "FALSE" => false,
            v => panic!("{}: unknown verdict {v}", path.display()),
        };
        let unwind = field(&head, "unwind:", &path).parse().expect("a bound");
        let reduced = field(&head, "spin:", &path) == "yes";
        out.push(Case {
            path,
            expect_true,
            unwind,
            reduced,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(out.len() >= 12, "only {} programs", out.len());
    out
}

fn word(v: &Verdict) -> String {
    match v {
        Verdict::True { .. } => "TRUE".into(),
        Verdict::False { .. } => "FALSE".into(),
        Verdict::Unknown(r) => format!("UNKNOWN ({r})"),
    }
}

fn run(
    case: &Case,
    spin: bool,
    verify: fn(&yogar::ir::Program, &EngineOptions) -> engine::Outcome,
) -> engine::Outcome {
    let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("loads");
    let mut opts = EngineOptions::with_unwind(case.unwind);
    opts.symex.spin_reduction = spin;
    opts.check_refinements = true;
    verify(&prog, &opts)
}

fn matches(case: &Case, v: &Verdict) -> bool {
    match v {
        Verdict::True { .. } => case.expect_true,
        Verdict::False { .. } => !case.expect_true,
        Verdict::Unknown(_) => false,
    }
}

#[test]
fn every_program_has_its_verdict_with_the_reduction() {
    let mut failures = Vec::new();
    for case in cases() {
        for (name, verify) in [
            ("yogar", engine::yogar::verify as fn(&_, &_) -> _),
            ("monolithic", engine::monolithic::verify),
        ] {
            let out = run(&case, true, verify);
            if !matches(&case, &out.verdict) {
                failures.push(format!(
                    "{} ({name}): got {}",
                    case.path.display(),
                    word(&out.verdict)
                ));
            }
            let cut = out.stats.spin.total() > 0;
            if cut != case.reduced {
                failures.push(format!(
                    "{} ({name}): reduction {} but the header says spin: {}",
                    case.path.display(),
                    if cut { "cut a loop" } else { "cut nothing" },
                    if case.reduced { "yes" } else { "no" }
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn without_the_reduction_the_verdicts_agree_where_the_run_finishes() {
    let mut failures = Vec::new();
    let mut finished_true = 0;
    for case in cases() {
        let out = run(&case, false, engine::yogar::verify);
        if out.stats.spin.total() != 0 {
            failures.push(format!(
                "{}: cut with the reduction off",
                case.path.display()
            ));
        }
        match &out.verdict {
            Verdict::Unknown(UnknownReason::BoundTooSmall { .. }) if case.expect_true => {}
            v if matches(&case, v) => finished_true += usize::from(case.expect_true),
            v => failures.push(format!("{}: got {}", case.path.display(), word(v))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The bounded loop of shared_write_loop_true.c is proved either way.
    assert!(finished_true >= 1);
}

/// The explorers run the program concretely and stop a thread at the back edge of an
/// iteration without a visible effect, as symbolic execution cuts its path there: on every
/// program they give the header's verdict, or run out of the bound where symbolic execution
/// cuts a loop they unroll (lock-retry loops, condition-wait loops).
#[test]
fn the_explorers_agree_with_the_reduction() {
    let mut failures = Vec::new();
    let mut decided = 0;
    for case in cases() {
        for engine in [engine::Engine::Dpor, engine::Engine::Cdpor] {
            let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("loads");
            let opts = EngineOptions::with_unwind(case.unwind);
            let out = engine.verify(&prog, &opts);
            let name = case.path.to_string_lossy();
            match &out.verdict {
                // Lock-retry loops and repeated condition waits are reduced by symbolic
                // execution only: the explorers unroll them (sound, only weaker).
                Verdict::Unknown(UnknownReason::BoundTooSmall { .. })
                    if name.contains("lock_retry") || name.contains("condwait") => {}
                v if matches(&case, v) => decided += 1,
                v => failures.push(format!(
                    "{} ({}): got {}",
                    case.path.display(),
                    engine.name(),
                    word(v)
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(decided >= 20, "only {decided} explorer verdicts");
}

/// With `pthread_mutex_trylock` in the program a waiter that re-takes its mutex can be seen,
/// so no condition wait is reduced there; without trylock the same waits are.
#[test]
fn condition_waits_are_not_reduced_where_trylock_can_see_them() {
    let by_name = |name: &str| {
        cases()
            .into_iter()
            .find(|c| c.path.ends_with(name))
            .expect("the program exists")
    };
    let probed = run(
        &by_name("condwait_trylock_sees_rewait_false.c"),
        true,
        engine::yogar::verify,
    );
    assert!(matches!(probed.verdict, Verdict::False { .. }));
    assert_eq!(probed.stats.spin.cond_wait_loops, 0);
    let plain = run(
        &by_name("condwait_signaller_true.c"),
        true,
        engine::yogar::verify,
    );
    assert!(matches!(plain.verdict, Verdict::True { .. }));
    assert_eq!(plain.stats.spin.cond_wait_loops, 1);
}
