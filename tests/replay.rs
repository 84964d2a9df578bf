//! `yogar replay`: witnesses of FALSE programs (from the engine's counterexamples) are
//! confirmed by a concrete run; TRUE programs and wrong nondet inputs are never confirmed.

use std::path::{Path, PathBuf};
use std::process::Command;

use yogar::engine::{cegar, EngineOptions, Verdict};
use yogar::ir::DataModel;
use yogar::svcomp::{self, UNREACH_CALL_SPEC};
use yogar::witness::{write_violation_witness, Step, Trace, TraceStep, WitnessMeta};

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name)
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yogar-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The `// expect: VERDICT unwind: N` header of a test program.
fn expectation(path: &Path) -> (String, u32) {
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.lines().next().unwrap_or("");
    let mut words = first.split_whitespace();
    assert_eq!(words.next(), Some("//"));
    assert_eq!(words.next(), Some("expect:"));
    let verdict = words.next().unwrap().to_string();
    let unwind = match (words.next(), words.next()) {
        (Some("unwind:"), Some(n)) => n.parse().unwrap(),
        _ => 2,
    };
    (verdict, unwind)
}

/// The engine's counterexample as a witness trace: per event a step with thread and line,
/// the nondet inputs of a thread before its first event, a `CreateThread` step (by main)
/// before the first step of every other thread, and the violation.
fn witness_trace(t: &yogar::trace::Trace) -> Trace {
    let mut steps = Vec::new();
    let mut started = vec![false; t.threads.len().max(1)];
    let mut start = |th: u32, steps: &mut Vec<TraceStep>| {
        let k = th as usize;
        if k < started.len() && !started[k] {
            started[k] = true;
            if k != 0 {
                let entry = t.threads[k].0.clone();
                steps.push(TraceStep::new(
                    0,
                    Some(t.threads[k].1.line),
                    "main",
                    Step::CreateThread { child: th, entry },
                ));
            }
            for inp in t.inputs.iter().filter(|i| i.thread == th) {
                steps.push(TraceStep::new(
                    th,
                    Some(inp.loc.line),
                    "f",
                    Step::NondetInput {
                        name: "\\result".into(),
                        value: inp.value,
                    },
                ));
            }
        }
    };
    start(0, &mut steps);
    for e in &t.events {
        start(e.thread, &mut steps);
        let lhs = e.what.split('+').next().unwrap_or("x").to_string();
        steps.push(TraceStep::new(
            e.thread,
            Some(e.loc.line),
            "f",
            Step::Assign {
                lhs,
                value: e.value as i128,
            },
        ));
    }
    for k in 0..t.threads.len() as u32 {
        start(k, &mut steps);
    }
    start(t.violation_thread, &mut steps);
    steps.push(TraceStep::new(
        t.violation_thread,
        Some(t.violation_loc.line),
        "f",
        Step::Violation,
    ));
    Trace {
        steps,
        ..Default::default()
    }
}

fn write_witness(path: &Path, trace: &Trace, out: &Path) {
    let meta = WitnessMeta::new(path, UNREACH_CALL_SPEC, svcomp::DataModel::Lp64).unwrap();
    let f = std::fs::File::create(out).unwrap();
    write_violation_witness(f, &meta, trace).unwrap();
}

/// Verify `name` with the engine and write the witness of its counterexample.
fn engine_witness(name: &str, unwind: u32) -> (PathBuf, yogar::trace::Trace) {
    let path = program(name);
    let prog = yogar::frontend::load_file(&path, DataModel::Lp64).unwrap();
    let out = cegar::verify(&prog, &EngineOptions::with_unwind(unwind));
    let Verdict::False { trace } = out.verdict else {
        panic!("{name}: expected FALSE, got {:?}", out.verdict);
    };
    let w = temp_path(&format!("{name}.graphml"));
    write_witness(&path, &witness_trace(&trace), &w);
    (w, trace)
}

