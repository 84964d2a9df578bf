//! The one interface the rest of yogar has to a SAT solver.
//!
//! Literals are plain DIMACS-style integers wrapped in [`Lit`], so no solver crate's types leak
//! into the encoder or the engines. The Yogar loop makes thousands of solves on one solver with
//! clauses added between them and assumptions that change every call, so the trait is built
//! around incremental use: [`SatSolver::solve`] under assumptions, the model after `Sat`, the
//! failed-assumption core after `Unsat`, and a budget so a long solve can be stopped.
//!
//! Three back ends implement it, selected by name through [`make_solver`]:
//! - `batsat`: a pure-Rust MiniSat-style solver. Cheap per call, which is what many
//!   incremental solves of a large formula under assumptions need; the default, chosen by
//!   `make bench` (see [`DEFAULT_SOLVER`]).
//! - `varisat`: a pure-Rust CDCL solver; cannot be interrupted from inside, so it runs on a
//!   worker thread (see [`backends::varisat`] for exactly what its budget guarantees).
//! - `cadical`: CaDiCaL 2.1, built from C++ source by the `cadical-sys` crate (a C++ compiler is
//!   all it needs, unlike bindings generated with bindgen, which need libclang). Strongest on
//!   hard structured instances.
//!
//! [`Propagator`] is the interface for a theory that takes part in the search (batsat runs it
//! as its `Theory`, CaDiCaL as an IPASIR-UP external propagator).
//!
//! [`dimacs`] reads and writes DIMACS CNF. The seeded formulas of the tests and the bench come
//! from the `cnf-gen` crate beside this one, which the product does not depend on.

pub mod backends;
pub mod clause_log;

pub use clause_log::ClauseLog;
pub mod dimacs;
pub mod propagator;

pub use propagator::{Propagation, Propagator, PropagatorUnsupported};

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
    // Not `std::ops::Neg`: a variable is not negated into a variable but into a literal.
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
    /// Its DIMACS integer (non-zero; negative when negated).
    pub fn to_dimacs(self) -> i32 {
        self.0
    }
    /// Its variable.
    pub fn var(self) -> Var {
        Var(self.0.unsigned_abs())
    }
    /// True for the un-negated literal.
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
    /// A model exists; read it with [`SatSolver::value`].
    Sat,
    /// No model under the assumptions; [`SatSolver::failed_core`] says which ones.
    Unsat,
    /// The budget ran out (time or conflicts) before an answer.
    Interrupted,
}

/// Limits for the following solves. `None` means unlimited.
///
/// The engines need a solve to come back when the user's `--timeout` runs out, so a budget must
/// really end the call with [`SolveResult::Interrupted`], not merely be a hint.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time allowed for each solve call.
    pub time: Option<Duration>,
    /// Conflicts allowed for each solve call (not every back end can count them: see
    /// [`SatSolver::set_budget`]).
    pub conflicts: Option<u64>,
}

/// A budget the back end cannot enforce; returned instead of silently ignoring the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedBudget {
    /// The back end's name.
    pub solver: &'static str,
    /// What it cannot limit.
    pub what: &'static str,
}

impl fmt::Display for UnsupportedBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} back end cannot limit {}", self.solver, self.what)
    }
}

impl std::error::Error for UnsupportedBudget {}

/// Counters kept by a back end, over its whole life.
#[derive(Copy, Clone, Default, Debug, PartialEq)]
pub struct Stats {
    /// Variables created (explicitly or by clauses).
    pub vars: u64,
    /// Clauses added through [`SatSolver::add_clause`] (learned clauses not counted).
    pub clauses: u64,
    /// Conflicts over all solves; `None` when the back end does not expose a count (varisat).
    pub conflicts: Option<u64>,
    /// Decisions over all solves; `None` when the back end does not expose a count.
    pub decisions: Option<u64>,
    /// Solve calls.
    pub solves: u64,
    /// Wall-clock time spent in solve calls (including [`Stats::theory_time`]).
    pub solve_time: Duration,
    /// Wall-clock time spent inside a connected [`Propagator`] during solves.
    pub theory_time: Duration,
}

