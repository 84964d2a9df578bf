//! Counterexample traces: the interleaving of shared accesses that reaches the error, with the
//! nondeterministic inputs. Only the data: the engines build traces (`engine::trace`), the
//! verdict carries one, witnesses and replay read them; keeping the type here means the
//! verdict no longer imports from the engines above it.

use crate::ir::Loc;
use crate::violation::Violation;

/// One shared access of the interleaving.
#[derive(Clone, Debug)]
pub struct TraceEvent {
    /// Thread number (main is 0).
    pub thread: u32,
    pub loc: Loc,
    /// The memory cell (`variable+offset`) or lock.
    pub what: String,
    pub write: bool,
    pub value: u64,
    pub bits: u32,
}

/// A nondeterministic input the trace uses.
#[derive(Clone, Debug)]
pub struct TraceInput {
    pub thread: u32,
    pub loc: Loc,
    pub value: i128,
}

#[derive(Clone, Debug)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    pub inputs: Vec<TraceInput>,
    /// The failing check and the thread it fails in (for a data race: the second access).
    pub violation_loc: Loc,
    pub violation_thread: u32,
    /// What the trace violates.
    pub violation: Violation,
    /// For a data race: the positions in [`Trace::events`] of the two accesses, the second
    /// directly after the first (the trace ends with it).
    pub race: Option<[usize; 2]>,
    /// Thread number → (entry function, creation site), for the threads the execution creates
    /// (numbered as the run numbers them: main 0, then in creation order).
    pub threads: Vec<(String, Loc)>,
    /// Thread number → the number of the thread that created it (main: 0).
    pub parents: Vec<u32>,
    /// Thread number → how many of [`Trace::events`] come before its creation: the position
    /// just after the parent's last event before the `pthread_create` (without one, the
    /// parent's own place). `None` when unknown (the creation is then only known to precede
    /// the child's first event).
    pub created_after: Vec<Option<usize>>,
}
