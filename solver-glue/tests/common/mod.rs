//! Checks shared by the solver-glue integration tests.

#![allow(dead_code)]

use solver_glue::dimacs::Cnf;
use solver_glue::{make_solver, solver_names, Lit, SatSolver, SolveResult};

/// A fresh solver of every back end.
pub fn all_solvers() -> Vec<Box<dyn SatSolver>> {
    solver_names()
        .iter()
        .map(|name| make_solver(name).expect("listed names are known"))
        .collect()
}

/// Panics unless the last `Sat` model of `solver` makes every clause and assumption true.
/// A clause must have a literal the model makes true: an unassigned variable would not do.
pub fn check_model(solver: &dyn SatSolver, clauses: &[Vec<Lit>], assumptions: &[Lit]) {
    for clause in clauses {
        assert!(
            clause.iter().any(|&l| solver.value(l) == Some(true)),
            "{}: clause {clause:?} not satisfied",
            solver.name()
        );
    }
    for &a in assumptions {
        assert_eq!(
            solver.value(a),
            Some(true),
            "{}: assumption {a}",
            solver.name()
        );
    }
}

/// Panics unless the last `Unsat` core of `solver` is a subset of `assumptions` that is
/// unsatisfiable with `clauses`, as judged by a fresh solver of every back end.
pub fn check_core(solver: &dyn SatSolver, clauses: &[Vec<Lit>], assumptions: &[Lit]) {
    let core = solver.failed_core();
    for lit in &core {
        assert!(
            assumptions.contains(lit),
            "{}: core literal {lit} is no assumption",
            solver.name()
        );
    }
    for mut fresh in all_solvers() {
        for clause in clauses {
            fresh.add_clause(clause);
        }
        assert_eq!(
            fresh.solve(&core),
            SolveResult::Unsat,
            "{}'s core {core:?} is satisfiable according to {}",
            solver.name(),
            fresh.name()
        );
    }
}

/// Satisfiability of `cnf` under `assumptions` by enumeration (small formulas only).
pub fn brute_force(cnf: &Cnf, assumptions: &[Lit]) -> bool {
    let n = cnf.num_vars;
    assert!(n <= 22, "too many variables to enumerate");
    (0..1u64 << n).any(|bits| {
        let assignment: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        let holds = |l: &Lit| assignment[l.var().index()] == l.is_positive();
        assumptions.iter().all(holds) && cnf.is_satisfied_by(&assignment)
    })
}