fn replay(prog: &Path, witness: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("replay")
        .arg(prog)
        .arg(witness)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn assert_confirmed(name: &str) {
    let (_, unwind) = expectation(&program(name));
    let (w, trace) = engine_witness(name, unwind);
    let (code, text) = replay(&program(name), &w);
    assert_eq!(code, 0, "{name}: {text}");
    let line = format!("{name}:{} ", trace.violation_loc.line);
    assert!(
        text.starts_with("witness confirmed: violation reached at ") && text.contains(&line),
        "{name}: {text} (engine: line {})",
        trace.violation_loc.line
    );
}

#[test]
fn readme_example_confirmed() {
    assert_confirmed("readme_example.c");
}

#[test]
fn nondet_input_program_confirmed() {
    assert_confirmed("nondet_assume_boundary_false.c");
    assert_confirmed("nondet_input_and_schedule_false.c");
}

#[test]
fn mutex_programs_confirmed() {
    assert_confirmed("mutex_wrong_lock_false.c");
    assert_confirmed("trylock_both_succeed_false.c");
    assert_confirmed("condvar_if_instead_of_while_false.c");
}

#[test]
fn threads_created_in_a_loop_confirmed() {
    assert_confirmed("threads_loop_sum_race_false.c");
}

/// The line a FALSE program carries when its error compares the addresses of two objects,
/// which the replayer does not order (the same marker `tests/witness_replay.rs` reads).
const UNORDERED_ADDRESSES: &str = "// replay: unordered addresses";

/// Every FALSE program of tests/programs: the engine's witness is confirmed (or, for a program
/// marked [`UNORDERED_ADDRESSES`], the replay stops at the address comparison).
#[test]
fn every_false_program_confirmed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    let mut failed = Vec::new();
    let (mut confirmed, mut first_run) = (0, 0);
    for name in names {
        let (verdict, unwind) = expectation(&dir.join(&name));
        if verdict != "FALSE" {
            continue;
        }
        let (w, _) = engine_witness(&name, unwind);
        let (code, text) = replay(&dir.join(&name), &w);
        if code == 0 {
            confirmed += 1;
            if text.contains("replay: 0 runs before") {
                first_run += 1;
            }
        } else if std::fs::read_to_string(dir.join(&name))
            .is_ok_and(|src| src.contains(UNORDERED_ADDRESSES))
            && text.contains("unsupported: '>u' on pointers")
        {
            // The replayer does not order the addresses of different objects: it stops, it
            // does not refute the witness.
            println!("{name}: not replayable: {}", text.trim());
        } else {
            failed.push(format!("{name}: {}", text.trim()));
        }
    }
    println!("{confirmed} confirmed, {first_run} by the first (witness-guided) run");
    assert!(
        failed.is_empty(),
        "{confirmed} confirmed; not confirmed:\n{}",
        failed.join("\n")
    );
}

/// A witness claiming a violation in a TRUE program: nothing to confirm.
#[test]
fn true_programs_never_confirmed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut checked = 0;
    for name in std::fs::read_dir(&dir).unwrap() {
        let name = name.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with("_true.c") {
            continue;
        }
        let trace = Trace {
            steps: vec![
                TraceStep::new(0, Some(1), "main", Step::EnterFunction),
                TraceStep::new(0, Some(2), "main", Step::Violation),
            ],
            ..Default::default()
        };
        let w = temp_path(&format!("{name}.graphml"));
        write_witness(&dir.join(&name), &trace, &w);
        let (code, text) = replay(&dir.join(&name), &w);
        assert_eq!(code, 1, "{name}: {text}");
        assert!(
            text.starts_with("witness not confirmed: "),
            "{name}: {text}"
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} TRUE programs");
}

