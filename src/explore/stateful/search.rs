//! The breadth-first search over canonical states: every state is expanded by the full
//! successor relation (`succ`), or, with the partial-order reduction on, by one thread's
//! transitions alone where they form an ample set (`ample`: local steps, every successor
//! new), and a successor whose canonical form was seen before ends its branch. A violation ends the search with the run that reached it (rebuilt from the store's
//! edges, so breadth-first gives a shortest one); a trap, a nondet input too wide to
//! enumerate or the budget running out marks the search incomplete.

use std::collections::VecDeque;
use std::time::Instant;

use super::ample::{self, Fault};
use super::store::{Edge, Store};
use super::succ::{successors, thread_successors, Succ};
use super::Options;
use crate::explore::findings::unenumerable;
use crate::explore::interp::{CanonInfo, Canonical};
use crate::explore::interp::{Machine, RunEnd};
use crate::explore::sched::{Domains, Step, Unenumerable};
use crate::ir::Program;
use crate::trace::Trace;
use crate::verdict::UnknownReason;

/// What the search found.
pub struct Searched<'p> {
    pub store: Store,
    /// A violating run's trace.
    pub violation: Option<Trace>,
    /// Why the states found are not all the reachable ones (or why the run is not exact).
    pub incomplete: Option<UnknownReason>,
    /// Transitions computed.
    pub steps: u64,
    /// The initial state (for the certificate check).
    pub init: Option<Machine<'p>>,
}

/// States between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// Searches the states reachable from `prog`'s initial state.
pub fn search<'p>(prog: &'p Program, opts: &Options) -> Searched<'p> {
    let mut out = Searched {
        store: Store::default(),
        violation: None,
        incomplete: None,
        steps: 0,
        init: None,
    };
    let live = CanonInfo::of(prog);
    let init = match super::initial(prog) {
        Ok(m) => m,
        Err(e) => {
            out.incomplete = Some(start_failure(prog, e));
            return out;
        }
    };
    let Some(form) = init.canonical(&live) else {
        out.incomplete = Some(UnknownReason::Internal(
            "the initial state has no canonical form".into(),
        ));
        return out;
    };
    out.store.insert(form, None);
    out.init = Some(init.clone());
    let mut queue: VecDeque<(u32, Machine<'p>)> = VecDeque::from([(0, init)]);
    let mut expanded = 0u64;
    while let Some((id, m)) = queue.pop_front() {
        expanded += 1;
        if expanded.is_multiple_of(CLOCK_EVERY) {
            if opts.deadline.is_some_and(|d| Instant::now() >= d) {
                out.incomplete.get_or_insert(UnknownReason::Timeout);
                return out;
            }
            let resident = crate::resources::resident_bytes().unwrap_or(0);
            if opts.max_resident.is_some_and(|n| resident > n) {
                out.incomplete.get_or_insert(UnknownReason::OutOfMemory);
                return out;
            }
        }
        let (succs, wide, chosen) = expand(&m, id, &out.store, &live, opts);
        if let Some(t) = chosen {
            out.store.set_ample(id, t as u32);
        }
        if let Some(u) = wide {
            out.incomplete.get_or_insert_with(|| unenumerable(&m, u.0));
        }
        for (k, (s, form)) in succs.into_iter().enumerate() {
            out.steps += 1;
            if opts.drop_successor == Some((id, k)) {
                continue;
            }
            match &s.step.end {
                Some(RunEnd::Violation { thread, loc }) => {
                    let edge = Edge {
                        from: id,
                        thread: s.thread as u32,
                        choices: s.choices.into(),
                    };
                    match rebuild(prog, &out.store, edge, *thread, *loc, opts) {
                        Ok(trace) => out.violation = Some(trace),
                        Err(why) => out.incomplete = Some(UnknownReason::Internal(why)),
                    }
                    return out;
                }
                Some(RunEnd::Trap { what, at }) => {
                    let what = what.strip_prefix("unsupported: ").unwrap_or(what);
                    let at = at.or(Some(s.step.loc)).map(|l| prog.loc_str(l));
                    out.incomplete
                        .get_or_insert_with(|| UnknownReason::Unsupported {
                            what: what.to_string(),
                            at,
                        });
                }
                Some(RunEnd::Bound { .. }) => {
                    out.incomplete.get_or_insert(UnknownReason::Internal(
                        "a loop bound in an unbounded machine".into(),
                    ));
                }
                // The run ended: the state after the step has no successor.
                Some(RunEnd::Finished | RunEnd::Deadlock) => {}
                None => {
                    let Some(form) = form.or_else(|| s.next.canonical(&live)) else {
                        out.incomplete.get_or_insert(UnknownReason::Internal(
                            "a state without a canonical form".into(),
                        ));
                        continue;
                    };
                    let edge = Edge {
                        from: id,
                        thread: s.thread as u32,
                        choices: s.choices.into(),
                    };
                    let (nid, new) = out.store.insert(form, Some(edge));
                    if new {
                        if opts.max_states.is_some_and(|n| out.store.len() as u64 > n) {
                            out.incomplete.get_or_insert(UnknownReason::StateBudget {
                                states: out.store.len() as u64,
                            });
                            return out;
                        }
                        queue.push_back((nid, s.next));
                    }
                }
            }
        }
    }
    out
}

