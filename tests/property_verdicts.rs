//! no-data-race and no-overflow: every program in tests/programs/races (tests/programs/overflow)
//! has its expected verdict under that property on its first line (`// expect: FALSE
//! unwind: 2`), and comes with a twin that differs minimally (a lock, an atomic section, a
//! join moved, a field, `__thread`; `long long` for `int`, one thread less). The default engine
//! and dpor must both give it (dpor enumerates inputs under no-overflow: a program whose
//! header says `dpor: UNKNOWN` has an input of too many values); every FALSE witness of
//! either must be confirmed by `yogar replay` (two threads whose next steps race; an
//! overflow reached), and replay's own search must find no violation in a TRUE program. The
//! engines that do not check a property answer `UNKNOWN (unsupported property)`.

use std::path::{Path, PathBuf};
use std::process::Command;

use yogar::engine::{Engine, EngineOptions, Verdict};
use yogar::explore::{replay, Limits, ReplayResult};
use yogar::frontend;
use yogar::ir::DataModel;
use yogar::svcomp::{Property, NO_DATA_RACE_SPEC, NO_OVERFLOW_SPEC};
use yogar::verdict::Violation;

struct Case {
    path: PathBuf,
    expect_true: bool,
    unwind: u32,
    /// dpor answers UNKNOWN (an input it cannot enumerate).
    dpor_unknown: bool,
}

/// A property's programs.
struct Suite {
    dir: &'static str,
    property: Property,
    spec: &'static str,
    violation: Violation,
}

const RACES: Suite = Suite {
    dir: "races",
    property: Property::NoDataRace,
    spec: NO_DATA_RACE_SPEC,
    violation: Violation::DataRace,
};

const OVERFLOW: Suite = Suite {
    dir: "overflow",
    property: Property::NoOverflow,
    spec: NO_OVERFLOW_SPEC,
    violation: Violation::Overflow,
};

