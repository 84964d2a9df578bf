//! Stateful explicit-state exploration (`--engine stateful`), as SPIN and DIVINE do it: the
//! concrete interpreter's states reachable from the initial one, every interleaving of a
//! fixed or growing set of threads, each state stored in a visited set by its canonical form
//! (`interp::canon`), so that a state seen again ends its branch. Loops that never end then
//! end the search whenever the program has finitely many reachable states, and a search that
//! stored every reachable state without meeting a violation proves TRUE for all executions,
//! at any depth — no unwinding bound is involved.
//!
//! Soundness, part by part:
//! - The machine has no loop or recursion bound (`Machine::new`), so its runs are all runs.
//! - The successor relation (`succ`) expands every runnable thread with every nondet value
//!   (inputs with more than [`MAX_DOMAIN`] values give UNKNOWN). Its only reductions, merging
//!   thread-local instructions into the visible step before them and an atomic section into
//!   one transition, are exact (see `succ`).
//! - The partial-order reduction (`ample`, on by default) expands a state by one thread's
//!   transitions alone when they touch nothing another thread can observe (calls, returns,
//!   private memory) and all lead to new states (the cycle proviso); its argument, and what
//!   the certificate check verifies for it, are in `ample`.
//! - The visited set (`store`) compares canonical forms exactly (no hash decides), and equal
//!   forms behave alike (`interp::canon`: dead variables and unreachable objects are left
//!   out, objects renamed, and threads permuted when their numbers are unobservable).
//! - A trap (a construct the interpreter cannot run exactly), a wide input, the time limit or
//!   the state budget makes the result UNKNOWN, never TRUE. Unbounded thread creation makes
//!   the state space infinite and ends in one of the budgets.
//! - Before TRUE is given, `certificate` checks the stored set independently: it holds the
//!   initial state, is closed under every transition of a fully expanded state and under the
//!   ample thread's transitions of a reduced one (whose independence it re-derives), the
//!   reduced states' edges form no cycle, and no checked transition violates.
//!
//! A violation comes with the run that reached it, replayed from the store's edges into the
//! explorers' trace (and witness).

pub mod ample;
pub mod certificate;
pub mod search;
pub mod store;
pub mod succ;

use std::time::Instant;

use crate::engine::{EngineOptions, EngineStats, Outcome, Verdict};
use crate::explore::ExploreStats;
use crate::ir::Program;
use crate::verdict::UnknownReason;

/// Largest domain of a nondet value the search enumerates: `_Bool` and `char` inputs.
pub const MAX_DOMAIN: u64 = 256;

/// Resident memory past which the search gives up (UNKNOWN (out of memory)) by default.
pub const DEFAULT_MAX_RESIDENT: u64 = 4 << 30;

/// Limits and test hooks of one search.
#[derive(Clone, Debug)]
pub struct Options {
    /// Give up (UNKNOWN) once more states than this are stored.
    pub max_states: Option<u64>,
    /// Give up (UNKNOWN (out of memory)) once the process's resident memory passes this.
    pub max_resident: Option<u64>,
    pub deadline: Option<Instant>,
    /// Nondet values with more values than this are not enumerated (UNKNOWN).
    pub max_domain: u64,
    /// For tests only: the search leaves out this successor (by the number of the state and
    /// the successor's position among its successors), as a buggy search would; the
    /// certificate check must then reject the result.
    pub drop_successor: Option<(u32, usize)>,
    /// The partial-order reduction (`ample`).
    pub por: bool,
    /// For tests only: the reduction breaks one of its conditions on purpose; the certificate
    /// check must then reject the result.
    pub por_fault: Option<ample::Fault>,
}

impl Options {
    /// The limits of the engine options: their time limit and state budget.
    pub fn of(opts: &EngineOptions) -> Options {
        Options {
            max_states: opts.max_states,
            max_resident: Some(DEFAULT_MAX_RESIDENT),
            deadline: opts.timeout.map(|t| Instant::now() + t),
            max_domain: MAX_DOMAIN,
            drop_successor: None,
            por: true,
            por_fault: None,
        }
    }
}

/// Verifies `prog` by stateful exploration within the options' time limit and state budget.
pub fn verify(prog: &Program, opts: &EngineOptions) -> Outcome {
    // Only reachability of an error is searched for (`Engine::checks`).
    if opts.property != crate::svcomp::Property::UnreachCall {
        return Outcome::unknown(UnknownReason::UnsupportedProperty, EngineStats::default());
    }
    run(prog, &Options::of(opts))
}

/// The search, then (when it found every reachable state without a violation) the
/// certificate check.
pub fn run(prog: &Program, opts: &Options) -> Outcome {
    let start = Instant::now();
    let found = search::search(prog, opts);
    let mut stats = ExploreStats {
        steps: found.steps,
        states: found.store.len() as u64,
        reduced_states: found.store.reduced() as u64,
        ..ExploreStats::default()
    };
    let mut proof = None;
    let verdict = if let Some(trace) = found.violation {
        Verdict::False { trace }
    } else if let Some(why) = found.incomplete {
        Verdict::Unknown(why)
    } else {
        match certificate::check(prog, &found.store, opts) {
            Ok(c) => {
                stats.check_time = c.time;
                proof = Some(format!("stateful exploration ({} states)", c.states));
                Verdict::True { complete: true }
            }
            Err(certificate::CheckError::Timeout) => Verdict::Unknown(UnknownReason::Timeout),
            Err(certificate::CheckError::Rejected(why)) => Verdict::Unknown(
                UnknownReason::Internal(format!("the state set failed its check: {why}")),
            ),
        }
    };
    stats.time = start.elapsed();
    Outcome {
        verdict,
        stats: EngineStats {
            total_time: stats.time,
            explore: Some(stats),
            ..EngineStats::default()
        },
        proved_by: proof,
    }
}

/// The initial state of the search: no bound, and a step ends at the instruction that takes
/// a nondet value (`Machine::split_at_inputs`), so that each input branches once per value.
pub fn initial(prog: &Program) -> Result<crate::explore::Machine<'_>, crate::explore::RunEnd> {
    let mut m = crate::explore::Machine::new(prog)?;
    m.split_at_inputs();
    Ok(m)
}
