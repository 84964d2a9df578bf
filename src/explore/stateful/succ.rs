//! The full successor relation of a machine state, without any reduction: every runnable
//! thread's next step (`Machine::runnable`: the thread of an open atomic section alone, else
//! every enabled thread), once for each combination of the step's nondet values. Both the
//! search and the certificate check expand states with it.
//!
//! One transition is one [`Machine::step`]: one visible instruction of the thread followed by
//! the instructions after it that touch only the thread's own frame (`Machine::invisible`).
//! Merging those into the visible step before them is the one reduction, and it is exact for
//! reachability: an invisible instruction reads and writes nothing another thread can read or
//! write, nor any synchronisation object, so it commutes with every step of every other thread
//! and any interleaving equals one where it runs right after its thread's previous step; it
//! cannot violate (an assertion is not invisible), and a thread that would run invisible
//! instructions forever yields after a fixed number of them, leaving a state the search then
//! sees again.
//!
//! The local steps that follow a step of a thread are appended to it (up to [`LOCAL_RUN`]):
//! a step that logs no access another thread can observe, takes no nondet value, ends no run
//! and leaves the thread outside an atomic section (calls and returns of functions whose
//! frames are private, `ample::local` without nondet values). Such a step reads and writes
//! only its thread's own state, so it commutes with every step of every other thread, is
//! enabled right after the step before it and stays enabled (it takes no lock and waits for
//! nothing), and cannot violate: a run that interleaves other threads' steps before it is
//! the run with it moved right after its thread's previous step (Lipton's reduction, with
//! the step a both-mover), and a violation reached between the two is reached after them as
//! well, since the appended step changes nothing the violating step reads. Each appended
//! step is tested by the code that computes the transition, so the certificate check, which
//! computes transitions the same way, checks the condition anew.
//!
//! An atomic section is also one transition (up to [`ATOMIC_RUN`] interpreter steps): in its
//! intermediate states only the section's thread is runnable (`Machine::runnable`), so they
//! have no interleaving to explore; a violation or a run end inside the section ends the
//! transition with it, and each nondet value inside it is still enumerated. A section longer
//! than the limit goes on from a stored state, like any other.

use crate::explore::interp::Machine;
use crate::explore::sched::{run_bounded, Step, Unenumerable};

/// One transition of thread `t` on `m` (its nondet values `forced` first, then 0): one step
/// (an atomic section to its end, up to [`ATOMIC_RUN`]), then the local steps after it (see
/// the module doc), each run on a copy first and kept only when it is local.
pub fn run_transition(
    m: &mut Machine,
    t: usize,
    forced: &[u64],
    max_domain: u64,
) -> Result<Step, Unenumerable> {
    let step = run_bounded(m, t, forced, max_domain, ATOMIC_RUN)?;
    let mut n = 0;
    while n < LOCAL_RUN && step.end.is_none() && !m.in_atomic(t) && m.runnable().contains(&t) {
        let mut probe = m.clone();
        let Ok(next) = run_bounded(&mut probe, t, &[], max_domain, ATOMIC_RUN) else {
            break;
        };
        let local = next.end.is_none()
            && next.accesses.is_empty()
            && next.choices.is_empty()
            && next.created.is_empty()
            && next.acquire.is_none()
            && next.release.is_none()
            && !probe.in_atomic(t);
        if !local {
            break;
        }
        *m = probe;
        n += 1;
    }
    Ok(step)
}

/// Interpreter steps an atomic section runs in one transition at most; a longer one goes on
/// from a state of its own.
pub const ATOMIC_RUN: u32 = 1000;

/// Local steps appended to a transition at most; a longer run of them (a thread looping on
/// its own frame) goes on from a stored state.
pub const LOCAL_RUN: u32 = 1000;

/// One transition: the thread, its nondet values, the step (its run end, if it ended the
/// run) and the state after it.
pub struct Succ<'p> {
    pub thread: usize,
    pub choices: Vec<u64>,
    pub step: Step,
    pub next: Machine<'p>,
}

/// Every transition of `m`, each nondet value of at most `max_domain` values enumerated; a
/// nondet input with more values ends the enumeration of its thread's step and is returned
/// beside the transitions found.
pub fn successors<'p>(m: &Machine<'p>, max_domain: u64) -> (Vec<Succ<'p>>, Option<Unenumerable>) {
    let mut out = Vec::new();
    let mut wide = None;
    for t in m.runnable() {
        let (succs, w) = thread_successors(m, t, max_domain);
        out.extend(succs);
        if let Some(u) = w {
            wide.get_or_insert(u);
        }
    }
    (out, wide)
}

/// The transitions of thread `t` of `m` alone (one per combination of its step's nondet
/// values), as [`successors`] enumerates them for each runnable thread.
pub fn thread_successors<'p>(
    m: &Machine<'p>,
    t: usize,
    max_domain: u64,
) -> (Vec<Succ<'p>>, Option<Unenumerable>) {
    let mut out = Vec::new();
    let mut forced: Vec<u64> = Vec::new();
    loop {
        let mut next = m.clone();
        let step = match run_transition(&mut next, t, &forced, max_domain) {
            Ok(s) => s,
            Err(u) => return (out, Some(u)),
        };
        let choices: Vec<u64> = step.choices.iter().map(|c| c.value).collect();
        // The next combination: the last value that can grow grows, those after it
        // start again at 0 (run_single takes missing values as 0).
        let bump = step.choices.iter().rposition(|c| c.value + 1 < c.domain);
        next.accesses.clear();
        next.last_shared.clear();
        next.read_values.clear();
        out.push(Succ {
            thread: t,
            choices: choices.clone(),
            step,
            next,
        });
        match bump {
            Some(i) => {
                forced = choices[..i].to_vec();
                forced.push(choices[i] + 1);
            }
            None => return (out, None),
        }
    }
}
