//! SV-COMP witnesses in the GraphML format 1.0: a violation witness for a FALSE verdict (the
//! interleaving that reaches the error, thread by thread) and a correctness witness for TRUE;
//! and violation witnesses in the YAML format 2.2 (`yaml`), whose waypoints carry thread ids.
//!
//! The writer consumes the engine-independent [`Trace`]; the engines translate their
//! counterexamples into it, so that every engine (and the explorers) shares one witness writer.

mod from_engine;
mod graphml;
mod meta;
mod trace;
mod xml;
pub mod yaml;

pub use from_engine::{
    from_engine_trace, write_correctness, write_violation, write_violation_yaml,
};
pub use graphml::{
    correctness_witness, correctness_witness_with_invariants, violation_witness,
    write_correctness_witness, write_violation_witness, WitnessError,
};
pub use meta::{iso8601_utc, sha256_file, sha256_hex, WitnessMeta};
pub use trace::{Step, Trace, TraceStep};
pub use yaml::violation_witness_yaml;
