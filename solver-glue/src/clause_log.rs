//! A [`SatSolver`] that only records: the clauses added to it, to be replayed later into real
//! solvers, as many times as needed. A formula built once (the program's circuits) can so be
//! given to the solver of any engine, and to a second solver that must use the same literals.

use crate::{Budget, Lit, SatSolver, SolveResult, Stats, UnsupportedBudget, Var};

/// Recorded clauses, packed DIMACS-style (each clause ended by 0).
#[derive(Clone, Debug, Default)]
pub struct ClauseLog {
    vars: u32,
    clauses: u64,
    lits: Vec<i32>,
}

impl ClauseLog {
    /// Number of clauses recorded.
    pub fn num_clauses(&self) -> u64 {
        self.clauses
    }

    /// The recorded clauses, in the order they were added.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.lits.split(|&l| l == 0).take(self.clauses as usize)
    }

    /// Adds every recorded variable and clause to `solver`, in order.
    pub fn replay(&self, solver: &mut dyn SatSolver) {
        while solver.num_vars() < self.vars {
            solver.new_var();
        }
        let mut clause: Vec<Lit> = Vec::new();
        for c in self.clauses() {
            clause.clear();
            clause.extend(c.iter().map(|&l| Lit::from_dimacs(l)));
            solver.add_clause(&clause);
        }
    }
}

impl SatSolver for ClauseLog {
    fn name(&self) -> &'static str {
        "log"
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
            self.lits.push(l.to_dimacs());
        }
        self.lits.push(0);
        self.clauses += 1;
    }
    /// A log cannot solve.
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
        Stats {
            vars: self.vars as u64,
            clauses: self.clauses,
            ..Stats::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_gives_the_same_variables_and_clauses() {
        let mut log = ClauseLog::default();
        let a = log.new_var().pos();
        let b = log.new_var().pos();
        log.add_clause(&[a, !b]);
        log.add_clause(&[]);
        log.add_clause(&[Lit::from_dimacs(5)]);
        assert_eq!(log.num_clauses(), 3);
        let got: Vec<Vec<i32>> = log.clauses().map(|c| c.to_vec()).collect();
        assert_eq!(got, vec![vec![1, -2], vec![], vec![5]]);
        let mut copy = ClauseLog::default();
        log.replay(&mut copy);
        assert_eq!(copy.num_vars(), 5);
        let again: Vec<Vec<i32>> = copy.clauses().map(|c| c.to_vec()).collect();
        assert_eq!(again, got);
    }
}