/// An incremental SAT solver.
pub trait SatSolver {
    /// The back end's name, as `--solver` spells it.
    fn name(&self) -> &'static str;
    /// A fresh variable. Like adding a clause, this discards the last model and core.
    fn new_var(&mut self) -> Var;
    /// Number of variables created so far (also counts those introduced by `add_clause`).
    fn num_vars(&self) -> u32;
    /// Adds a clause permanently. Variables it mentions that do not exist yet are created.
    /// The empty clause makes every later solve `Unsat`. Adding a clause discards the last
    /// model (CaDiCaL cannot keep it), so read the model before adding.
    fn add_clause(&mut self, lits: &[Lit]);
    /// Solves the clauses added so far under `assumptions` (each must hold in a model).
    /// Assumptions only hold for this call. Variables they mention that do not exist yet are
    /// created.
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult;
    /// Value of `lit` in the model of the last solve, if it answered `Sat` and no clause was
    /// added since. `None` otherwise, and for a variable the model leaves unassigned (any value
    /// will do for it).
    fn value(&self, lit: Lit) -> Option<bool>;
    /// After `Unsat`: a subset of the last call's assumptions that is unsatisfiable together
    /// with the clauses (not necessarily minimal). Empty when the clauses alone are
    /// unsatisfiable, and after any other answer.
    fn failed_core(&self) -> Vec<Lit>;
    /// Limits for the following solve calls. A back end that cannot enforce a limit says so
    /// with an error and keeps its previous budget, rather than ignoring the limit.
    fn set_budget(&mut self, budget: Budget) -> Result<(), UnsupportedBudget>;
    /// Decide `lit`'s variable as `lit` whenever the search decides it (CaDiCaL's forced
    /// phase, over saved and target phases). A search heuristic only: no answer changes, the
    /// solver is free to propagate the variable either way. Back ends without such a setting
    /// ignore it.
    fn prefer_phase(&mut self, lit: Lit) {
        let _ = lit;
    }
    /// Counters over the solver's life.
    fn stats(&self) -> Stats;
    /// Runs `propagator` inside every following search (it observes its variables from now on).
    /// Back ends without that ability refuse.
    fn connect_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
    ) -> Result<(), PropagatorUnsupported> {
        drop(propagator);
        Err(PropagatorUnsupported(self.name()))
    }
    /// The connected propagator, to read its results between solves.
    fn propagator(&mut self) -> Option<&mut dyn Propagator> {
        None
    }
}

/// Something clauses can be added to: a solver, or a plain [`dimacs::Cnf`] being built.
/// Formula generators (the `cnf-gen` crate) are written against it so they serve both.
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Adds a clause.
    fn add_clause(&mut self, lits: &[Lit]);
}

// For the trait object only: a blanket impl over every `SatSolver` would make `add_clause` and
// `new_var` ambiguous wherever both traits are in scope.
impl ClauseSink for dyn SatSolver + '_ {
    fn new_var(&mut self) -> Var {
        SatSolver::new_var(self)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        SatSolver::add_clause(self, lits)
    }
}

/// The back end used when `--solver` is not given.
///
/// Chosen by `make bench` on this machine kind (2 cores), by CPU time. A Yogar run is many
/// solves of one large structured formula under changing assumptions. On the bench's imitation
/// of that (arithmetic circuits queried under assumptions, a gate added between queries)
/// batsat was fastest and its lead grew with the formula: on 232k variables and 150 queries
/// batsat took 1.4 s, varisat 3.7 s (×2.6), CaDiCaL 6.7 s (×4.7), as CaDiCaL's cost per call
/// grows with the formula. Over all incremental workloads: batsat 5.3 s, varisat 10.1 s,
/// CaDiCaL 11.5 s. CaDiCaL was ahead on small block-structured incremental formulas (×2.2),
/// on the multiplier miter (×2.5 over batsat) and on the hardest random 3-SAT, so it is the
/// choice for hard one-shot formulas (`--solver cadical`).
pub const DEFAULT_SOLVER: &str = "batsat";

/// The names `--solver` accepts, the default first.
pub fn solver_names() -> &'static [&'static str] {
    &["batsat", "varisat", "cadical"]
}

/// A `--solver` name that names no back end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSolver(pub String);

impl fmt::Display for UnknownSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown solver '{}' (known: {})",
            self.0,
            solver_names().join(", ")
        )
    }
}

impl std::error::Error for UnknownSolver {}

/// A fresh solver of the back end called `name`.
pub fn make_solver(name: &str) -> Result<Box<dyn SatSolver>, UnknownSolver> {
    match name {
        "batsat" => Ok(Box::new(backends::batsat::BatsatSolver::new())),
        "varisat" => Ok(Box::new(backends::varisat::VarisatSolver::new())),
        "cadical" => Ok(Box::new(backends::cadical::CadicalSolver::new())),
        _ => Err(UnknownSolver(name.to_string())),
    }
}
