//! A direct search for a schedule of one fixed execution, and the validator every returned
//! schedule passes.
//!
//! The exact check fixes the executed events, the active create/join edges and the read-from
//! map. Finding a total order is then the reads-from consistency problem: NP-hard in general
//! but easy in the cases that matter, whereas a SAT solver over bit-vector clocks struggles
//! even on easy ones. The search places clock groups (an atomic block, or one event or point)
//! one at a time:
//! * a group with no executed write whose reads see their writes right now is placed at once
//!   (moving such a group earlier in any valid schedule keeps it valid, so this loses nothing);
//! * a group with writes is a branching choice, pruned when it would overwrite a write that an
//!   unplaced read still has to see (that read could never see it again);
//! * visited states (placed groups, last write per location) are remembered.
//!
//! Within its node budget the search is complete, but only its positive answers are used, and
//! only after [`validate`] has checked them against the requirements directly.

use crate::equation::{Equation, Event, Location};
use cranelift_entity::SecondaryMap;
use hashbrown::HashSet;
use std::collections::BTreeSet;

/// One execution's scheduling problem over clock groups `0..groups`.
pub(crate) struct Problem<'a> {
    pub(crate) eq: &'a Equation,
    /// Active edges between distinct groups.
    pub(crate) succ: Vec<Vec<u32>>,
    /// Executed events of each group, in program order.
    pub(crate) events: Vec<Vec<Event>>,
    /// The write each executed read must see (`None`: unconstrained).
    pub(crate) rf: SecondaryMap<Event, Option<Event>>,
}

/// The outcome of [`search`].
pub(crate) enum Search {
    Found(Vec<u32>),
    NoSchedule,
    OutOfBudget,
}

struct State<'p, 'a> {
    p: &'p Problem<'a>,
    placed: Vec<bool>,
    missing_preds: Vec<u32>,
    last: SecondaryMap<Location, Option<Event>>,
    /// Unplaced executed reads that must see each write.
    waiting: SecondaryMap<Event, u32>,
    seq: Vec<u32>,
    has_write: Vec<bool>,
    /// Unplaced groups whose predecessors are all placed.
    ready: BTreeSet<u32>,
    depth: usize,
    visited: HashSet<(Vec<u64>, Vec<Option<Event>>)>,
    work: u64,
    budget: u64,
}

/// Branching depth at which the search gives up (each level is one stack frame).
const MAX_DEPTH: usize = 100_000;

/// Stack for the search thread: enough for [`MAX_DEPTH`] frames.
const SEARCH_STACK: usize = 256 << 20;

/// Searches for a schedule, giving up after `budget` placement tests. Runs on its own thread
/// with a large stack, since the depth grows with the number of writes.
pub(crate) fn search(p: &Problem, budget: u64) -> Search {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("schedule-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, || search_here(p, budget));
        match worker {
            Ok(handle) => match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            // No thread to be had: the caller falls back to SAT.
            Err(_) => Search::OutOfBudget,
        }
    })
}

fn search_here(p: &Problem, budget: u64) -> Search {
    let n = p.events.len();
    let mut missing_preds = vec![0u32; n];
    for succ in &p.succ {
        for &s in succ {
            missing_preds[s as usize] += 1;
        }
    }
    let mut waiting: SecondaryMap<Event, u32> = SecondaryMap::new();
    for evs in &p.events {
        for &e in evs {
            if let Some(w) = p.rf[e] {
                waiting[w] += 1;
            }
        }
    }
    let has_write = p
        .events
        .iter()
        .map(|evs| evs.iter().any(|&e| p.eq.events[e].is_write()))
        .collect();
    let mut st = State {
        p,
        placed: vec![false; n],
        missing_preds,
        last: SecondaryMap::new(),
        waiting,
        seq: Vec::with_capacity(n),
        has_write,
        ready: BTreeSet::new(),
        depth: 0,
        visited: HashSet::new(),
        work: 0,
        budget,
    };
    for g in 0..n {
        if st.missing_preds[g] == 0 {
            st.ready.insert(g as u32);
        }
    }
    match st.dfs() {
        Some(true) => Search::Found(st.seq),
        Some(false) => Search::NoSchedule,
        None => Search::OutOfBudget,
    }
}

impl State<'_, '_> {
    /// Whether group `g` can be placed now: its reads see their writes and it strands no
    /// waiting read. Counts as one unit of work.
    fn can_place(&mut self, g: usize) -> bool {
        self.work += 1;
        let eq = self.p.eq;
        let mut local: Vec<(Location, Option<Event>)> = Vec::new();
        let current = |local: &Vec<(Location, Option<Event>)>, loc: Location| {
            local
                .iter()
                .rev()
                .find(|(l, _)| *l == loc)
                .map_or(self.last[loc], |&(_, w)| w)
        };
        for &e in &self.p.events[g] {
            let d = &eq.events[e];
            let cur = current(&local, d.location);
            if d.is_write() {
                if let Some(c) = cur {
                    // Readers of `c` inside this group before `e` are already satisfied.
                    let inside = self.p.events[g]
                        .iter()
                        .take_while(|&&x| x != e)
                        .filter(|&&x| self.p.rf[x] == Some(c))
                        .count() as u32;
                    if self.waiting[c] > inside {
                        return false;
                    }
                }
                local.push((d.location, Some(e)));
            } else if let Some(w) = self.p.rf[e] {
                if cur != Some(w) {
                    return false;
                }
            }
        }
        true
    }

