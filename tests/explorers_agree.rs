//! Every program of tests/programs through the explorers (dpor, cdpor and rvf): a TRUE or FALSE
//! must be the expected verdict (the SAT engines give it, see program_verdicts.rs); an
//! explorer that runs out of its budget or meets a nondet input it cannot enumerate answers
//! UNKNOWN and counts as not finished. Every FALSE of dpor and of rvf has a witness
//! `yogar replay` confirms.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use yogar::engine::{EngineOptions, Verdict};
use yogar::explore::{verify, Explorer};
use yogar::frontend;
use yogar::ir::DataModel;

fn cases() -> Vec<(PathBuf, bool, u32)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/programs") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let head = text.lines().next().unwrap_or("").to_string();
        let expect_true = head.contains("expect: TRUE");
        let unwind = head
            .split("unwind:")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("unwind header");
        out.push((path, expect_true, unwind));
    }
    out.sort();
    out
}

fn run(explorer: Explorer) -> (usize, Vec<String>) {
    let mut decided = 0;
    let mut wrong = Vec::new();
    for (path, expect_true, unwind) in cases() {
        let prog = frontend::load_file(&path, DataModel::Lp64).expect("lowers");
        let opts = EngineOptions {
            timeout: Some(Duration::from_secs(5)),
            ..EngineOptions::with_unwind(unwind)
        };
        let v = verify(&prog, &opts, explorer, Some(20_000)).verdict;
        match (v, expect_true) {
            (Verdict::Unknown(_), _) => {}
            (Verdict::True { .. }, true) | (Verdict::False { .. }, false) => decided += 1,
            (v, _) => wrong.push(format!("{}: {v:?}", path.display())),
        }
    }
    (decided, wrong)
}

#[test]
fn dpor_agrees_with_the_expected_verdicts() {
    let (decided, wrong) = run(Explorer::Dpor);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(decided >= 60, "only {decided} programs decided");
}

#[test]
fn cdpor_agrees_with_the_expected_verdicts() {
    let (decided, wrong) = run(Explorer::Cdpor);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(decided >= 60, "only {decided} programs decided");
}

#[test]
fn rvf_agrees_with_the_expected_verdicts() {
    let (decided, wrong) = run(Explorer::Rvf);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(decided >= 100, "only {decided} programs decided");
}

#[test]
fn dpor_witnesses_pass_replay() {
    witnesses_pass_replay("dpor");
}

#[test]
fn rvf_witnesses_pass_replay() {
    witnesses_pass_replay("rvf");
}

fn witnesses_pass_replay(engine: &str) {
    let tmp = std::env::temp_dir().join(format!("yogar-{engine}-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, expect_true, unwind) in cases() {
        if expect_true {
            continue;
        }
        let w = tmp.join(format!("{checked}.graphml"));
        let v = Command::new(env!("CARGO_BIN_EXE_yogar"))
            .args(["verify", "--engine", engine, "--max-executions", "20000"])
            .args([
                "--timeout",
                "5",
                "--unwind",
                &unwind.to_string(),
                "--witness",
            ])
            .arg(&w)
            .arg(&path)
            .output()
            .expect("verify runs");
        if v.status.code() != Some(10) {
            continue;
        }
        let r = Command::new(env!("CARGO_BIN_EXE_yogar"))
            .arg("replay")
            .arg(&path)
            .arg(&w)
            .output()
            .expect("replay runs");
        if r.status.code() != Some(0) {
            failures.push(format!(
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&r.stdout).trim()
            ));
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        checked >= 25,
        "only {checked} FALSE programs decided by {engine}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The condition-variable programs (a wait is an unlock and a lock, as in the SAT engines):
/// dpor and cdpor decide every one with its expected verdict, rvf every one but the two
/// producer/consumer TRUE programs it needs 7-10 s for (its instances grow with the waits);
/// 30 s per run, so that a loaded machine does not turn a decided program into a timeout.
#[test]
fn explorers_decide_the_condition_variable_programs() {
    let mut checked = 0;
    for (path, expect_true, unwind) in cases() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("condvar_") {
            continue;
        }
        let prog = frontend::load_file(&path, DataModel::Lp64).expect("lowers");
        let opts = EngineOptions {
            timeout: Some(Duration::from_secs(30)),
            ..EngineOptions::with_unwind(unwind)
        };
        for explorer in [Explorer::Dpor, Explorer::Cdpor, Explorer::Rvf] {
            let slow = ["condvar_buffer_true.c", "condvar_two_items_true.c"];
            if explorer == Explorer::Rvf && slow.contains(&name.as_str()) {
                continue;
            }
            let v = verify(&prog, &opts, explorer, Some(20_000)).verdict;
            let ok = match v {
                Verdict::True { .. } => expect_true,
                Verdict::False { .. } => !expect_true,
                _ => false,
            };
            assert!(ok, "{name}: {explorer:?} gives {v:?}");
            checked += 1;
        }
    }
    assert!(checked >= 19, "only {checked} runs");
}
