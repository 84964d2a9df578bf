//! Concrete exploration of programs: an interpreter of the IR with explicit threads, the
//! base of witness replay (a witness-guided search that confirms a violation only by running
//! the program into it) and of the enumerative explorers (source-DPOR and constrained DPOR),
//! an independent second opinion to the SAT engines: they share the frontend and the IR with
//! them, nothing else.

pub mod classes;
pub mod concolic;
pub mod context_bounded;
pub mod dpor;
pub mod engines;
pub mod findings;
pub mod interp;
pub mod replay;
pub mod rsmc;
pub mod rvf;
pub mod sched;
pub mod stateful;
pub mod trace;

pub use engines::{verify, Explorer};
pub use findings::{Budget, ExploreStats};
pub use interp::{Machine, NondetRequest, RunEnd};
pub use replay::witness_read::{parse_witness, Witness, WitnessEdge};
pub use replay::witness_yaml::{check_waypoints, is_yaml, parse_yaml_witness};
pub use replay::{replay, Limits, ReplayResult};

#[cfg(test)]
mod tests;
