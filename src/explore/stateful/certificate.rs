//! The check of a stateful proof before TRUE is printed: the stored state set `S` must be an
//! inductive invariant that excludes every violation. A pass independent of the search's
//! bookkeeping (its queue, its edges, its test hooks) walks `S` again from a fresh initial
//! machine and checks that
//! - the initial state is in `S`;
//! - every transition of every fully expanded state it walks (the full successor relation of
//!   `succ`: every runnable thread, every nondet value) neither violates nor traps, and leads
//!   to a state in `S` or ends the run (every thread finished, or a deadlock);
//! - every state the search marked reduced has a thread whose transitions it computes itself
//!   and finds local (`ample::qualifies`: independent of every other thread, never ending
//!   the run), all leading to states in `S`; it walks only those;
//! - the edges out of reduced states form no cycle (the cycle proviso, checked on the graph,
//!   not trusted from the search's order);
//! - it walks every state of `S` (so `S` is exactly the set reachable from the initial state
//!   along the checked edges, and every state of `S` was checked).
//!
//! Then no run of the program reaches a violation, at any depth: without reduced states, by
//! induction on the run's length, every state of it is in `S`, and no transition out of `S`
//! violates; with them, by the ample-set argument in `ample`, which needs exactly these
//! facts. The check
//! trusts what the search trusts too: the interpreter's semantics, the successor relation,
//! and the canonical form's exactness (equal forms behave alike, `interp::canon`, whose
//! dead-variable, garbage and thread-symmetry arguments it relies on like the search). The
//! one reduction of the successor relation itself, merging thread-local instructions and
//! atomic sections into one transition (`succ`), is exact.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::ample;
use super::store::Store;
use super::succ::{successors, thread_successors, Succ};
use super::Options;
use crate::explore::interp::CanonInfo;
use crate::explore::interp::RunEnd;
use crate::ir::Program;

/// A certificate that passed.
#[derive(Clone, Debug)]
pub struct Checked {
    pub states: u64,
    pub transitions: u64,
    /// States checked as reduced to one thread.
    pub reduced: u64,
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
    let cpu = crate::budget::cpu_time();
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
    let mut queue = VecDeque::from([(first, init)]);
    let mut expanded = 0u64;
    let mut reduced = 0u64;
    // The edges out of reduced states (the graph `H` of `ample`), by state number.
    let mut h: Vec<(u32, u32)> = Vec::new();
    while let Some((id, m)) = queue.pop_front() {
        expanded += 1;
        if expanded.is_multiple_of(256) && opts.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(CheckError::Timeout);
        }
        let (succs, is_reduced) = match store.ample(id) {
            None => {
                let (succs, wide) = successors(&m, opts.max_domain);
                if let Some(u) = wide {
                    return reject(format!(
                        "a nondet input at {} is too wide to enumerate",
                        prog.loc_str(u.0)
                    ));
                }
                (succs, false)
            }
            Some(hint) => match ample_of(&m, hint as usize, store, &live, opts) {
                Some(succs) => {
                    reduced += 1;
                    (succs, true)
                }
                None => {
                    return reject(format!(
                        "state {id} is marked reduced, but no thread's transitions there are \
                         local and stay in the set"
                    ))
                }
            },
        };
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
            let Some(next) = store.find(&form) else {
                return reject(format!(
                    "not closed: a step of thread {} at {} leaves the set",
                    s.thread,
                    prog.loc_str(s.step.loc)
                ));
            };
            if is_reduced {
                h.push((id, next));
            }
            if mark(next)? {
                walked += 1;
                queue.push_back((next, s.next));
            }
        }
    }
    if let Some(at) = cycle(store.ids(), &h) {
        return reject(format!(
            "the reduced states' edges form a cycle (through state {at}): the cycle proviso \
             does not hold"
        ));
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
        reduced,
        time: crate::budget::cpu_time().saturating_sub(cpu),
    })
}

/// The transitions of a thread of `m` that form an ample set (`ample::qualifies`, derived
/// here from the transitions computed anew) and all lead to stored states: the search's
/// thread `hint` first, then the other runnable threads (a machine of the same form may
/// number its threads differently, see `ample`); `None` when no thread does.
fn ample_of<'p>(
    m: &crate::explore::Machine<'p>,
    hint: usize,
    store: &Store,
    live: &CanonInfo,
    opts: &Options,
) -> Option<Vec<Succ<'p>>> {
    let runnable = m.runnable();
    let order = runnable
        .iter()
        .copied()
        .filter(|&t| t == hint)
        .chain(runnable.iter().copied().filter(|&t| t != hint));
    for t in order {
        let (succs, wide) = thread_successors(m, t, opts.max_domain);
        if wide.is_some() || !ample::qualifies(m, t, &succs) {
            continue;
        }
        let inside = succs.iter().all(|s| {
            s.next
                .canonical(live)
                .is_some_and(|f| store.find(&f).is_some())
        });
        if inside {
            return Some(succs);
        }
    }
    None
}

/// A state on a cycle of the graph with `nodes` nodes and these edges, if it has one
/// (Kahn's algorithm: the nodes that never lose all their incoming edges lie on or behind a
/// cycle).
fn cycle(nodes: usize, edges: &[(u32, u32)]) -> Option<u32> {
    let mut indeg = vec![0u32; nodes];
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); nodes];
    for &(a, b) in edges {
        indeg[b as usize] += 1;
        out[a as usize].push(b);
    }
    let mut ready: Vec<u32> = (0..nodes as u32)
        .filter(|&n| indeg[n as usize] == 0)
        .collect();
    let mut removed = 0usize;
    while let Some(n) = ready.pop() {
        removed += 1;
        for &b in &out[n as usize] {
            indeg[b as usize] -= 1;
            if indeg[b as usize] == 0 {
                ready.push(b);
            }
        }
    }
    if removed == nodes {
        None
    } else {
        (0..nodes as u32).find(|&n| indeg[n as usize] > 0)
    }
}
