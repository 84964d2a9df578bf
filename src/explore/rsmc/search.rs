//! The exploration: a depth-first search over the runs of the execution model (`state`) that
//! reaches every complete trace the memory model allows exactly once, without storing
//! visited states.
//!
//! Each allowed complete trace π has one *canonical run*: commit, at every point, the
//! smallest event (thread, then program order) that is enabled in π, that is, whose
//! commit-before predecessors in π are committed. Structural enabledness (`State::enabled`)
//! is decided by the state; a load enabled structurally is enabled in π exactly when the
//! store it reads in π is committed already. The search follows canonical runs: at each
//! state it takes the smallest enabled access not *postponed*, and
//! - a store: commits it at every coherence position the model allows; then each postponed
//!   load of its location either reads from it (it becomes *forced*: enabled in π) or stays
//!   postponed;
//! - a forced load: commits it reading its store, if the model allows;
//! - another load: commits it reading each committed store the model allows, or postpones
//!   it (it reads in π a store not committed yet), when some thread may still store to its
//!   location.
//!
//! A run that ends with a postponed load never satisfied, or whose forced load the model
//! refuses, is *blocked*.
//!
//! Why this is sound: the canonical run of an allowed π passes through states whose traces
//! are commit-before prefixes of π, which the model allows (the model is monotonic for the
//! commit-before orders used, Theorem 1 of Abdulla et al., CAV 2016), so every consistency
//! check on its way succeeds, and every choice it makes is offered. Why every trace is
//! reached once: two runs of the search part at a first choice, and every choice fixes a
//! different read-from or coherence order (reading a committed store, or a store committed
//! later; a load forced to the new store, or to a later one; different coherence positions
//! among the same stores), so their complete traces differ.

use std::time::Instant;

use super::model::{consistent, MemoryModel, TooBig};
use super::program::{Instr, Program};
use super::state::{Cb, EventId, Src, State, Stuck};
use crate::explore::findings::Budget;

/// How to explore.
#[derive(Clone, Debug)]
pub struct Options {
    pub model: MemoryModel,
    /// Events a thread may fetch at most (the loop bound of the input).
    pub max_events: usize,
    pub budget: Budget,
}

/// What the search counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Complete allowed traces reached (each once).
    pub traces: u64,
    /// Runs that ended without a complete trace.
    pub blocked: u64,
    /// Accesses committed.
    pub commits: u64,
    pub time: std::time::Duration,
}

/// Why the search stopped before the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// The callback asked to stop (e.g. a violation was found).
    Asked,
    /// A run went outside what the explorer handles.
    Stuck(Stuck),
    /// More than the bit sets hold: 128 events in one trace, or 63 loads waiting for one
    /// store.
    TooBig,
    /// The budget ran out (runs, or the deadline when `true`).
    Budget { deadline: bool },
}

/// For every thread and instruction: the locations of the stores reachable from there (a
/// mask), and whether a store with a computed address is.
struct StoreReach {
    reach: Vec<Vec<(u128, bool)>>,
}

