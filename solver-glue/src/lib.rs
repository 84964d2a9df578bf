//! The one interface the rest of yogar has to a SAT solver.
//!
//! Literals are plain DIMACS-style integers wrapped in [`Lit`], so no solver crate's types leak
//! into the encoder or the engines. The Yogar loop makes thousands of solves on one solver with
//! clauses added between them and assumptions that change every call, so the trait is built
//! around incremental use: [`SatSolver::solve`] under assumptions, the model after `Sat`, the
//! failed-assumption core after `Unsat`, and a budget so a long solve can be stopped.

use std::fmt;
use std::ops::Not;
use std::time::Duration;

/// A propositional variable, numbered from 1 as in DIMACS.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Var(u32);

impl Var {
    /// The variable with DIMACS number `n` (n ≥ 1).
    pub fn from_dimacs(n: u32) -> Var {
        assert!(n >= 1, "DIMACS variables start at 1");
        Var(n)
    }
    /// Its DIMACS number (≥ 1).
    pub fn to_dimacs(self) -> u32 {
        self.0
    }
    /// Zero-based index, for side tables.
    pub fn index(self) -> usize {
        (self.0 - 1) as usize
    }
    /// The positive literal of this variable.
    pub fn pos(self) -> Lit {
        Lit(self.0 as i32)
    }
    /// The negative literal of this variable.
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Lit {
        Lit(-(self.0 as i32))
    }
}

/// A literal: a variable or its negation, stored as a non-zero DIMACS integer.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Lit(i32);

impl Lit {
    /// The literal written `n` in DIMACS (n ≠ 0).
    pub fn from_dimacs(n: i32) -> Lit {
        assert!(n != 0, "0 is not a DIMACS literal");
        Lit(n)
    }
    pub fn to_dimacs(self) -> i32 {
        self.0
    }
    pub fn var(self) -> Var {
        Var(self.0.unsigned_abs())
    }
    pub fn is_positive(self) -> bool {
        self.0 > 0
    }
    /// Dense code `2·index + sign`, for tables indexed by literal.
    pub fn code(self) -> usize {
        self.var().index() * 2 + usize::from(self.0 < 0)
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(-self.0)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The answer of one solve.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SolveResult {
    Sat,
    Unsat,
    /// The budget ran out (time or conflicts) before an answer.
    Interrupted,
}

/// Limits for the following solves. `None` means unlimited.
#[derive(Copy, Clone, Default, Debug)]
pub struct Budget {
    /// Wall-clock time allowed for each solve call.
    pub time: Option<Duration>,
    /// Conflicts allowed for each solve call.
    pub conflicts: Option<u64>,
}

/// Counters kept by a back end, over its whole life.
#[derive(Copy, Clone, Default, Debug, PartialEq)]
pub struct Stats {
    pub vars: u64,
    pub clauses: u64,
    pub conflicts: u64,
    pub solves: u64,
    pub solve_time: Duration,
}

/// An incremental SAT solver.
pub trait SatSolver {
    /// The back end's name, as `--solver` spells it.
    fn name(&self) -> &'static str;
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Number of variables created so far (also counts those introduced by `add_clause`).
    fn num_vars(&self) -> u32;
    /// Adds a clause permanently. Variables it mentions that do not exist yet are created.
    fn add_clause(&mut self, lits: &[Lit]);
    /// Solves the clauses added so far under `assumptions` (each must hold in a model).
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult;
    /// Value of `lit` in the model of the last `Sat` answer (`None` if it was not assigned or
    /// the last answer was not `Sat`).
    fn value(&self, lit: Lit) -> Option<bool>;
    /// After `Unsat`: a subset of the last call's assumptions that is unsatisfiable together
    /// with the clauses. Empty when the clauses alone are unsatisfiable.
    fn failed_core(&self) -> Vec<Lit>;
    /// Limits for the following solve calls.
    fn set_budget(&mut self, budget: Budget);
    fn stats(&self) -> Stats;
}
