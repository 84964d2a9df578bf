//! The stateful engine (`--engine stateful`) on the programs of tests/stateful: threads that
//! loop forever over a finite state space are proved TRUE (no bound closes their loops), each
//! FALSE twin, differing minimally, is found FALSE with a witness `yogar replay` confirms, and
//! what the search cannot finish (threads created forever, wide inputs) stays UNKNOWN. The
//! expected verdict is on each program's first line (`// expect: TRUE|FALSE|UNKNOWN`; an
//! UNKNOWN program runs under a budget of 100000 states and 60 s).
//! A search that drops a successor on purpose must have its TRUE rejected by the certificate
//! check.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use yogar::engine::Verdict;
use yogar::explore::interp::CanonInfo;
use yogar::explore::stateful::{self, Options};
use yogar::frontend;
use yogar::ir::{DataModel, Program};
use yogar::verdict::UnknownReason;

#[path = "common/witness.rs"]
mod witness;

fn programs() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful");
    let mut out: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .expect("tests/stateful")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("c"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            let expect = text
                .lines()
                .next()
                .and_then(|l| l.split("expect:").nth(1))
                .and_then(|r| r.split_whitespace().next())
                .unwrap_or_else(|| panic!("{}: no `expect:` header", p.display()))
                .to_string();
            (p, expect)
        })
        .collect();
    out.sort();
    assert!(out.len() >= 12, "only {} programs", out.len());
    out
}

fn load(path: &Path) -> Program {
    frontend::load_file(path, DataModel::Lp64).expect("the program loads")
}

fn options() -> Options {
    Options {
        max_states: Some(100_000),
        max_resident: None,
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        max_domain: stateful::MAX_DOMAIN,
        drop_successor: None,
        por: true,
        por_fault: None,
    }
}

#[test]
fn every_program_gets_its_expected_verdict() {
    let mut failures = Vec::new();
    for (path, expect) in programs() {
        let prog = load(&path);
        let out = stateful::run(&prog, &options());
        let ok = match (expect.as_str(), &out.verdict) {
            ("TRUE", Verdict::True { complete: true }) => {
                let proof = out.proved_by.clone().unwrap_or_default();
                let states = out.stats.explore.as_ref().map_or(0, |e| e.states);
                proof == format!("stateful exploration ({states} states)") && states > 0
            }
            ("FALSE", Verdict::False { trace }) => {
                !trace.events.is_empty() && out.proved_by.is_none()
            }
            ("UNKNOWN", Verdict::Unknown(_)) => out.proved_by.is_none(),
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}: expected {expect}, got {}",
                path.display(),
                out.verdict
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn threads_created_forever_exhaust_the_state_budget() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful/unbounded_creation_unknown.c");
    let out = stateful::run(
        &load(&path),
        &Options {
            max_states: Some(2_000),
            ..options()
        },
    );
    assert!(
        matches!(
            out.verdict,
            Verdict::Unknown(UnknownReason::StateBudget { states: 2_001 })
        ),
        "{}",
        out.verdict
    );
}

/// The search drops one successor, the way a buggy search (or an unsound reduction) would:
/// for every choice of the dropped successor among the first states, the check must reject
/// the result or the search must still find the states another way; it must never answer
/// TRUE with a set that is not closed. At least one choice must break the closure, and that
/// one must be rejected.
#[test]
fn the_certificate_check_rejects_a_state_set_that_is_not_closed() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful/peterson_forever_true.c");
    let prog = load(&path);
    let mut rejected = 0;
    for state in 0..40u32 {
        for k in 0..2 {
            let out = stateful::run(
                &prog,
                &Options {
                    drop_successor: Some((state, k)),
                    ..options()
                },
            );
            match &out.verdict {
                Verdict::Unknown(UnknownReason::Internal(why))
                    if why.contains("the state set failed its check") =>
                {
                    rejected += 1
                }
                Verdict::True { .. } => {}
                v => panic!("dropping successor {k} of state {state} gave {v}"),
            }
        }
    }
    assert!(rejected > 0, "no dropped successor broke the closure");
}

/// A search that drops a successor in a FALSE program must never get a TRUE through: the
/// violation is found another way, or the check rejects the set.
#[test]
fn a_dropped_successor_never_turns_false_into_true() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/stateful/peterson_forever_no_turn_false.c");
    let prog = load(&path);
    for state in 0..40u32 {
        for k in 0..2 {
            let out = stateful::run(
                &prog,
                &Options {
                    drop_successor: Some((state, k)),
                    ..options()
                },
            );
            match &out.verdict {
                Verdict::False { .. } => {}
                Verdict::Unknown(UnknownReason::Internal(why))
                    if why.contains("the state set failed its check") => {}
                v => panic!("dropping successor {k} of state {state} gave {v}"),
            }
        }
    }
}

