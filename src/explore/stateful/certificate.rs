//! The check of a stateful proof before TRUE is printed: the stored state set `S` must be an
//! inductive invariant that excludes every violation. A pass independent of the search's
//! bookkeeping (its queue, its edges, its test hooks) walks `S` again from a fresh initial
//! machine and checks that
//! - the initial state is in `S`;
//! - every transition of every state it walks (the full successor relation of `succ`: every
//!   runnable thread, every nondet value, no reduction) neither violates nor traps, and leads
//!   to a state in `S` or ends the run (every thread finished, or a deadlock);
//! - it walks every state of `S` (so `S` is exactly the set reachable from the initial state,
//!   and every state of `S` was checked closed).
//!
//! Then no run of the program reaches a violation, at any depth: by induction on the run's
//! length, every state of it is in `S`, and no transition out of `S` violates. The check
//! trusts what the search trusts too: the interpreter's semantics, the successor relation,
//! and the canonical form's exactness (equal forms behave alike, `interp::canon`, whose
//! dead-variable, garbage and thread-symmetry arguments it relies on like the search). The
//! one reduction of the successor relation itself, merging thread-local instructions and
//! atomic sections into one transition (`succ`), is exact, so the set is closed under the
//! full relation.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::store::Store;
use super::succ::successors;
use super::Options;
use crate::explore::interp::CanonInfo;
use crate::explore::interp::RunEnd;
use crate::ir::Program;

/// A certificate that passed.
#[derive(Clone, Debug)]
pub struct Checked {
    pub states: u64,
    pub transitions: u64,
    /// CPU time of the check.
    pub time: Duration,
}

/// Why a certificate did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The state set is not an inductive invariant free of violations.
    Rejected(String),
    /// The deadline passed before the check finished.
    Timeout,
}

/// Checks that `store` holds an inductive invariant of `prog` free of violations (see the
/// module doc).
pub fn check(prog: &Program, store: &Store, opts: &Options) -> Result<Checked, CheckError> {
    let cpu = super::cpu_time();
    let live = CanonInfo::of(prog);
    let reject = |why: String| Err(CheckError::Rejected(why));
    let init = match super::initial(prog) {
        Ok(m) => m,
        Err(e) => return reject(format!("the program does not start: {e:?}")),
    };
    let Some(form) = init.canonical(&live) else {
        return reject("the initial state has no canonical form".into());
    };
    let Some(first) = store.find(&form) else {
        return reject("the initial state is not in the set".into());
    };
    let mut seen = vec![false; store.ids()];
    let mut mark = |id: u32| -> Result<bool, CheckError> {
        match seen.get_mut(id as usize) {
            Some(s) => Ok(!std::mem::replace(s, true)),
            None => Err(CheckError::Rejected(format!("state {id} out of range"))),
        }
    };
    mark(first)?;
    let mut walked = 1u64;
    let mut transitions = 0u64;
    let mut queue = VecDeque::from([init]);
    let mut expanded = 0u64;
    while let Some(m) = queue.pop_front() {
        expanded += 1;
        if expanded.is_multiple_of(256) && opts.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(CheckError::Timeout);
        }
        let (succs, wide) = successors(&m, opts.max_domain);
        if let Some(u) = wide {
            return reject(format!(
                "a nondet input at {} is too wide to enumerate",
                prog.loc_str(u.0)
            ));
        }
        for s in succs {
            transitions += 1;
            match &s.step.end {
                None => {}
                Some(RunEnd::Finished | RunEnd::Deadlock) => continue,
                Some(e) => {
                    return reject(format!(
                        "a step of thread {} at {} ends with {e:?}",
                        s.thread,
                        prog.loc_str(s.step.loc)
                    ))
                }
            }
            let Some(form) = s.next.canonical(&live) else {
                return reject("a state without a canonical form".into());
            };
            let Some(id) = store.find(&form) else {
                return reject(format!(
                    "not closed: a step of thread {} at {} leaves the set",
                    s.thread,
                    prog.loc_str(s.step.loc)
                ));
            };
            if mark(id)? {
                walked += 1;
                queue.push_back(s.next);
            }
        }
    }
    if walked != store.len() as u64 {
        return reject(format!(
            "{} of the {} states are not reachable",
            store.len() as u64 - walked,
            store.len()
        ));
    }
    Ok(Checked {
        states: walked,
        transitions,
        time: super::cpu_time().saturating_sub(cpu),
    })
}