/// The error of nondet_assume_boundary_false.c needs the input 9: a witness with another input
/// is not confirmed, the same witness with the engine's input is.
#[test]
fn wrong_nondet_input_not_confirmed() {
    let name = "nondet_assume_boundary_false.c";
    let (_, unwind) = expectation(&program(name));
    let (_, trace) = engine_witness(name, unwind);
    let mut wt = witness_trace(&trace);
    let mut changed = 0;
    for s in &mut wt.steps {
        if let Step::NondetInput { value, .. } = &mut s.kind {
            assert_eq!(*value, 9, "the only failing input is 9");
            *value = 8;
            changed += 1;
        }
    }
    assert_eq!(changed, 1);
    let w = temp_path("wrong_input.graphml");
    write_witness(&program(name), &wt, &w);
    let (code, text) = replay(&program(name), &w);
    assert_eq!(code, 1, "{text}");
    assert!(text.starts_with("witness not confirmed: "), "{text}");
}

#[test]
fn bad_witness_is_an_input_error() {
    let w = temp_path("garbage.graphml");
    std::fs::write(&w, "this is not xml").unwrap();
    let (code, text) = replay(&program("readme_example.c"), &w);
    assert_eq!(code, 3, "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
}

/// Measurement over SV-COMP FALSE tasks (slow; `cargo test --release --test replay -- --ignored
/// --nocapture`; `REPLAY_TASKS=N` bounds the number of tasks): every witness of a FALSE verdict
/// of the engine is replayed; the test fails if one is not confirmed.
#[test]
#[ignore]
fn svcomp_false_tasks_confirmed() {
    let Some(svb) = yogar::svcomp::sv_benchmarks(None) else {
        println!("skipped: no sv-benchmarks checkout (set SVB or provide ../shared/sv-benchmarks)");
        return;
    };
    let limit: usize = std::env::var("REPLAY_TASKS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let tasks = yogar::svcomp::read_task_list(&svb).unwrap_or_else(|e| panic!("{e}"));
    let (mut found, mut confirmed, mut no_false) = (0, 0, 0);
    let mut failed = Vec::new();
    for task in tasks.iter().filter(|t| t.expected == Some(false)) {
        if found + no_false >= limit {
            break;
        }
        let input = &task.input;
        let Ok(prog) = yogar::frontend::load_file(input, DataModel::Ilp32) else {
            no_false += 1;
            continue;
        };
        let mut opts = EngineOptions::with_unwind(2);
        opts.timeout = Some(std::time::Duration::from_secs(10));
        let Verdict::False { trace } = cegar::verify(&prog, &opts).verdict else {
            no_false += 1;
            continue;
        };
        found += 1;
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let w = temp_path(&format!("svcomp-{name}.graphml"));
        let meta = WitnessMeta::new(input, UNREACH_CALL_SPEC, svcomp::DataModel::Ilp32).unwrap();
        write_violation_witness(
            std::fs::File::create(&w).unwrap(),
            &meta,
            &witness_trace(&trace),
        )
        .unwrap();
        let start = std::time::Instant::now();
        let (code, text) = replay(input, &w);
        println!(
            "{name}: {:.2}s {}",
            start.elapsed().as_secs_f64(),
            text.trim()
        );
        if code == 0 {
            confirmed += 1;
        } else {
            failed.push(format!("{name}: {}", text.trim()));
        }
    }
    println!(
        "{confirmed}/{found} FALSE witnesses confirmed ({no_false} tasks without a FALSE verdict)"
    );
    assert!(failed.is_empty(), "not confirmed:\n{}", failed.join("\n"));
}

/// Inputs named after the variable they are stored in (not `\result`) are recognised by the
/// line that reads the nondet value.
#[test]
fn named_nondet_inputs_confirmed() {
    let name = "nondet_assume_boundary_false.c";
    let (_, unwind) = expectation(&program(name));
    let (_, trace) = engine_witness(name, unwind);
    let mut wt = witness_trace(&trace);
    for s in &mut wt.steps {
        if let Step::NondetInput { name, .. } = &mut s.kind {
            *name = "in".into();
        }
    }
    let w = temp_path("named_input.graphml");
    write_witness(&program(name), &wt, &w);
    let (code, text) = replay(&program(name), &w);
    assert_eq!(code, 0, "{text}");
}
