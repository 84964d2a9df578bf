//! The back ends behind [`crate::SatSolver`], one module each, and the bookkeeping they share.

pub mod batsat;
mod batsat_theory;
pub mod cadical;
mod cadical_theory;
pub mod varisat;

use std::time::{Duration, Instant};

use crate::{Budget, Lit, Stats, Var};

/// Counters every back end keeps the same way, so [`crate::Stats`] means the same for all.
#[derive(Default, Debug)]
pub(crate) struct Tally {
    pub num_vars: u32,
    pub clauses: u64,
    pub solves: u64,
    pub solve_time: Duration,
    pub theory_time: Duration,
}

impl Tally {
    /// Notes that `lits` mention variables up to their largest.
    pub fn see(&mut self, lits: &[Lit]) {
        for &lit in lits {
            self.num_vars = self.num_vars.max(lit.var().to_dimacs());
        }
    }

    pub fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::from_dimacs(self.num_vars)
    }

    pub fn stats(&self, conflicts: Option<u64>) -> Stats {
        Stats {
            vars: u64::from(self.num_vars),
            clauses: self.clauses,
            conflicts,
            decisions: None,
            solves: self.solves,
            solve_time: self.solve_time,
            theory_time: self.theory_time,
        }
    }
}

/// When a solve that started at `start` under `budget` must stop (`None`: never, including a
/// time too far away to represent).
pub(crate) fn deadline(start: Instant, budget: &Budget) -> Option<Instant> {
    budget.time.and_then(|t| start.checked_add(t))
}

/// Checking the clock on every callback costs more than the callback itself, and the solvers
/// call back on every conflict or decision; one look every this many calls keeps the overshoot
/// far below a millisecond.
pub(crate) const CLOCK_STRIDE: u32 = 64;
