//! Theories inside the SAT search: the interface a back end offers to an external propagator.
//!
//! A propagator watches the assignments of the variables it observes while the solver searches,
//! and may answer at any propagation fixpoint with a conflict clause (the current partial
//! assignment contradicts the theory) or with literals the theory implies. It is told about
//! decision levels and backtracking so that it can undo its own state level by level. On a full
//! assignment it is asked once more ([`Propagator::check_model`]) and may reject it with a
//! lemma.
//!
//! The shape follows IPASIR-UP (CaDiCaL's external propagator interface), which every back end
//! that supports propagators can be adapted to: batsat's `Theory` trait is driven from the
//! trail, CaDiCaL calls back per notification. Contract, for both:
//! * [`Propagator::notify`] reports literals that became true, in assignment order, each at the
//!   decision level current when it is reported; [`Propagator::new_level`] and
//!   [`Propagator::backtrack`] bracket them. After `backtrack(l)` every literal reported at a
//!   level above `l` is unassigned again.
//! * Before the solver opens a new decision level it calls [`Propagator::propagate`] until that
//!   returns [`Propagation::Done`], so everything reported has been seen by the theory.
//! * A conflict clause or a lemma must be implied by the theory (it holds in every assignment the
//!   theory accepts); a conflict clause must be false under the current assignment.
//! * Every literal returned by [`Propagation::Imply`] must be explainable by
//!   [`Propagator::reason`] for as long as it stays assigned.

use std::any::Any;

use crate::{Lit, Var};

/// What a propagator concludes at a propagation fixpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Propagation {
    /// Nothing more to say under the current assignment.
    Done,
    /// The current assignment contradicts the theory: this clause (every literal false now)
    /// holds in every assignment the theory accepts.
    Conflict(Vec<Lit>),
    /// These literals (unassigned or true now) are implied; each has a [`Propagator::reason`].
    Imply(Vec<Lit>),
}

/// A theory that takes part in the search. See the module documentation for the contract.
pub trait Propagator: Any {
    /// The variables whose assignments the theory needs. Asked once, when connected.
    fn observed(&self) -> Vec<Var>;
    /// `lits` (observed variables only) became true, in assignment order.
    fn notify(&mut self, lits: &[Lit]);
    /// The solver opened a new decision level.
    fn new_level(&mut self);
    /// The solver went back to decision level `level`.
    fn backtrack(&mut self, level: usize);
    /// Conclusions under the assignment reported so far.
    fn propagate(&mut self) -> Propagation;
    /// The literals (true now) whose conjunction implies `lit`, which this propagator implied.
    fn reason(&mut self, lit: Lit) -> Vec<Lit>;
    /// A full assignment, as the value of each observed literal: `None` to accept it, or a
    /// lemma clause false under it.
    fn check_model(&mut self, value: &dyn Fn(Lit) -> bool) -> Option<Vec<Lit>>;
    /// For the engine to read its theory's results back: `self`.
    fn as_any(&self) -> &dyn Any;
    /// Mutable [`Propagator::as_any`].
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// Returned by a back end that cannot run a propagator inside its search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropagatorUnsupported(pub &'static str);

impl std::fmt::Display for PropagatorUnsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} back end cannot run a theory inside its search",
            self.0
        )
    }
}

impl std::error::Error for PropagatorUnsupported {}
