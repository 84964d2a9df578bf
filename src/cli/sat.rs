//! `yogar sat`: a DIMACS CNF file in, a SAT-competition style answer out.
//!
//! It exercises the whole solver layer (parser, back ends, budget) from the command line, so a
//! back end can be checked against other solvers on any benchmark file.

use std::io::{self, BufWriter, Write};
use std::time::Duration;

use solver_glue::{dimacs, make_solver, Budget, Lit, SatSolver, SolveResult, DEFAULT_SOLVER};

use super::SatArgs;
use crate::exit;

pub fn run(args: &SatArgs) -> u8 {
    let name = args.solver.as_deref().unwrap_or(DEFAULT_SOLVER);
    let mut solver = match make_solver(name) {
        Ok(solver) => solver,
        Err(e) => {
            eprintln!("yogar: error: {e}");
            return exit::USAGE;
        }
    };
    let time = match args.timeout {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s.min(1e9))),
        Some(s) => {
            eprintln!("yogar: error: --timeout must be a positive number of seconds, not {s}");
            return exit::USAGE;
        }
    };
    let text = match std::fs::read(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("yogar: error: cannot read {}: {e}", args.file.display());
            return exit::INPUT;
        }
    };
    let cnf = match dimacs::parse(&text) {
        Ok(cnf) => cnf,
        Err(e) => {
            eprintln!("yogar: error: {}: {e}", args.file.display());
            return exit::INPUT;
        }
    };
    drop(text);
    if let Err(e) = solver.set_budget(Budget {
        time,
        conflicts: None,
    }) {
        eprintln!("yogar: error: {e}");
        return exit::USAGE;
    }
    for clause in &cnf.clauses {
        solver.add_clause(clause);
    }
    let result = solver.solve(&[]);
    // A closed pipe (`yogar sat f.cnf | head`) is not worth a panic; the exit code still tells.
    let _ = print_answer(&*solver, result, cnf.num_vars);
    match result {
        SolveResult::Sat => exit::SAT,
        SolveResult::Unsat => exit::UNSAT,
        SolveResult::Interrupted => exit::SAT_UNKNOWN,
    }
}

fn print_answer(solver: &dyn SatSolver, result: SolveResult, num_vars: u32) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "c solver {}", solver.name())?;
    match result {
        SolveResult::Sat => {
            writeln!(out, "s SATISFIABLE")?;
            let mut line = String::from("v");
            for n in 1..=num_vars as i32 {
                let lit = Lit::from_dimacs(n);
                // A variable the model leaves open may take either value; print it false.
                let text = if solver.value(lit) == Some(true) {
                    format!(" {n}")
                } else {
                    format!(" -{n}")
                };
                if line.len() + text.len() > 78 {
                    writeln!(out, "{line}")?;
                    line = String::from("v");
                }
                line.push_str(&text);
            }
            writeln!(out, "{line} 0")?;
        }
        SolveResult::Unsat => writeln!(out, "s UNSATISFIABLE")?,
        SolveResult::Interrupted => writeln!(out, "s UNKNOWN")?,
    }
    out.flush()
}
