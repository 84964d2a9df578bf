//! Stateless model checking under the POWER memory model (Abdulla, Atig, Jonsson,
//! Leonardsson, "Stateless model checking for POWER", CAV 2016): the paper's execution
//! model (events with address, data and control dependencies, fences, commit-before,
//! coherence positions and read-from sources as parameters of commits) explored so that
//! every complete trace the axiomatic model allows is reached exactly once.
//!
//! Modules: `program` (threads of register code: what litmus tests and the C subset become),
//! `state` (the execution model), `rel` (bit-matrix relations), `model` (POWER and SC
//! axioms), `search` (the exploration), `from_ir` (C programs of the supported subset).

pub mod engine;
pub mod families;
pub mod from_ir;
pub mod model;
pub mod program;
pub mod rel;
pub mod search;
pub mod state;

pub use model::MemoryModel;
pub use search::{explore, Halt, Options, Stats};