/// The FALSE twins' witnesses replay: `yogar replay` runs the program along the witness into
/// the violation.
#[test]
fn false_twins_have_witnesses_that_replay_confirms() {
    let tmp = std::env::temp_dir().join(format!("yogar-stateful-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (path, expect) in programs() {
        if expect != "FALSE" {
            continue;
        }
        let witness = tmp.join(format!("{checked}.graphml"));
        if let Err(why) = witness::verify_then_replay(&["--engine", "stateful"], &path, &witness) {
            failures.push(why);
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(checked >= 5, "only {checked} FALSE programs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Symmetry between threads is used only where thread numbers are unobservable: identical
/// workers created into a handle nobody reads, not workers that compare `pthread_self()`.
#[test]
fn symmetry_only_where_thread_numbers_are_unobservable() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful");
    let sym = |name: &str| CanonInfo::of(&load(&dir.join(name))).symmetric;
    assert!(sym("symmetric_workers_true.c"));
    assert!(sym("symmetric_workers_three_false.c"));
    assert!(!sym("thread_numbers_observed_false.c"));
}

/// The verdict line of a proof says how it was obtained.
#[test]
fn the_cli_prints_how_true_was_proved() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful/counter_mod_true.c");
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--engine", "stateful"])
        .arg(&path)
        .output()
        .expect("verify runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(lines.last(), Some(&"TRUE"), "{text}");
    let proved = lines[lines.len() - 2];
    assert!(
        proved.starts_with("proved by: stateful exploration (") && proved.ends_with(" states)"),
        "{text}"
    );
}

/// The kind of a verdict, for comparing runs.
fn kind(v: &Verdict) -> &'static str {
    match v {
        Verdict::True { .. } => "TRUE",
        Verdict::False { .. } => "FALSE",
        Verdict::Unknown(_) => "UNKNOWN",
    }
}

fn stored(out: &yogar::engine::Outcome) -> (u64, u64) {
    out.stats
        .explore
        .as_ref()
        .map_or((0, 0), |e| (e.states, e.reduced_states))
}

/// The partial-order reduction changes no verdict of any program (the FALSE twins of the
/// reduction's own programs among them), and on the stop protocol it reduces states and
/// stores under two thirds of the states the search stores without it.
#[test]
fn the_reduction_keeps_every_verdict_and_stores_fewer_states() {
    let mut failures = Vec::new();
    for (path, _) in programs() {
        let prog = load(&path);
        let with = stateful::run(&prog, &options());
        let without = stateful::run(
            &prog,
            &Options {
                por: false,
                ..options()
            },
        );
        if kind(&with.verdict) != kind(&without.verdict) {
            failures.push(format!(
                "{}: {} with the reduction, {} without",
                path.display(),
                with.verdict,
                without.verdict
            ));
        }
        assert_eq!(stored(&without).1, 0, "{}", path.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful/por_stop_protocol_true.c");
    let prog = load(&path);
    let with = stateful::run(&prog, &options());
    let without = stateful::run(
        &prog,
        &Options {
            por: false,
            max_states: None,
            ..options()
        },
    );
    assert!(matches!(with.verdict, Verdict::True { complete: true }));
    assert!(matches!(without.verdict, Verdict::True { complete: true }));
    let ((reduced_states, reduced), (full_states, _)) = (stored(&with), stored(&without));
    assert!(reduced > 0, "no state was reduced");
    assert!(
        reduced_states * 3 < full_states * 2,
        "{reduced_states} states with the reduction, {full_states} without"
    );
}

/// A reduction that takes any thread alone, whatever its step touches, prunes interleavings:
/// the certificate check re-derives independence and rejects it, and on the FALSE twins it
/// never yields TRUE.
#[test]
fn the_certificate_check_rejects_a_reduction_without_independence() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful");
    let faulty = || Options {
        por_fault: Some(stateful::ample::Fault::AnyThread),
        ..options()
    };
    let out = stateful::run(&load(&dir.join("por_stop_protocol_true.c")), &faulty());
    match &out.verdict {
        Verdict::Unknown(UnknownReason::Internal(why))
            if why.contains("marked reduced, but no thread") => {}
        v => panic!("a reduction without independence gave {v}"),
    }
    for name in [
        "por_stop_protocol_leave_first_false.c",
        "por_local_spin_false.c",
        "peterson_forever_no_turn_false.c",
        "flag_handshake_early_flag_false.c",
    ] {
        let out = stateful::run(&load(&dir.join(name)), &faulty());
        assert!(
            !matches!(out.verdict, Verdict::True { .. }),
            "{name}: a reduction without independence gave TRUE"
        );
    }
}

/// Without the cycle proviso the thread that spins on local steps is expanded alone forever
/// and the failing assertion of the other is never reached: the check finds the cycle of
/// reduced states and rejects the set.
#[test]
fn the_certificate_check_rejects_a_reduction_without_the_cycle_proviso() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stateful");
    let out = stateful::run(
        &load(&dir.join("por_local_spin_false.c")),
        &Options {
            por_fault: Some(stateful::ample::Fault::NoProviso),
            ..options()
        },
    );
    match &out.verdict {
        Verdict::Unknown(UnknownReason::Internal(why)) if why.contains("form a cycle") => {}
        v => panic!("a reduction without the proviso gave {v}"),
    }
    let out = stateful::run(&load(&dir.join("por_local_spin_false.c")), &options());
    assert!(
        matches!(out.verdict, Verdict::False { .. }),
        "{}",
        out.verdict
    );
}
