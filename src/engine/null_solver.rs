//! A solver that keeps nothing: encodings built only to be measured (the size of the
//! monolithic ξ next to the abstraction's, `--compare-size`) are built on it.

use solver_glue::{Budget, Lit, SatSolver, SolveResult, Stats, UnsupportedBudget, Var};

#[derive(Default)]
pub struct NullSolver {
    vars: u32,
}

impl SatSolver for NullSolver {
    fn name(&self) -> &'static str {
        "null"
    }
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_dimacs(self.vars)
    }
    fn num_vars(&self) -> u32 {
        self.vars
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        for l in lits {
            self.vars = self.vars.max(l.var().to_dimacs());
        }
    }
    fn solve(&mut self, _assumptions: &[Lit]) -> SolveResult {
        SolveResult::Interrupted
    }
    fn value(&self, _lit: Lit) -> Option<bool> {
        None
    }
    fn failed_core(&self) -> Vec<Lit> {
        Vec::new()
    }
    fn set_budget(&mut self, _budget: Budget) -> Result<(), UnsupportedBudget> {
        Ok(())
    }
    fn stats(&self) -> Stats {
        Stats::default()
    }
}