impl StoreReach {
    fn new(prog: &Program) -> StoreReach {
        let reach = prog
            .threads
            .iter()
            .map(|th| {
                let n = th.instrs.len();
                let mut r = vec![(0u128, false); n + 1];
                loop {
                    let mut changed = false;
                    for pc in (0..n).rev() {
                        let mut v = r[pc + 1];
                        if let Instr::Branch { target, .. } = &th.instrs[pc] {
                            let t = r[(*target).min(n)];
                            v = (v.0 | t.0, v.1 | t.1);
                        }
                        if let Instr::Store { addr, .. } = &th.instrs[pc] {
                            match addr {
                                super::program::Expr::Const(a) => match prog.location_at(*a) {
                                    Some(l) if l < 128 => v.0 |= 1 << l,
                                    _ => v.1 = true,
                                },
                                _ => v.1 = true,
                            }
                        }
                        if v != r[pc] {
                            r[pc] = v;
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                r
            })
            .collect();
        StoreReach { reach }
    }

    /// Whether some thread may still commit a store to `loc` from `s`.
    fn future_store(&self, s: &State, loc: usize) -> bool {
        s.threads.iter().enumerate().any(|(t, th)| {
            let fetched = th.events.iter().enumerate().any(|(i, ev)| {
                let e = EventId {
                    thread: t as u32,
                    index: i as u32,
                };
                !ev.committed
                    && matches!(s.instr(e), Instr::Store { .. })
                    && ev.loc.is_none_or(|l| l == loc)
            });
            if fetched {
                return true;
            }
            if th.stopped {
                return false;
            }
            let pc = match th.next_pc {
                Some(pc) => pc,
                None => th.events.last().map_or(0, |e| e.pc),
            };
            let (mask, any) = self.reach[t][pc.min(self.reach[t].len() - 1)];
            any || (loc < 128 && mask >> loc & 1 == 1)
        })
    }
}

struct Search<'a, 'p> {
    opts: &'a Options,
    reach: StoreReach,
    stats: Stats,
    halt: Option<Halt>,
    on_trace: &'a mut dyn FnMut(&State<'p>) -> bool,
    calls: u64,
}

/// Explores every allowed complete trace of `prog` once; `on_trace` sees each complete
/// state and returns true to stop.
pub fn explore<'p>(
    prog: &'p Program,
    opts: &Options,
    on_trace: &mut dyn FnMut(&State<'p>) -> bool,
) -> (Stats, Option<Halt>) {
    let start = Instant::now();
    let cb = match opts.model {
        MemoryModel::Power => Cb::Power,
        MemoryModel::Sc => Cb::ProgramOrder,
    };
    let mut search = Search {
        opts,
        reach: StoreReach::new(prog),
        stats: Stats::default(),
        halt: None,
        on_trace,
        calls: 0,
    };
    search.run(
        State::new(prog, cb, opts.max_events),
        Vec::new(),
        Vec::new(),
    );
    search.stats.time = start.elapsed();
    (search.stats, search.halt)
}

impl<'p> Search<'_, 'p> {
    fn allowed(&mut self, s: &State) -> bool {
        match consistent(s, self.opts.model) {
            Ok(b) => b,
            Err(TooBig) => {
                self.halt.get_or_insert(Halt::TooBig);
                false
            }
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.halt.is_some() {
            return true;
        }
        self.calls += 1;
        let runs = self.stats.traces + self.stats.blocked;
        if self.opts.budget.max_executions.is_some_and(|n| runs >= n) {
            self.halt = Some(Halt::Budget { deadline: false });
        } else if self.calls.is_multiple_of(256)
            && self
                .opts
                .budget
                .deadline
                .is_some_and(|d| Instant::now() >= d)
        {
            self.halt = Some(Halt::Budget { deadline: true });
        }
        self.halt.is_some()
    }

    /// Explores from `s` with the loads `postponed` (reading a store not committed yet) and
    /// `forced` (reading the given committed store).
    fn run(&mut self, mut s: State<'p>, postponed: Vec<EventId>, forced: Vec<(EventId, EventId)>) {
        if self.out_of_budget() {
            return;
        }
        if let Err(stuck) = s.flb() {
            self.halt.get_or_insert(Halt::Stuck(stuck));
            return;
        }
        let Some(e) = s.enabled_iter().find(|e| !postponed.contains(e)) else {
            if postponed.is_empty() && s.complete() {
                self.stats.traces += 1;
                if (self.on_trace)(&s) {
                    self.halt.get_or_insert(Halt::Asked);
                }
            } else {
                self.stats.blocked += 1;
            }
            return;
        };
        let loc = s.ev(e).loc.expect("enabled accesses are located");
        if matches!(s.instr(e), Instr::Load { .. }) {
            if let Some(&(_, w)) = forced.iter().find(|(l, _)| *l == e) {
                let mut s2 = s.clone();
                s2.commit_load(e, Src::Store(w));
                self.stats.commits += 1;
                if self.allowed(&s2) {
                    let rest = forced.into_iter().filter(|(l, _)| *l != e).collect();
                    self.run(s2, postponed, rest);
                } else {
                    self.stats.blocked += 1;
                }
                return;
            }
            for src in s.sources(loc) {
                let mut s2 = s.clone();
                s2.commit_load(e, src);
                self.stats.commits += 1;
                if self.allowed(&s2) {
                    self.run(s2, postponed.clone(), forced.clone());
                }
                if self.halt.is_some() {
                    return;
                }
            }
            if self.reach.future_store(&s, loc) {
                let mut p = postponed;
                p.push(e);
                self.run(s, p, forced);
            }
            return;
        }
        let waiting: Vec<EventId> = postponed
            .iter()
            .copied()
            .filter(|l| s.ev(*l).loc == Some(loc))
            .collect();
        // Whether a store to `loc` is still to come after `e`: the same at every coherence
        // position of `e`, so asked once.
        let mut more: Option<bool> = None;
        // One bit per waiting load: past 63 the shift would wrap and drop choices.
        if waiting.len() >= 64 {
            self.halt.get_or_insert(Halt::TooBig);
            return;
        }
        let all = (1u64 << waiting.len()) - 1;
        for n in 0..=s.co[loc].len() {
            let mut s2 = s.clone();
            s2.commit_store(e, n);
            self.stats.commits += 1;
            if !self.allowed(&s2) {
                continue;
            }
            let more = *more.get_or_insert_with(|| self.reach.future_store(&s2, loc));
            // A load left waiting needs a store still to come.
            let first = if more { 0 } else { all };
            for mask in first..=all {
                let chosen = |l: &EventId| {
                    waiting
                        .iter()
                        .position(|w| w == l)
                        .is_some_and(|k| mask >> k & 1 == 1)
                };
                let p: Vec<EventId> = postponed.iter().copied().filter(|l| !chosen(l)).collect();
                let mut f = forced.clone();
                f.extend(waiting.iter().filter(|l| chosen(l)).map(|l| (*l, e)));
                self.run(s2.clone(), p, f);
                if self.halt.is_some() {
                    return;
                }
            }
        }
    }
}
