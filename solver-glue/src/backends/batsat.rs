//! The batsat back end: a pure-Rust MiniSat-style CDCL solver.
//!
//! Its per-call overhead is small (no preprocessing or inprocessing on each solve), which suits
//! many easy solves under assumptions. Budgets are enforced from inside the search: batsat asks
//! its callbacks whether to stop before every decision, and the callbacks count learned clauses
//! (one per conflict), so a solve stops within a few conflicts of the limit (the conflicts of
//! one propagation run) and within a fraction of a millisecond of the deadline.

use std::cell::Cell;
use std::time::Instant;

use batsat::{lbool, Callbacks, ClauseKind, SolverInterface, SolverOpts};

use super::batsat_theory::{Adapter, AdapterState};
use super::{deadline, Tally, CLOCK_STRIDE};
use crate::{
    Budget, Lit, Propagator, PropagatorUnsupported, SatSolver, SolveResult, Stats,
    UnsupportedBudget, Var,
};

/// The limits of the running solve, checked from inside batsat's search loop.
#[derive(Default)]
struct Limits {
    deadline: Option<Instant>,
    /// Conflicts left in this solve; `None` for no limit.
    conflicts_left: Option<u64>,
    /// Calls to `stop` since the clock was last read.
    ticks: Cell<u32>,
    /// Set once a limit was hit, so every later check agrees.
    tripped: Cell<bool>,
}

impl Callbacks for Limits {
    fn on_new_clause(&mut self, _c: &[batsat::Lit], kind: ClauseKind) {
        if kind == ClauseKind::Learnt {
            if let Some(left) = &mut self.conflicts_left {
                *left = left.saturating_sub(1);
            }
        }
    }

    fn stop(&self) -> bool {
        if self.tripped.get() {
            return true;
        }
        if self.conflicts_left == Some(0) {
            self.tripped.set(true);
            return true;
        }
        if let Some(deadline) = self.deadline {
            let ticks = self.ticks.get() + 1;
            if ticks >= CLOCK_STRIDE {
                self.ticks.set(0);
                if Instant::now() >= deadline {
                    self.tripped.set(true);
                    return true;
                }
            } else {
                self.ticks.set(ticks);
            }
        }
        false
    }
}

/// [`SatSolver`] over batsat.
pub struct BatsatSolver {
    solver: batsat::Solver<Limits>,
    tally: Tally,
    budget: Budget,
    last: Option<SolveResult>,
    assumptions: Vec<batsat::Lit>,
    core: Vec<Lit>,
    scratch: Vec<batsat::Lit>,
    /// The theory run inside every search, once connected.
    propagator: Option<Box<dyn Propagator>>,
    adapter: AdapterState,
}

impl Default for BatsatSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl BatsatSolver {
    /// A fresh solver with batsat's default options.
    pub fn new() -> Self {
        BatsatSolver {
            solver: batsat::Solver::new(SolverOpts::default(), Limits::default()),
            tally: Tally::default(),
            budget: Budget::default(),
            last: None,
            assumptions: Vec::new(),
            core: Vec::new(),
            scratch: Vec::new(),
            propagator: None,
            adapter: AdapterState::default(),
        }
    }

    /// batsat's literal for `lit`, creating its variable (batsat numbers variables from 0).
    fn lit(&mut self, lit: Lit) -> batsat::Lit {
        let var = self.solver.var_of_int(lit.var().index() as u32);
        batsat::Lit::new(var, lit.is_positive())
    }

    fn from_batsat(lit: batsat::Lit) -> Lit {
        let n = lit.var().idx() as i32 + 1;
        Lit::from_dimacs(if lit.sign() { n } else { -n })
    }
}

impl SatSolver for BatsatSolver {
    fn name(&self) -> &'static str {
        "batsat"
    }

    fn new_var(&mut self) -> Var {
        let var = self.tally.new_var();
        self.solver.var_of_int(var.index() as u32);
        self.last = None;
        var
    }

    fn num_vars(&self) -> u32 {
        self.tally.num_vars
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.tally.see(lits);
        self.tally.clauses += 1;
        self.last = None;
        let mut clause = std::mem::take(&mut self.scratch);
        clause.clear();
        for &lit in lits {
            let l = self.lit(lit);
            clause.push(l);
        }
        // `false` only means the clauses are now unsatisfiable; solve reports it.
        self.solver.add_clause_reuse(&mut clause);
        self.scratch = clause;
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        let start = Instant::now();
        self.tally.see(assumptions);
        self.assumptions.clear();
        for &lit in assumptions {
            let l = self.lit(lit);
            self.assumptions.push(l);
        }
        let limits = self.solver.cb_mut();
        limits.deadline = deadline(start, &self.budget);
        limits.conflicts_left = self.budget.conflicts;
        limits.ticks.set(0);
        limits.tripped.set(false);
        let answer = match &mut self.propagator {
            Some(p) => {
                let mut theory = Adapter {
                    propagator: &mut **p,
                    state: &mut self.adapter,
                };
                self.solver.solve_limited_th(&mut theory, &self.assumptions)
            }
            None => self.solver.solve_limited(&self.assumptions),
        };
        let result = if answer == lbool::TRUE {
            SolveResult::Sat
        } else if answer == lbool::FALSE {
            SolveResult::Unsat
        } else {
            SolveResult::Interrupted
        };
        self.core.clear();
        if result == SolveResult::Unsat {
            // batsat reports the final conflict clause: the negations of failed assumptions.
            self.core.extend(
                self.solver
                    .unsat_core()
                    .iter()
                    .map(|&l| !Self::from_batsat(l)),
            );
        }
        self.last = Some(result);
        self.tally.solves += 1;
        self.tally.solve_time += start.elapsed();
        result
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        if self.last != Some(SolveResult::Sat) {
            return None;
        }
        let var = lit.var().index();
        let value = *self.solver.get_model().get(var)?;
        let value = if value == lbool::TRUE {
            true
        } else if value == lbool::FALSE {
            false
        } else {
            return None;
        };
        Some(value == lit.is_positive())
    }

    fn failed_core(&self) -> Vec<Lit> {
        if self.last == Some(SolveResult::Unsat) {
            self.core.clone()
        } else {
            Vec::new()
        }
    }

    fn set_budget(&mut self, budget: Budget) -> Result<(), UnsupportedBudget> {
        self.budget = budget;
        Ok(())
    }

    fn stats(&self) -> Stats {
        let mut stats = self.tally.stats(Some(self.solver.num_conflicts()));
        stats.theory_time = self.adapter.time;
        stats.decisions = Some(self.solver.num_decisions());
        stats
    }

    fn connect_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
    ) -> Result<(), PropagatorUnsupported> {
        for var in propagator.observed() {
            self.solver.var_of_int(var.index() as u32);
            self.tally.see(&[var.pos()]);
            self.adapter.observe(var.index());
        }
        self.propagator = Some(propagator);
        self.last = None;
        Ok(())
    }

    fn propagator(&mut self) -> Option<&mut dyn Propagator> {
        self.propagator.as_deref_mut()
    }
}
