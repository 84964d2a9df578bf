//! yogar: a bounded model checker for multi-threaded C programs.
//!
//! Data flows one way: `frontend` → `ir` → `symex` → `encoder` (crate) → `solver_glue` (crate)
//! → `engine`. The `cli` module is the thin layer the binary calls.

pub mod cli;
pub mod engine;
pub mod exit;
pub mod explore;
pub mod frontend;
pub mod ir;
pub mod sharing;
pub mod svcomp;
pub mod symex;
pub mod verdict;
pub mod witness;
