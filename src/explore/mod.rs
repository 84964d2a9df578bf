//! Concrete exploration of programs: an interpreter of the IR with explicit threads, the
//! base of witness replay (a witness-guided search that confirms a violation only by running
//! the program into it) and of the explorers.

pub mod interp;
pub mod replay;

pub use interp::{Machine, NondetRequest, RunEnd};
pub use replay::witness_read::{parse_witness, Witness, WitnessEdge};
pub use replay::{replay, Limits, ReplayResult};

#[cfg(test)]
mod tests;
