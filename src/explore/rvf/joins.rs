//! Joins of finished threads are taken into a node's extension, like non-read events.
//!
//! A join reads the joined thread's done object, so it is a read and would make its own
//! level of the exploration: at every node where main has finished threads left to join,
//! the join is one more child, and every instance of the other threads' progress is
//! reached once per number of joins main has made by then (the lock counter: ~28 instances
//! per class, most differing only in where a join of an already-finished thread stands).
//! Yet a join of a finished thread can observe one thing only, whatever else runs.
//!
//! # Which joins
//!
//! Thread t's next step, run at the end of the node's witness, is a join (`ThreadJoin`)
//! that passes there, whose only observation is the done object of the joined thread u
//! (`Obs::Sync` of u's end: no memory read, which also means the handle is read from
//! memory no other thread can reach, no object whose liveness it observes, no nondet
//! value), that makes no other synchronisation access and leaves no atomic section open.
//!
//! # Why every run is still reached
//!
//! The done object of u is written by one event in any run: u's end (`finish_thread`; the
//! join itself only reads it). So in every run in which t's join runs, it observes u's end,
//! and it can run in any run that contains u's end and t's events before it (a join of a
//! finished thread never waits). Such a join is thus an event whose observation is the same
//! wherever it runs, like a non-read event, and the parent module's completeness argument
//! ("Causal maps: why the exploration is complete") goes through with it in the extension:
//! - fit (i) allows events of X'(N) missing from T only when T ended early before them;
//!   the projection W of T appends those missing events in the order of N's extended
//!   witness, in which u's end precedes the join: appended after u's end, the join passes
//!   and observes u's end, as in X'(N), and t's events before it are in W; its writes (the
//!   return value it stores) come after r_i and every event of T, so they change no
//!   observation in W (the appended non-read events observe nothing, the appended joins
//!   only their thread's end).
//! - (ii): the join observes u's end, an event of X'(N) (u finished in N's witness, which
//!   runs every event of X'(N)), so it is internal to lens(N) and to every larger frontier.
//! - The first event e of T outside X'(N) is still a read processed at N: were it a join of
//!   this kind, u's end would precede it in T, inside X'(N) (e is the first outside), so u
//!   finished in N's witness and the extension would have taken the join.
//! - The settled reads, silent stops and the memo argue about runs that fit N and the reads
//!   N processes; none of them assumes that an event of X' observes nothing.
//!
//! Leaves are complete runs (every thread finished or blocked, or ended by a violation,
//! trap or bound), so taking the joins early changes which intermediate instances exist,
//! not which leaves can be reached: a violation that needs main to join late (or early) is
//! found all the same (`tests/programs/join_*`).

use super::event::{Obs, Ran};
use crate::explore::interp::{Machine, Target};
use crate::ir::InstrKind;

/// Whether `ran`, thread `t`'s next step run from `m` (the end of a node's witness), is a
/// join of a finished thread that the extension takes (see the module doc).
pub fn folds(m: &Machine, t: usize, ran: &Ran) -> bool {
    matches!(m.next_kind(t), Some(InstrKind::ThreadJoin { .. }))
        && matches!(ran.obs[..], [Obs::Sync(Some(_))])
        && ran.step.choices.is_empty()
        && ran.step.end.is_none()
        && !ran.step.atomic
        && !ran.machine.in_atomic(t)
        && ran.step.accesses.iter().all(|a| match a.target {
            Target::Done(_) => !a.write,
            Target::Mem { .. } => a.write,
            _ => false,
        })
}
