//! no-data-race: every program in tests/programs/races has its expected verdict under that
//! property on its first line (`// expect: FALSE unwind: 2`), and comes with a twin that
//! differs minimally (a lock, an atomic section, a join moved, a field, `__thread`). The
//! default engine and dpor must both give it; every FALSE witness of either must be
//! confirmed by `yogar replay` (which looks for two threads whose next steps race), and no
//! state of a TRUE program may look racy to replay's check. The engines that do not check the
//! property answer `UNKNOWN (unsupported property)`.

use std::path::{Path, PathBuf};
use std::process::Command;

use yogar::engine::{Engine, EngineOptions, Verdict};
use yogar::explore::{replay, Limits, ReplayResult};
use yogar::frontend;
use yogar::ir::DataModel;
use yogar::svcomp::{Property, NO_DATA_RACE_SPEC};

struct Case {
    path: PathBuf,
    expect_true: bool,
    unwind: u32,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/races");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/programs/races") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let head = text.lines().next().unwrap_or("");
        let verdict = head.split("expect:").nth(1).and_then(|r| r.split_whitespace().next());
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
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(out.len() >= 20, "only {} programs", out.len());
    let falses = out.iter().filter(|c| !c.expect_true).count();
    assert!(falses >= 10 && out.len() - falses >= 10, "twins missing");
    out
}

fn options(unwind: u32) -> EngineOptions {
    EngineOptions {
        property: Property::NoDataRace,
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

#[test]
fn default_engine_and_dpor_give_every_expected_verdict() {
    let mut failures = Vec::new();
    for case in cases() {
        let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
        for engine in [Engine::Yogar, Engine::Dpor] {
            let out = engine.verify(&prog, &options(case.unwind));
            let ok = match &out.verdict {
                Verdict::True { .. } => case.expect_true,
                Verdict::False { trace } => {
                    !case.expect_true
                        && trace.violation == yogar::verdict::Violation::DataRace
                        && trace.race.is_some_and(|[i, j]| {
                            // The trace ends with the second access (and the rest of its
                            // atomic section).
                            let t = trace.events[j].thread;
                            i < j
                                && trace.events[i].thread != t
                                && trace.events[j..].iter().all(|e| e.thread == t)
                        })
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
fn the_races_of_false_programs_are_no_races_under_unreach_call() {
    // The same programs under unreach-call: a race is no error there (and these programs
    // have no failing assertion but reads_only's, which is reachable).
    let case = cases()
        .into_iter()
        .find(|c| c.path.ends_with("unlocked_counter_false.c"))
        .expect("unlocked_counter_false.c");
    let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
    let out = Engine::Yogar.verify(&prog, &EngineOptions::with_unwind(case.unwind));
    assert!(out.verdict.is_true(), "{}", word(&out.verdict));
}

#[test]
fn engines_without_the_property_say_so() {
    let case = &cases()[0];
    let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
    for engine in [Engine::Cegar, Engine::Monolithic, Engine::Cdpor, Engine::Rvf] {
        let out = engine.verify(&prog, &options(case.unwind));
        assert_eq!(
            word(&out.verdict),
            "UNKNOWN (unsupported property)",
            "{}",
            engine.name()
        );
    }
}

#[test]
fn replay_finds_no_race_in_a_true_program() {
    let limits = Limits {
        race: true,
        ..Limits::default()
    };
    for case in cases().into_iter().filter(|c| c.expect_true) {
        let prog = frontend::load_file(&case.path, DataModel::Lp64).expect("lowers");
        let r = replay(&prog, &[], &limits);
        assert!(
            matches!(&r, ReplayResult::NotConfirmed(why) if why.starts_with("search exhausted")),
            "{}: {r:?}",
            case.path.display()
        );
    }
}

#[test]
fn every_false_witness_names_the_property_and_replays() {
    let tmp = std::env::temp_dir().join(format!("yogar-race-witness-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let prp = tmp.join("no-data-race.prp");
    std::fs::write(&prp, NO_DATA_RACE_SPEC).expect("prp");
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases().into_iter().filter(|c| !c.expect_true) {
        for engine in ["yogar", "dpor"] {
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
            if verify.status.code() != Some(10) || !out.trim_end().ends_with("FALSE(no-data-race)") {
                failures.push(format!("{} ({engine}): {}", case.path.display(), out.trim()));
                continue;
            }
            let text = std::fs::read_to_string(&witness).expect("witness written");
            assert!(text.contains(NO_DATA_RACE_SPEC), "specification in the header");
            let replay = Command::new(env!("CARGO_BIN_EXE_yogar"))
                .arg("replay")
                .arg(&case.path)
                .arg(&witness)
                .output()
                .expect("replay runs");
            let said = String::from_utf8_lossy(&replay.stdout);
            if replay.status.code() != Some(0) || !said.contains("witness confirmed: data race") {
                failures.push(format!("{} ({engine}): {}", case.path.display(), said.trim()));
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(checked >= 20, "only {checked} witnesses");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
