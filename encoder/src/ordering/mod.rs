//! Ordering consistency inside the SAT search: the event order graph of the current partial
//! assignment as a theory ([`OrderTheory`]) connected to the solver that holds φ and ζ, with
//! coherence literals ([`Coherence`]) that make its check on full assignments exact.
//!
//! This replaces the scheduling constraint ξ (cubic in the number of shared accesses) by a
//! graph that grows and shrinks with the search (`dag`): a cycle on a partial assignment is a
//! conflict whose clause names only the literals of the edges on the cycle.

mod coherence;
mod dag;
mod theory;

pub use coherence::{Coherence, CoherencePair};
pub use theory::{OrderTheory, TheoryStats};