/// What [`expand`] gives: the transitions (with the canonical forms computed on the way), the
/// wide input met, and the ample thread.
type Expansion<'p> = (
    Vec<(Succ<'p>, Option<Canonical>)>,
    Option<Unenumerable>,
    Option<usize>,
);

/// The transitions the search takes from `m`, with the canonical forms it already computed,
/// the wide input met, and the thread `m` was reduced to (`None`: every runnable thread's
/// transitions). With the reduction on, the first runnable thread (of at least two) whose
/// transitions are all local (`ample::qualifies`) and lead only to states not stored yet or
/// stored one level deeper (the cycle proviso) is taken alone.
fn expand<'p>(
    m: &Machine<'p>,
    id: u32,
    store: &Store,
    live: &CanonInfo,
    opts: &Options,
) -> Expansion<'p> {
    let runnable = m.runnable();
    if !opts.por || runnable.len() < 2 {
        let (succs, wide) = successors(m, opts.max_domain);
        return (succs.into_iter().map(|s| (s, None)).collect(), wide, None);
    }
    let mut done: Vec<(Vec<Succ<'p>>, Option<Unenumerable>)> = Vec::with_capacity(runnable.len());
    for &t in &runnable {
        let (succs, wide) = thread_successors(m, t, opts.max_domain);
        let fit = match opts.por_fault {
            Some(Fault::AnyThread) => wide.is_none() && !succs.is_empty(),
            _ => wide.is_none() && ample::qualifies(m, t, &succs),
        };
        if fit {
            let forms: Vec<Option<Canonical>> =
                succs.iter().map(|s| s.next.canonical(live)).collect();
            // The cycle proviso: each successor is new, or was first stored one level deeper
            // than `m` (breadth-first, while `m`'s level is expanded), so that the edges out
            // of reduced states always go one level down and close no cycle.
            let level = store.level(id);
            let fresh = forms.iter().all(|f| {
                f.as_ref()
                    .is_some_and(|f| store.find(f).is_none_or(|n| store.level(n) > level))
            });
            if fresh || opts.por_fault == Some(Fault::NoProviso) {
                return (succs.into_iter().zip(forms).collect(), None, Some(t));
            }
        }
        done.push((succs, wide));
    }
    let mut wide = None;
    let mut all = Vec::new();
    for (succs, w) in done {
        all.extend(succs.into_iter().map(|s| (s, None)));
        if let Some(u) = w {
            wide.get_or_insert(u);
        }
    }
    (all, wide, None)
}

/// The reason of a program that cannot start.
pub fn start_failure(prog: &Program, e: RunEnd) -> UnknownReason {
    match e {
        RunEnd::Trap { what, at } => UnknownReason::Unsupported {
            what: what
                .strip_prefix("unsupported: ")
                .unwrap_or(&what)
                .to_string(),
            at: at.map(|l| prog.loc_str(l)),
        },
        e => UnknownReason::Internal(format!("the program cannot start: {e:?}")),
    }
}

/// The trace of the run that reaches a violation: the steps to the state `last.from`, then
/// `last`, run again from the initial state with their nondet values (see [`trace_of_path`]).
fn rebuild(
    prog: &Program,
    store: &Store,
    last: Edge,
    thread: usize,
    loc: crate::ir::Loc,
    opts: &Options,
) -> Result<Trace, String> {
    let mut path = store.path(last.from);
    path.push(last);
    let step: Transition = |m, t, forced, d| super::succ::run_transition(m, t, forced, d.max);
    trace_of_path(prog, &path, thread, loc, opts.max_domain.into(), step)
}

/// How a search takes one transition of a thread with its nondet values.
pub type Transition = fn(&mut Machine, usize, &[u64], Domains) -> Result<Step, Unenumerable>;

/// The trace of the run made of the transitions `path` (each a thread and its nondet values,
/// taken by `step`), run again from the initial state: each must run as it did in the search
/// (no step ends the run before the last, which violates at `loc` in `thread`).
pub fn trace_of_path(
    prog: &Program,
    path: &[Edge],
    thread: usize,
    loc: crate::ir::Loc,
    domains: Domains,
    step: Transition,
) -> Result<Trace, String> {
    let mut m = super::initial(prog).map_err(|e| format!("replay cannot start: {e:?}"))?;
    let mut steps: Vec<Step> = Vec::with_capacity(path.len());
    for (k, e) in path.iter().enumerate() {
        let s = step(&mut m, e.thread as usize, &e.choices, domains)
            .map_err(|_| "replay met a wide input".to_string())?;
        let last = k + 1 == path.len();
        match (&s.end, last) {
            (None, false) => {}
            (Some(RunEnd::Violation { thread: t, loc: l }), true) if *t == thread && *l == loc => {}
            (end, _) => {
                return Err(format!(
                    "the violating run did not replay (step {k} ended with {end:?})"
                ))
            }
        }
        steps.push(s);
    }
    let refs: Vec<&Step> = steps.iter().collect();
    Ok(crate::explore::trace::build(&m, &refs, thread, loc))
}
