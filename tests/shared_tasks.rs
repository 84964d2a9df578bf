//! Runs `yogar parse --32` over every SV-COMP task listed in ../shared/sv-benchmarks/tasks.csv:
//! no task may crash the frontend (a panic or a signal), and at least 95 % must lower.
//! Skipped, with a message, when the benchmark checkout is absent.

use std::process::Command;

#[test]
fn shared_tasks_parse_without_panics() {
    let Some(svb) = yogar::svcomp::sv_benchmarks(None).filter(|p| p.join("tasks.csv").is_file())
    else {
        eprintln!("skipped: no sv-benchmarks checkout at ../shared/sv-benchmarks (set SVB)");
        return;
    };
    let tasks = yogar::svcomp::read_task_list(&svb).unwrap_or_else(|e| panic!("{e}"));
    let mut total = 0;
    let mut ok = 0;
    let mut failures = Vec::new();
    for task in &tasks {
        let input = task.input.display();
        total += 1;
        let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
            .args(["parse", "--32"])
            .arg(&task.input)
            .output()
            .unwrap();
        let code = out.status.code();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            code.is_some() && code != Some(101) && code != Some(yogar::exit::INTERNAL as i32),
            "{input}: crashed ({code:?}): {stderr}"
        );
        if code == Some(0) {
            ok += 1;
        } else {
            failures.push(format!("{input}: {}", stderr.lines().last().unwrap_or("")));
        }
    }
    eprintln!(
        "lowered {ok} of {total} tasks; failures:\n{}",
        failures.join("\n")
    );
    assert!(total > 0);
    assert!(ok * 100 >= total * 95, "only {ok} of {total} tasks lower");
}
