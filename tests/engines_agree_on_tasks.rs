//! Differential test: the engines (yogar, cegar, monolithic) must never disagree (one TRUE,
//! another FALSE) on the shared SV-COMP tasks, and none may contradict the expected verdict.
//! A deterministic sample of the tasks (every 10th row of tasks.csv) runs with a short time
//! limit; tasks where an engine gives no verdict in time are skipped. The full comparison is
//! `make bench ARGS="--all --limit 60"`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

const ENGINES: [&str; 3] = ["yogar", "cegar", "monolithic"];

fn verdict(engine: &str, task: &Path) -> Option<bool> {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args([
            "verify",
            "--unwind",
            "2",
            "--timeout",
            "5",
            "--engine",
            engine,
        ])
        .arg(task)
        .output()
        .expect("yogar runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    match (last, out.status.code()) {
        ("TRUE", Some(0)) => Some(true),
        ("FALSE(unreach-call)", Some(10)) => Some(false),
        (l, c) => {
            assert!(
                l.starts_with("UNKNOWN") && c == Some(5),
                "{}: {engine}: unexpected end {l:?} / {c:?}",
                task.display()
            );
            None
        }
    }
}

#[test]
fn engines_agree_with_each_other_and_the_expected_verdicts() {
    let Some(svb) = yogar::svcomp::sv_benchmarks(None) else {
        eprintln!("skipped: no sv-benchmarks checkout (../shared/sv-benchmarks or $SVB)");
        return;
    };
    let tasks: Vec<(PathBuf, bool)> = yogar::svcomp::read_task_list(&svb)
        .expect("tasks.csv")
        .into_iter()
        .step_by(10)
        .filter_map(|t| Some((t.yml_path, t.expected?)))
        .collect();
    assert!(tasks.len() >= 20);
    let next = Mutex::new(0usize);
    let problems = Mutex::new(Vec::new());
    let compared = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some((task, expected)) = tasks.get(i) else {
                    break;
                };
                let verdicts: Vec<(&str, Option<bool>)> =
                    ENGINES.iter().map(|&e| (e, verdict(e, task))).collect();
                let mut p = problems.lock().unwrap();
                for &(name, v) in &verdicts {
                    if v.is_some_and(|v| v != *expected) {
                        p.push(format!(
                            "{}: {name} contradicts the expected verdict",
                            task.display()
                        ));
                    }
                }
                let decided: Vec<bool> = verdicts.iter().filter_map(|&(_, v)| v).collect();
                if decided.len() == ENGINES.len() {
                    *compared.lock().unwrap() += 1;
                }
                if decided.windows(2).any(|w| w[0] != w[1]) {
                    p.push(format!(
                        "{}: engines disagree: {verdicts:?}",
                        task.display()
                    ));
                }
            });
        }
    });
    let problems = problems.into_inner().unwrap();
    eprintln!(
        "{} of {} tasks decided by every engine",
        compared.into_inner().unwrap(),
        tasks.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
