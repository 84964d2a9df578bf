//! The SSA equation of a bounded concurrent program and its bit-precise CNF encoding.
//!
//! Knows nothing of C: symex builds an [`equation`] of guarded steps and shared-memory events,
//! and this crate turns it into clauses on a [`solver_glue::SatSolver`].
