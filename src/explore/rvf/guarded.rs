//! Reads of guarded and unwritten globals, and releases of a clean mutex by its holder, are
//! taken into a node's extension like non-read events.
//!
//! In a critical section every event is a read of its own level of the exploration: the
//! lock counter's `lock(m); counter = counter + 1; unlock(m)` makes three (the lock, the
//! read of `counter`, the unlock, whose observation of the mutex's last writer makes it a
//! read: `event`), and every instance of the other threads' progress is reached once per
//! stage the lock holder is at (~9.6 instances per class at 6 threads). Yet while its thread
//! holds the lock, the read of `counter` and the unlock can observe one thing only, whatever
//! else runs: nothing else may write `counter` or touch the mutex then.
//!
//! # Which events
//!
//! Thread t's next step e, run at the end of the node's witness (the machine `m`), is taken
//! when it takes no nondet value, does not end the run, is no atomic section and leaves
//! none open, observes only memory values and synchronisation writers (no `Obs::Alive`),
//! and each of its accesses is
//! - a read of a cell of a global variable that is *unwritten* (`sharing::guards`: no
//!   write can change it after `main`'s first thread creation), or *guarded* by a clean
//!   mutex K (every write of it after the first creation is made holding K; no init,
//!   destroy or trylock of K after it) that t holds in `m`;
//! - a write of memory (it observes nothing);
//! - the mutex access of an unlock of a mutex K in a global variable, clean, that t holds
//!   in `m`.
//!
//! Whether t holds K at the end of a witness of the instance is the same in every witness
//! (the operations on a mutex form a chain its observations fix, see `event::run`), and so
//! is t's state: the checks give the same answer wherever the instance's witness ends.
//!
//! # Lemma: such an event observes the same in every run
//!
//! Let N be a node, X'(N) its extended instance and e thread t's next step, taken as above.
//! Let R be any run containing t's events of X'(N) and then e, in which every event of
//! X'(N) that precedes e in R observes what the instance says. Then e observes in R what it
//! observes at the end of N's witness W_N. Thread t's state before e is fixed by its
//! earlier observations, so e is the same instruction with the same registers: it reads the
//! same cells (one fresh read per step, where it reads computed from t's own state) and
//! names the same mutex.
//!
//! Creations. Before `main`'s first thread creation no other thread exists. If e runs
//! before it (t is `main`), R and W_N before e are t's own events, the same; assume from
//! here that it runs after. Then `main`'s pre-creation events (module `sharing::guards`:
//! its instructions no path reaches through a creation) precede its first creation in its
//! program order, and that creation is in X'(N) (it is t's earlier event, or it precedes
//! the creation of t, which is in X'(N) since t's events are); so they are events of X'(N)
//! and, in R and W_N alike, precede every event of any other thread.
//!
//! Unwritten reads. Every write of the global in R is made by the initialiser (before
//! everything) or at a pre-creation point of `main`: events of X'(N) observing the same in
//! R and W_N, hence writing the same bytes, in `main`'s program order. The last write of
//! each byte e reads is the same event in both, so e reads the same value.
//!
//! Guarded reads. Let a be the acquisition of K (a lock, a successful trylock, a condition
//! wait's wake-up) that starts t's holding of K at the end of W_N; a and t's events up to e
//! are in X'(N) and do not release K, in R as in W_N. Who holds a mutex changes only by its
//! holder's own operations, except by an init or destroy, which clean excludes after the
//! first creation. So from a to e, in R, t holds K and no other thread does: no other
//! thread writes the global (every write after the first creation is made holding K), and
//! the writes of it before e in R are (i) pre-creation writes (above), (ii) t's own events
//! between a and e, and (iii) writes w before a by a thread q holding K. For (iii): q's
//! holding can end only by q's release r_q of K, and it ended before a (a lock or wake-up
//! waits while any thread holds K, a trylock fails). Every operation on K observes the last
//! one before it (each reads and writes its mutex), so the operations on K before a in R
//! are the chain of observations back from a; going down the chain, each is an event of
//! X'(N) that observes what the instance says (a named writer is in X'(N): in W_N it ran
//! before its observer), so the chain is the same in R and W_N. r_q is on it, and w,
//! before r_q in q's program order, is in X'(N). Conversely a write of X'(N) made holding
//! K in an interval whose release lies on the chain before a precedes a in every run. So
//! the writes of the global before e are the same events in R and W_N, in the same order
//! (pre-creation ones first; within a holding interval, program order; across intervals,
//! the chain's order), writing the same bytes: e reads the same value.
//!
//! Releases. The unlock observes the last operation on K before it. From a to e, in R, no
//! other thread's operation on K runs without ending the run before e: a lock or a wake-up
//! waits while t holds K, an unlock or a condition wait by a thread that does not hold K
//! traps, and no init, destroy or trylock of K runs after the first creation. So the last
//! operation on K before e is t's last one (a or later), the same event in R and W_N.
//!
//! # Why every run is still reached
//!
//! The parent module's completeness argument ("Causal maps: why the exploration is
//! complete") goes through with these events in the extension, as with joins (`joins`):
//! - fit (i) allows events of X'(N) missing from T only when T ended early before them.
//!   A taken event cannot wait (a read, a release by the holder), so a maximal T that has
//!   t's earlier events has it. When it is in T it observes what the instance says: by the
//!   lemma, along T's order (the events of X'(N) before it observe what the instance says:
//!   reads by fit (i), non-read events trivially, joins by `joins`, taken events by the
//!   lemma again).
//! - The projection W of T with r_i, followed by X'(N)'s missing events in the order of
//!   N's extended witness: each appended taken event runs in a run that satisfies the
//!   lemma's premise (the projection's events and the earlier appended ones observe what
//!   the instance says), so it observes the same; it can run (t holds K there: its holding
//!   started at a, in the projection, and only t's own events end it).
//! - (ii): what a taken event observes is an event of X'(N) (the lemma: the last write
//!   before it is one, or the initial value; the last operation on K is t's), so it is
//!   internal to lens(N) and to every larger frontier.
//! - The first event e of T outside X'(N) is still a read processed at N: t's earlier
//!   events are in X'(N), so e is t's next step at the end of N's witness, where the checks
//!   above depend only on t's state, the cells and who holds the mutexes, all fixed by the
//!   instance; were it of this kind, the extension would have taken it.
//! - The settled reads, silent stops and the memo argue about runs that fit N and the reads
//!   N processes; none of them assumes that an event of X' observes nothing.
//!
//! A taken event that would end the run (a failed assertion on a guarded value) is not
//! taken: it stays a read, and VerifySC reports the run it ends.

