//! The counterexample as the witness writer sees it: one step per thing a thread did, in the
//! order of the interleaving.

use crate::verdict::Violation;

/// An interleaved counterexample trace. Thread 0 is `main`; other threads are numbered as they
/// are created.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    pub steps: Vec<TraceStep>,
    /// What the trace violates (the last step, [`Step::Violation`], is where).
    pub violation: Violation,
    /// For a data race: the positions in [`Trace::steps`] of the two racing accesses, the
    /// second directly after the first in the interleaving.
    pub race: Option<[usize; 2]>,
}

/// One step of one thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The thread taking the step.
    pub thread: u32,
    /// Source line (of the program file named in the witness), if known.
    pub line: Option<u32>,
    /// The function the step happens in; for [`Step::EnterFunction`] the function entered,
    /// for [`Step::Return`] the function returned from.
    pub function: String,
    pub kind: Step,
}

/// What a step does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `lhs` holds `value` after the step (an assignment, or a read of a shared variable into
    /// `lhs`). `lhs` is a C lvalue that is in scope in `function`.
    Assign { lhs: String, value: i128 },
    /// An access to shared memory whose value the witness does not state (a write, or a
    /// read of something that is no C expression in scope): it still pins down where the
    /// thread is in the interleaving.
    Access,
    /// A nondeterministic input (`__VERIFIER_nondet_*`) stored in `name` took `value`.
    NondetInput { name: String, value: i128 },
    /// `pthread_create` started thread `child` in function `entry`.
    CreateThread { child: u32, entry: String },
    /// A call: the thread enters `function`.
    EnterFunction,
    /// The thread returns from `function`.
    Return,
    /// A conditional branch: whether its condition held.
    Branch { taken: bool },
    /// The error is reached (`reach_error()` or a failed assertion). The last step.
    Violation,
}

impl TraceStep {
    pub fn new(thread: u32, line: Option<u32>, function: &str, kind: Step) -> TraceStep {
        TraceStep {
            thread,
            line,
            function: function.to_string(),
            kind,
        }
    }
}
