//! The event order graph (EOG) of an abstract counterexample and its graph-based validation
//! and refinement (Yogar, Algorithms 1 and 2).
//!
//! The caller adds the events whose guard holds in the model, the program-order edges and the
//! read-from edges selected by the model ([`EogBuilder`]), then calls [`EogBuilder::close`]:
//! `Infeasible` carries kernel reasons (each becomes the refinement clause ¬(l1 ∧ … ∧ lk)),
//! `NotSure` means the graph check found no cycle and an exact check must decide. Atomic blocks
//! are single nodes (see [`graph`] for the semantics). No solver is involved here.

pub mod closure;
pub mod dot;
mod explain;
pub mod graph;
mod reach;
mod reasons;
mod rules;

#[cfg(test)]
mod brute;
#[cfg(test)]
mod tests;

pub use closure::{ClosureLimits, ClosureResult, ClosureStats};
pub use graph::{
    Access, BlockKey, EogBuilder, Event, EventData, Loc, Node, NodeData, PoEdge, RfEdge, ThreadId,
};