use super::event::{Obs, Ran};
use crate::explore::interp::{Machine, Target};
use crate::ir::InstrKind;
use crate::sharing::guards::Guards;

/// Whether `ran`, thread `t`'s next step run from `m` (the end of a node's witness), is a
/// step the extension takes (see the module doc).
pub fn folds(g: &Guards, m: &Machine, t: usize, ran: &Ran) -> bool {
    if ran.obs.is_empty()
        || !ran.step.choices.is_empty()
        || ran.step.end.is_some()
        || ran.step.atomic
        || ran.machine.in_atomic(t)
        || !ran
            .obs
            .iter()
            .all(|o| matches!(o, Obs::Mem(_) | Obs::Sync(_)))
    {
        return false;
    }
    let unlock = matches!(m.next_kind(t), Some(InstrKind::MutexUnlock(_)));
    ran.step.accesses.iter().all(|a| match a.target {
        Target::Mem { .. } if a.write => true,
        Target::Mem { obj, .. } => {
            obj.owner == 0
                && m.global_of(obj).is_some_and(|v| {
                    g.unwritten(v)
                        || g.guards_of(v)
                            .any(|(mv, off)| m.global_obj(mv).is_some_and(|o| m.holds(t, (o, off))))
                })
        }
        Target::Mutex(o, off) => {
            unlock
                && o.owner == 0
                && m.global_of(o).is_some_and(|v| g.clean(v))
                && m.holds(t, (o, off))
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{explore_under, settled, stopping, Facts, Options};
    use crate::explore::interp::Bounds;
    use crate::explore::Budget;
    use crate::frontend;
    use crate::ir::DataModel;
    use crate::sharing::guards::Guards;
    use crate::sharing::Sharing;

    fn violation(name: &str, sabotage: bool) -> bool {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/programs")
            .join(name);
        let prog = frontend::load_file(&path, DataModel::Lp64).expect("program lowers");
        let sharing = Sharing::analyse(&prog);
        let guards = if sabotage {
            Guards::ignoring_the_program(&prog)
        } else {
            Guards::analyse(&prog, &sharing)
        };
        let facts = Facts {
            settled: settled::Settled::of(&prog),
            private: stopping::Private::of(&prog, &sharing),
            guards,
        };
        let opts = Options {
            bounds: Bounds::asserted(2),
            budget: Budget::default(),
            all: true,
            count_classes: false,
            causal_maps: false,
            fixed_reads: true,
            fold_joins: true,
            fold_guarded: true,
            symbolic_inputs: false,
        };
        let r = explore_under(&prog, &facts, &opts, None);
        assert!(r.findings.incomplete.is_none(), "{name}");
        r.findings.violation.is_some()
    }

    /// Each FALSE twin of tests/rvf_guarded.rs breaks the fold's precondition; with the
    /// analysis replaced by one that ignores the program (every global unwritten, every
    /// mutex clean) its violation is lost, so the twins do test the precondition.
    #[test]
    fn the_false_twins_need_the_precondition() {
        for name in [
            "guarded_reads_unlocked_write_false.c",
            "guarded_reads_main_write_false.c",
            "guarded_trylock_busy_false.c",
            "unwritten_after_create_false.c",
        ] {
            assert!(violation(name, false), "{name}");
            assert!(
                !violation(name, true),
                "{name}: found even with the sabotage"
            );
        }
    }
}
