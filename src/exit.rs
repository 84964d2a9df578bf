//! Exit codes of the `yogar` binary, following CBMC where CBMC has one.
//!
//! Scripts and BenchExec read the verdict from these, so they are part of the interface and
//! are documented in the README.

/// Verification succeeded: no reachable error within the bound (TRUE); also plain success of
/// commands that give no verdict (`parse`, `show-ir`).
pub const TRUE: u8 = 0;
/// Internal error: a bug in yogar (a caught panic). Never a verdict.
pub const INTERNAL: u8 = 1;
/// Usage error: unknown option, missing argument (what the argument parser reports).
pub const USAGE: u8 = 2;
/// Input error: unreadable file, preprocessor failure, syntax error.
pub const INPUT: u8 = 3;
/// The command exists but is not implemented yet.
pub const NOT_IMPLEMENTED: u8 = 4;
/// No verdict: UNKNOWN (unsupported construct, unwind bound too small, timeout, memory).
pub const UNKNOWN: u8 = 5;
/// `verify --crosscheck`: the SAT engine and the explorer gave TRUE and FALSE.
pub const DISAGREE: u8 = 6;
/// A reachable error: FALSE.
pub const FALSE: u8 = 10;
/// `yogar sat`: satisfiable (SAT-competition convention).
pub const SAT: u8 = 10;
/// `yogar sat`: unsatisfiable (SAT-competition convention).
pub const UNSAT: u8 = 20;
/// `yogar sat`: no answer within the time limit (SAT-competition convention).
pub const SAT_UNKNOWN: u8 = 0;