    fn place(&mut self, g: usize) {
        self.placed[g] = true;
        self.ready.remove(&(g as u32));
        self.seq.push(g as u32);
        for &s in &self.p.succ[g] {
            self.missing_preds[s as usize] -= 1;
            if self.missing_preds[s as usize] == 0 {
                self.ready.insert(s);
            }
        }
        for &e in &self.p.events[g] {
            let d = &self.p.eq.events[e];
            if d.is_write() {
                self.last[d.location] = Some(e);
            } else if let Some(w) = self.p.rf[e] {
                self.waiting[w] -= 1;
            }
        }
    }

    /// Undoes the last placements down to `len`, restoring the last writes to `saved`.
    fn unplace_to(&mut self, len: usize, saved: &[(Location, Option<Event>)]) {
        while self.seq.len() > len {
            let g = self.seq.pop().unwrap_or_default() as usize;
            self.placed[g] = false;
            for &s in &self.p.succ[g] {
                if self.missing_preds[s as usize] == 0 {
                    self.ready.remove(&s);
                }
                self.missing_preds[s as usize] += 1;
            }
            self.ready.insert(g as u32);
            for &e in &self.p.events[g] {
                if let Some(w) = self.p.rf[e] {
                    self.waiting[w] += 1;
                }
            }
        }
        for &(l, w) in saved {
            self.last[l] = w;
        }
    }

    fn key(&self) -> (Vec<u64>, Vec<Option<Event>>) {
        let mut bits = vec![0u64; self.placed.len().div_ceil(64)];
        for (i, &p) in self.placed.iter().enumerate() {
            if p {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        let last = self.p.eq.locations.keys().map(|l| self.last[l]).collect();
        (bits, last)
    }

    /// `Some(true)`: complete schedule in `seq`; `Some(false)`: none from here; `None`: out of
    /// budget.
    fn dfs(&mut self) -> Option<bool> {
        if self.work > self.budget || self.depth > MAX_DEPTH {
            return None;
        }
        let n = self.placed.len();
        let mark = self.seq.len();
        let saved: Vec<(Location, Option<Event>)> = self
            .p
            .eq
            .locations
            .keys()
            .map(|l| (l, self.last[l]))
            .collect();
        // Place write-free groups greedily until a full pass places none.
        loop {
            let mut placed_any = false;
            let ready: Vec<u32> = self.ready.iter().copied().collect();
            for g in ready {
                let g = g as usize;
                if !self.has_write[g] && self.can_place(g) {
                    self.place(g);
                    placed_any = true;
                }
            }
            if !placed_any || self.work > self.budget {
                break;
            }
        }
        if self.seq.len() == n {
            return Some(true);
        }
        if !self.visited.insert(self.key()) {
            self.unplace_to(mark, &saved);
            return Some(false);
        }
        let mut choices = Vec::new();
        let ready: Vec<u32> = self.ready.iter().copied().collect();
        for g in ready {
            let g = g as usize;
            if self.has_write[g] && self.can_place(g) {
                choices.push(g);
            }
        }
        for g in choices {
            let before: Vec<(Location, Option<Event>)> = self
                .p
                .eq
                .locations
                .keys()
                .map(|l| (l, self.last[l]))
                .collect();
            let len = self.seq.len();
            self.place(g);
            self.depth += 1;
            let found = self.dfs();
            self.depth -= 1;
            match found {
                Some(true) => return Some(true),
                Some(false) => self.unplace_to(len, &before),
                None => return None,
            }
        }
        self.unplace_to(mark, &saved);
        Some(false)
    }
}

/// Checks a sequence of groups against the requirements directly: every group exactly once,
/// every active edge forward, every executed read sees its write.
pub(crate) fn validate(p: &Problem, seq: &[u32]) -> Result<(), String> {
    let n = p.events.len();
    let mut pos = vec![usize::MAX; n];
    for (i, &g) in seq.iter().enumerate() {
        let g = g as usize;
        if g >= n || pos[g] != usize::MAX {
            return Err(format!("group {g} missing or repeated"));
        }
        pos[g] = i;
    }
    if seq.len() != n {
        return Err("not every group is scheduled".into());
    }
    for (a, succ) in p.succ.iter().enumerate() {
        for &b in succ {
            if pos[a] >= pos[b as usize] {
                return Err(format!("order edge {a} -> {b} violated"));
            }
        }
    }
    let mut last: SecondaryMap<Location, Option<Event>> = SecondaryMap::new();
    for &g in seq {
        for &e in &p.events[g as usize] {
            let d = &p.eq.events[e];
            if d.is_write() {
                last[d.location] = Some(e);
            } else if let Some(w) = p.rf[e] {
                if last[d.location] != Some(w) {
                    return Err(format!("read {e} does not see {w}"));
                }
            }
        }
    }
    Ok(())
}
