//! yogar: a bounded model checker for multi-threaded C programs.
//!
//! Data flows one way: `frontend` → `ir` → `sharing` → `symex` → `encoder` (crate) →
//! `solver_glue` (crate) → `engine`. [`verify`] (in `pipeline`) runs that whole way for one
//! task; the `cli` module is the thin layer the binary calls.

pub mod budget;
pub mod cli;
pub mod engine;
pub mod exit;
pub mod explore;
pub mod frontend;
pub mod ir;
pub mod litmus;
pub mod pipeline;
pub mod prove;
pub mod resources;
pub mod sharing;
pub mod status;
pub mod svcomp;
pub mod symex;
pub mod trace;
pub mod verdict;
pub mod violation;
pub mod witness;

pub use pipeline::{verify, Options, Outcome, Task};
