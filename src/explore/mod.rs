//! Concrete exploration of programs: an interpreter of the IR with explicit threads, a reader
//! of GraphML violation witnesses, and a witness-guided search over interleavings that
//! confirms a violation only by running the program into it.

pub mod interp;
pub mod search;
pub mod witness_read;

pub use interp::{Machine, NondetRequest, RunEnd};
pub use search::{replay, Limits, ReplayResult};
pub use witness_read::{parse_witness, Witness, WitnessEdge};

#[cfg(test)]
mod tests;
