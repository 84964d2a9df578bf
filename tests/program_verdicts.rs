//! Every program in tests/programs has its expected verdict and unwind bound on its first line
//! (`// expect: TRUE unwind: 3`). Every engine must give that verdict; the Yogar engine checks
//! each of its theory conflict clauses, and the CEGAR engine each of its refinement clauses,
//! against the exact encoding.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use yogar::engine::{self, EngineOptions, Verdict};
use yogar::frontend;
use yogar::ir::DataModel;

struct Case {
    path: PathBuf,
    expect_true: bool,
    unwind: u32,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/programs") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let head = text.lines().next().unwrap_or("");
        let verdict = head
            .split("expect:")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("{}: no `expect:` header", path.display()));
        let unwind: u32 = head
            .split("unwind:")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}: no `unwind:` header", path.display()));
        let expect_true = match verdict {
            "TRUE" => true,
            "FALSE" => false,
            v => panic!("{}: unknown verdict {v}", path.display()),
        };
        out.push(Case {
            path,
            expect_true,
            unwind,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(out.len() >= 60, "only {} programs", out.len());
    out
}

fn options(unwind: u32, check_refinements: bool, solver: &str) -> EngineOptions {
    EngineOptions {
        check_refinements,
        solver: solver.to_string(),
        ..EngineOptions::with_unwind(unwind)
    }
}

/// Runs `verify` on every case (two worker threads) and returns the mismatches.
fn run_all(
    verify: fn(&yogar::ir::Program, &EngineOptions) -> engine::Outcome,
    check_refinements: bool,
    solver: &str,
) -> Vec<String> {
    let cases = cases();
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(case) = cases.get(i) else { break };
                let prog = match frontend::load_file(&case.path, DataModel::Lp64) {
                    Ok(p) => p,
                    Err(e) => {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: {e}", case.path.display()));
                        continue;
                    }
                };
                let out = verify(&prog, &options(case.unwind, check_refinements, solver));
                let ok = match &out.verdict {
                    Verdict::True { .. } => case.expect_true,
                    Verdict::False { .. } => !case.expect_true,
                    Verdict::Unknown(_) => false,
                };
                if !ok {
                    failures.lock().unwrap().push(format!(
                        "{}: expected {}, got {:?}",
                        case.path.display(),
                        if case.expect_true { "TRUE" } else { "FALSE" },
                        match &out.verdict {
                            Verdict::True { .. } => "TRUE".to_string(),
                            Verdict::False { .. } => "FALSE".to_string(),
                            Verdict::Unknown(r) => format!("UNKNOWN ({r})"),
                        }
                    ));
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
fn monolithic_engine_gives_every_expected_verdict() {
    let failures = run_all(
        engine::monolithic::verify,
        false,
        solver_glue::DEFAULT_SOLVER,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn yogar_engine_gives_every_expected_verdict_with_implied_theory_clauses() {
    let failures = run_all(engine::yogar::verify, true, solver_glue::DEFAULT_SOLVER);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cegar_engine_gives_every_expected_verdict_with_implied_refinements() {
    let failures = run_all(engine::cegar::verify, true, solver_glue::DEFAULT_SOLVER);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The ordering theory through CaDiCaL's external propagator: another adapter, same verdicts.
#[test]
fn yogar_engine_on_cadical_gives_every_expected_verdict() {
    let failures = run_all(engine::yogar::verify, true, "cadical");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
