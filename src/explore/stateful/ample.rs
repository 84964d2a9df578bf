//! Partial-order reduction of the stateful search: ample sets of one thread whose next step
//! touches nothing another thread can observe, with the cycle proviso (Peled's C0-C3, in the
//! form of Clarke, Grumberg and Peled, "Model Checking", ch. 10; the proviso in the
//! breadth-first variant of Bošnački and Holzmann).
//!
//! A state is *reduced to thread `t`* when the search expands only `t`'s transitions there
//! (every combination of its nondet values). It may do so when
//! - (C0) `t` is runnable, so the ample set is not empty;
//! - (C1, C2) every transition of `t` there is [`local`]: it logs no access to state another
//!   thread can observe (`Machine::accesses`: no shared memory read or write, no object's
//!   lifetime shared with another thread, no mutex, no thread creation, no finish a join could
//!   see), ends no run (no violation, trap, finish or deadlock: the property is never decided by
//!   a reduced step) and leaves `t` outside an atomic section (so it disables no other thread);
//! - (C3) every successor of `t` there is new when the state is expanded, or was first stored
//!   one breadth-first level deeper than the state (else the search expands it fully).
//!
//! Why the reduced state set still proves unreachability. The certificate check
//! (`certificate`) establishes, for the stored set `S` and the marking of reduced states:
//! (a) the initial state is in `S`; (b) every transition of a fully expanded state, and every
//! transition of the ample thread of a reduced state, is in `S` or ends the run in a finish or
//! deadlock, never in a violation, a trap or an input too wide to enumerate; (c) the ample
//! thread's transitions satisfy the conditions above, re-derived by the check from the
//! transitions it computes itself (the search's marking only says which states are reduced
//! and hints at the thread); (d) the graph `H` of the edges out of reduced states is acyclic.
//! Claim: no run from a state `s` of `S` reaches a bad end (violation, trap, wide input).
//! Suppose one does, by the transitions `a1 … an` (`an` ends badly). Induct on `n`, then on the
//! longest `H`-path from `s` (finite, by (d) and `S` finite). If `s` is fully expanded, `a1`
//! leads into `S` by (b) (or ends badly there, which (b) excludes), and the rest is shorter.
//! If `s` is reduced to `t` with its step `a` (the one with `a`'s nondet values where the run
//! has a step of `t`):
//! - `a` reads and writes only `t`'s own frame and private objects, which no other thread's
//!   step reads or writes (their accesses would be logged as shared), so other threads' steps
//!   neither change what `a` does nor are changed by it; `a` takes no mutex and opens no
//!   atomic section that stays open, so it neither disables nor enables any other thread's
//!   step, nor is disabled by one (only a lock, a join, a condition wait or another thread's
//!   atomic section disables a step, and `a` is no lock, join or wait and was runnable at
//!   `s`). So `a` commutes with every step of every other thread: it is *independent*.
//! - If the run has a step `ai` of `t`, take the first: `a1 … ai-1` are other threads' steps,
//!   so `t`'s state at `ai` is its state at `s` and `ai` is `a` (same nondet values). Then
//!   `a, a1 … ai-1, ai+1 … an` is a run from `s` too, reaching the same states after `ai`;
//!   `i < n`, since `a` does not end badly; so `a`'s successor in `S` has a bad run of
//!   length `n - 1`.
//! - Else `a, a1 … an` is a run from `s` (`a` is independent of all of them; `an` still ends
//!   badly, since what it reads is unchanged), so `a`'s successor `s'` in `S` has a bad run
//!   of length `n`, and `s -> s'` is an edge of `H`: the longest `H`-path from `s'` is shorter.
//!
//! Either way the induction hypothesis applies. With `s` the initial state: no run of the
//! program ends badly. (d) is what excludes the ignoring problem, where a thread that loops
//! on local steps forever would be the only one ever expanded; the search ensures it by
//! C3: a reduced state's successors lie one breadth-first level below it, so along `H` the
//! level grows strictly, and `H` has no cycle.
//!
//! States are stored by canonical form, thread symmetry included (`interp::canon`): equal
//! forms are the same state up to a renaming of objects and a permutation of threads, which
//! maps runs to runs, accesses to the renamed accesses and the conditions above to
//! themselves. The argument therefore runs on the quotient: the check verifies each form on
//! the one machine of it it reaches, and every other machine of the form has the permuted
//! thread as its ample thread.

use super::succ::Succ;
use crate::explore::interp::Machine;

/// Whether transition `s` of thread `s.thread` is local (see the module doc: no access
/// another thread can observe, no run end, not inside an atomic section after it). The
/// search uses it to choose ample sets and the certificate check to re-derive them.
pub fn local(s: &Succ) -> bool {
    s.step.end.is_none()
        && s.step.accesses.is_empty()
        && s.step.created.is_empty()
        && s.step.acquire.is_none()
        && s.step.release.is_none()
        && !s.next.in_atomic(s.thread)
}

/// Whether thread `t` of `m` may form an ample set with these transitions: it is runnable in
/// `m` (its transitions are non-empty) and every one is [`local`].
pub fn qualifies(m: &Machine<'_>, t: usize, succs: &[Succ<'_>]) -> bool {
    !succs.is_empty() && !m.in_atomic(t) && succs.iter().all(|s| s.thread == t && local(s))
}

/// A deliberate fault of the reduction, for the tests that show the certificate check
/// catches it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Reduce without the cycle proviso (C3).
    NoProviso,
    /// Reduce to the first runnable thread whatever its step (no independence, C1).
    AnyThread,
}