fn cases(suite: &Suite) -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(suite.dir);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/programs/<property>") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let head = text.lines().next().unwrap_or("");
        let verdict = head
            .split("expect:")
            .nth(1)
            .and_then(|r| r.split_whitespace().next());
        let unwind = head
            .split("unwind:")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}: no `unwind:` header", path.display()));
        let expect_true = match verdict {
            Some("TRUE") => true,
            Some("FALSE") => false,
            v => panic!("{}: bad verdict {v:?}", path.display()),
        };
        out.push(Case {
            path,
            expect_true,
            unwind,
            dpor_unknown: text.contains("dpor enumerates inputs"),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(out.len() >= 12, "only {} programs", out.len());
    let falses = out.iter().filter(|c| !c.expect_true).count();
    assert!(falses >= 6 && out.len() - falses >= 6, "twins missing");
    out
}

fn options(suite: &Suite, unwind: u32) -> EngineOptions {
    EngineOptions {
        property: suite.property.clone(),
        ..EngineOptions::with_unwind(unwind)
    }
}

fn word(v: &Verdict) -> String {
    match v {
        Verdict::True { .. } => "TRUE".into(),
        Verdict::Unknown(r) => format!("UNKNOWN ({r})"),
        v => v.to_string(),
    }
}

fn engines_give_every_expected_verdict(suite: &Suite) {
    let mut failures = Vec::new();
    for case in cases(suite) {
        let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
        for engine in [Engine::Yogar, Engine::Dpor] {
            let out = engine.verify(&prog, &options(suite, case.unwind));
            let ok = match &out.verdict {
                _ if engine == Engine::Dpor && case.dpor_unknown => {
                    matches!(&out.verdict, Verdict::Unknown(r) if r.to_string().contains("nondet input"))
                }
                Verdict::True { .. } => case.expect_true,
                Verdict::False { trace } if suite.violation == Violation::DataRace => {
                    !case.expect_true
                        && trace.violation == Violation::DataRace
                        && trace.race.is_some_and(|[i, j]| {
                            // The trace ends with the second access (and the rest of its
                            // atomic section).
                            let t = trace.events[j].thread;
                            i < j
                                && trace.events[i].thread != t
                                && trace.events[j..].iter().all(|e| e.thread == t)
                        })
                }
                Verdict::False { trace } => !case.expect_true && trace.violation == suite.violation,
                Verdict::Unknown(_) => false,
            };
            if !ok {
                failures.push(format!(
                    "{} ({}): {}",
                    case.path.display(),
                    engine.name(),
                    word(&out.verdict)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn default_engine_and_dpor_give_every_expected_no_data_race_verdict() {
    engines_give_every_expected_verdict(&RACES);
}

#[test]
fn default_engine_and_dpor_give_every_expected_no_overflow_verdict() {
    engines_give_every_expected_verdict(&OVERFLOW);
}

#[test]
fn races_and_overflows_are_no_errors_under_unreach_call() {
    // The same programs under unreach-call: a race is no error there (and these programs
    // have no failing assertion but reads_only's, which is reachable).
    // The same holds of overflows: wrapping arithmetic is no error under unreach-call.
    for (suite, name) in [
        (&RACES, "unlocked_counter_false.c"),
        (&OVERFLOW, "shared_counter_int_false.c"),
    ] {
        let case = cases(suite)
            .into_iter()
            .find(|c| c.path.ends_with(name))
            .expect(name);
        let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
        for engine in [Engine::Yogar, Engine::Dpor] {
            let out = engine.verify(&prog, &EngineOptions::with_unwind(case.unwind));
            assert!(out.verdict.is_true(), "{name}: {}", word(&out.verdict));
        }
    }
}

#[test]
fn engines_without_the_property_say_so() {
    let case = &cases(&RACES)[0];
    let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
    let memsafety = EngineOptions {
        property: Property::ValidMemsafety,
        ..EngineOptions::with_unwind(case.unwind)
    };
    for engine in [Engine::Yogar, Engine::Dpor] {
        let out = engine.verify(&prog, &memsafety);
        assert_eq!(word(&out.verdict), "UNKNOWN (unsupported property)");
    }
    for engine in [
        Engine::Cegar,
        Engine::Monolithic,
        Engine::Cdpor,
        Engine::Rvf,
    ] {
        let out = engine.verify(&prog, &options(&OVERFLOW, case.unwind));
        assert_eq!(word(&out.verdict), "UNKNOWN (unsupported property)");
        let out = engine.verify(&prog, &options(&RACES, case.unwind));
        assert_eq!(
            word(&out.verdict),
            "UNKNOWN (unsupported property)",
            "{}",
            engine.name()
        );
    }
}

#[test]
fn replay_finds_no_violation_in_a_true_program() {
    for (suite, limits) in [
        (
            &RACES,
            Limits {
                race: true,
                ..Limits::default()
            },
        ),
        (
            &OVERFLOW,
            Limits {
                overflow: true,
                ..Limits::default()
            },
        ),
    ] {
        replay_finds_none(suite, &limits);
    }
}

fn replay_finds_none(suite: &Suite, limits: &Limits) {
    for case in cases(suite).into_iter().filter(|c| c.expect_true) {
        let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
        let r = replay(&prog, &[], limits);
        assert!(
            matches!(&r, ReplayResult::NotConfirmed(why) if why.starts_with("search exhausted")),
            "{}: {r:?}",
            case.path.display()
        );
    }
}

#[test]
fn every_false_witness_names_the_property_and_replays() {
    witnesses_replay(&RACES, "witness confirmed: data race");
    witnesses_replay(&OVERFLOW, "witness confirmed: signed overflow");
}

fn witnesses_replay(suite: &Suite, confirmed: &str) {
    let tmp = std::env::temp_dir().join(format!(
        "yogar-{}-witness-{}",
        suite.dir,
        std::process::id()
    ));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let prp = tmp.join("property.prp");
    std::fs::write(&prp, suite.spec).expect("prp");
    let line = format!("FALSE({})", suite.violation.name());
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases(suite).into_iter().filter(|c| !c.expect_true) {
        for engine in ["yogar", "dpor"] {
            if engine == "dpor" && case.dpor_unknown {
                continue;
            }
            let witness = tmp.join(format!("{checked}.graphml"));
            let verify = Command::new(env!("CARGO_BIN_EXE_yogar"))
                .args(["verify", "--engine", engine, "--unwind"])
                .arg(case.unwind.to_string())
                .arg("--property")
                .arg(&prp)
                .arg("--witness")
                .arg(&witness)
                .arg(&case.path)
                .output()
                .expect("verify runs");
            let out = String::from_utf8_lossy(&verify.stdout);
            if verify.status.code() != Some(10) || !out.trim_end().ends_with(&line) {
                failures.push(format!(
                    "{} ({engine}): {}",
                    case.path.display(),
                    out.trim()
                ));
                continue;
            }
            let text = std::fs::read_to_string(&witness).expect("witness written");
            assert!(text.contains(suite.spec), "specification in the header");
            let replay = Command::new(env!("CARGO_BIN_EXE_yogar"))
                .arg("replay")
                .arg(&case.path)
                .arg(&witness)
                .output()
                .expect("replay runs");
            let said = String::from_utf8_lossy(&replay.stdout);
            if replay.status.code() != Some(0) || !said.contains(confirmed) {
                failures.push(format!(
                    "{} ({engine}): {}",
                    case.path.display(),
                    said.trim()
                ));
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(checked >= 12, "only {checked} witnesses");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
