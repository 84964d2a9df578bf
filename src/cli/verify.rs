//! `yogar verify`: load the program, run the chosen engine, print the trace and statistics,
//! and end with the verdict line.

use std::collections::HashMap;
use std::time::Duration;

use super::parse::{ir_model, print_warnings};
use super::{EngineName, VerifyArgs};
use crate::engine::{self, EngineOptions, Outcome, Verdict};
use crate::exit;
use crate::frontend;
use crate::symex::SymexOptions;

/// Default loop bound when none is given.
const DEFAULT_UNWIND: u32 = 2;

pub fn run(args: &VerifyArgs) -> u8 {
    let unwindset = match parse_unwindset(args.unwindset.as_deref()) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("yogar: error: --unwindset: {e}");
            return exit::USAGE;
        }
    };
    let solver = args
        .solver
        .clone()
        .unwrap_or_else(|| solver_glue::DEFAULT_SOLVER.to_string());
    if !solver_glue::solver_names().contains(&solver.as_str()) {
        eprintln!(
            "yogar: error: unknown solver '{solver}' (known: {})",
            solver_glue::solver_names().join(", ")
        );
        return exit::USAGE;
    }
    let timeout = match args.timeout {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            eprintln!("yogar: error: --timeout must be a positive number of seconds");
            return exit::USAGE;
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let model = ir_model(args.data_model());
    let prog = match std::panic::catch_unwind(|| frontend::load_file(&args.file, model)) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            if e.is_unsupported() {
                println!("UNKNOWN ({e})");
                return exit::UNKNOWN;
            }
            eprintln!("yogar: {e}");
            return e.exit_code();
        }
        Err(_) => {
            eprintln!(
                "yogar: internal error while reading {}",
                args.file.display()
            );
            return exit::INTERNAL;
        }
    };
    print_warnings(&prog);
    let opts = EngineOptions {
        symex: SymexOptions {
            unwind: args.unwind.unwrap_or(DEFAULT_UNWIND),
            unwindset,
            unwinding_assertions: !args.no_unwinding_assertions,
            ..SymexOptions::default()
        },
        solver,
        timeout,
        check_refinements: args.check_refinements,
        compare_size: false,
        keep_eog: false,
    };
    let outcome = std::panic::catch_unwind(|| match args.engine {
        EngineName::Monolithic => Some(engine::monolithic::verify(&prog, &opts)),
        EngineName::Yogar => Some(engine::cegar::verify(&prog, &opts)),
    });
    let outcome: Outcome = match outcome {
        Ok(Some(o)) => o,
        Ok(None) => {
            eprintln!(
                "yogar: error: the yogar engine is not implemented yet; use --engine monolithic"
            );
            return exit::NOT_IMPLEMENTED;
        }
        Err(_) => {
            eprintln!("yogar: internal error during verification");
            return exit::INTERNAL;
        }
    };
    if args.stats {
        let s = &outcome.stats;
        println!("threads: {}", s.threads);
        println!("events: {}", s.events);
        println!("variables: {}", s.vars);
        println!("clauses: {}", s.clauses);
        println!("zeta clauses: {}", s.zeta_clauses);
        println!("xi clauses: {}", s.xi_clauses);
        println!("solves: {}", s.solves);
        println!("refinements: {}", s.refinements);
        println!("refinements by graph: {}", s.graph_refinements);
        println!("exact checks: {}", s.exact_checks);
        println!("refinements by exact check: {}", s.exact_refinements);
        println!("refinement clauses: {}", s.refinement_clauses);
        if s.refinement_clauses > 0 {
            println!(
                "refinement clauses per round: {:.2}",
                s.refinement_clauses as f64 / s.refinements.max(1) as f64
            );
            println!(
                "refinement clause length: {:.2}",
                s.refinement_literals as f64 / s.refinement_clauses as f64
            );
        }
        println!("graph time: {:.3}", s.graph_time.as_secs_f64());
        println!("exact check time: {:.3}", s.exact_time.as_secs_f64());
        println!("sat time: {:.3}", s.sat_time.as_secs_f64());
        println!("total time: {:.3}", s.total_time.as_secs_f64());
    }
    match &outcome.verdict {
        Verdict::True { complete } => {
            if !complete {
                println!(
                    "(no unwinding assertions: TRUE holds for executions within the unwind bound)"
                );
            }
            println!("TRUE");
            exit::TRUE
        }
        Verdict::False { trace } => {
            print!("{}", trace.render(&prog));
            println!("FALSE(unreach-call)");
            exit::FALSE
        }
        Verdict::Unknown(reason) => {
            println!("UNKNOWN ({reason})");
            exit::UNKNOWN
        }
    }
}

/// `main.0:3,worker.1:5` → bounds per loop.
fn parse_unwindset(s: Option<&str>) -> Result<HashMap<String, u32>, String> {
    let mut out = HashMap::new();
    for item in s.unwrap_or("").split(',').filter(|i| !i.is_empty()) {
        let (lp, n) = item
            .rsplit_once(':')
            .ok_or_else(|| format!("'{item}' is not LOOP:N"))?;
        let n: u32 = n.parse().map_err(|_| format!("'{n}' is not a number"))?;
        out.insert(lp.to_string(), n);
    }
    Ok(out)
}
