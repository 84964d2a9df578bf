//! no-data-race, no-overflow and valid-memsafety: every program in tests/programs/races
//! (tests/programs/overflow, tests/programs/memsafety) has its expected verdict under that
//! property on its first line (`// expect: FALSE unwind: 2`; valid-memsafety names the
//! subproperty, `// expect: FALSE(valid-free) unwind: 2`), and comes with a twin that differs
//! minimally (a lock, an atomic section, a join moved, a field, `__thread`; `long long` for
//! `int`, one thread less; a free removed or of another pointer, a join moved or removed, a
//! lock added). The default engine and dpor must both give it (dpor enumerates inputs under
//! no-overflow: a program whose header says `dpor: UNKNOWN` has an input of too many values;
//! the default engine does not decide memtrack where a global may hold the object, a program
//! whose header says `default engine: UNKNOWN` must get that reason from it); every FALSE
//! witness of either must be confirmed by `yogar replay` (two threads whose next steps race;
//! an overflow reached; the same memory-safety violation reached), and replay's own search
//! must find no violation in a TRUE program. The engines that do not check a property answer
//! `UNKNOWN (unsupported property)`.

use std::path::{Path, PathBuf};
use std::process::Command;

use yogar::engine::{Engine, EngineOptions, Verdict};
use yogar::explore::{replay, Limits, ReplayResult};
use yogar::frontend;
use yogar::ir::DataModel;
use yogar::svcomp::{Property, NO_DATA_RACE_SPEC, NO_OVERFLOW_SPEC, VALID_MEMSAFETY_SPEC};
use yogar::verdict::Violation;

struct Case {
    path: PathBuf,
    expect_true: bool,
    /// The violation a FALSE names, when the header gives it (else the suite's).
    violation: Option<Violation>,
    unwind: u32,
    /// dpor answers UNKNOWN (an input it cannot enumerate).
    dpor_unknown: bool,
    /// The default engine answers UNKNOWN (memtrack reachability it does not decide).
    yogar_unknown: bool,
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

/// Each program's header names its violation (`suite.violation` is only a default).
const MEMSAFETY: Suite = Suite {
    dir: "memsafety",
    property: Property::ValidMemsafety,
    spec: VALID_MEMSAFETY_SPEC,
    violation: Violation::ValidDeref,
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
        let (expect_true, violation) = match verdict {
            Some("TRUE") => (true, None),
            Some("FALSE") => (false, None),
            Some(v) if v.starts_with("FALSE(") && v.ends_with(')') => {
                let name = &v["FALSE(".len()..v.len() - 1];
                let violation = Violation::from_name(name)
                    .unwrap_or_else(|| panic!("{}: bad violation {name}", path.display()));
                (false, Some(violation))
            }
            v => panic!("{}: bad verdict {v:?}", path.display()),
        };
        out.push(Case {
            path,
            expect_true,
            violation,
            unwind,
            dpor_unknown: text.contains("dpor enumerates inputs"),
            yogar_unknown: text.contains("default engine: UNKNOWN"),
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
                _ if engine == Engine::Yogar && case.yogar_unknown => {
                    matches!(&out.verdict, Verdict::Unknown(r) if r.to_string().contains("reachability is not decided"))
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
                Verdict::False { trace } => {
                    !case.expect_true
                        && trace.violation == case.violation.unwrap_or(suite.violation)
                }
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
fn default_engine_and_dpor_give_every_expected_valid_memsafety_verdict() {
    let cases = cases(&MEMSAFETY);
    // Every subproperty is violated by some program.
    for v in [
        Violation::ValidDeref,
        Violation::ValidFree,
        Violation::ValidMemtrack,
    ] {
        assert!(
            cases.iter().filter(|c| c.violation == Some(v)).count() >= 3,
            "{} programs",
            v.name()
        );
    }
    assert!(cases.iter().all(|c| c.expect_true || c.violation.is_some()));
    engines_give_every_expected_verdict(&MEMSAFETY);
}

#[test]
fn memory_errors_are_no_errors_under_unreach_call() {
    // free is no event and a lost object no error under unreach-call: the default engine
    // answers TRUE on a double free and a leak, dpor on the leak (its interpreter stops at a
    // double free, which it cannot run on exactly: UNKNOWN, never FALSE).
    for (name, engines) in [
        ("take_and_free_unlocked_false.c", &[Engine::Yogar][..]),
        ("worker_leaks_false.c", &[Engine::Yogar, Engine::Dpor][..]),
    ] {
        let case = cases(&MEMSAFETY)
            .into_iter()
            .find(|c| c.path.ends_with(name))
            .expect(name);
        let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
        for &engine in engines {
            let out = engine.verify(&prog, &EngineOptions::with_unwind(case.unwind));
            assert!(out.verdict.is_true(), "{name}: {}", word(&out.verdict));
        }
        let out = Engine::Dpor.verify(&prog, &EngineOptions::with_unwind(case.unwind));
        assert!(!matches!(out.verdict, Verdict::False { .. }), "{name}");
    }
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
    let termination = EngineOptions {
        property: Property::Other("CHECK( init(main()), LTL(F end) )".into()),
        ..EngineOptions::with_unwind(case.unwind)
    };
    for engine in [Engine::Yogar, Engine::Dpor] {
        let out = engine.verify(&prog, &termination);
        assert_eq!(word(&out.verdict), "UNKNOWN (unsupported property)");
    }
    for engine in [
        Engine::Cegar,
        Engine::Monolithic,
        Engine::Cdpor,
        Engine::Rvf,
    ] {
        let out = engine.verify(&prog, &options(&MEMSAFETY, case.unwind));
        assert_eq!(word(&out.verdict), "UNKNOWN (unsupported property)");
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
        (
            &MEMSAFETY,
            Limits {
                memsafety: true,
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
    witnesses_replay(&MEMSAFETY, "witness confirmed: memory-safety violation");
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
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases(suite).into_iter().filter(|c| !c.expect_true) {
        let violation = case.violation.unwrap_or(suite.violation);
        let line = format!("FALSE({})", violation.name());
        for engine in ["yogar", "dpor"] {
            if (engine == "dpor" && case.dpor_unknown) || (engine == "yogar" && case.yogar_unknown)
            {
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
            // (A specification of several lines is one attribute: its lines are joined by an
            // escaped line feed.)
            assert!(
                suite.spec.lines().all(|l| text.contains(l)),
                "specification in the header"
            );
            let replay = Command::new(env!("CARGO_BIN_EXE_yogar"))
                .arg("replay")
                .arg(&case.path)
                .arg(&witness)
                .output()
                .expect("replay runs");
            let said = String::from_utf8_lossy(&replay.stdout);
            // Replay names the memory-safety violation it reached: the verdict's.
            let same_kind =
                case.violation.is_none() || said.contains(&format!("({})", violation.name()));
            if replay.status.code() != Some(0) || !said.contains(confirmed) || !same_kind {
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
