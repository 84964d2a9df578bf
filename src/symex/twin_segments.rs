//! Symmetry breaking past the first event: twins (`symmetry`) that reach a later block of
//! their code in the same state run that block in creation order.
//!
//! # Segments and states
//!
//! The twins of a group run the same code, so their event sequences line up position by
//! position (checked: same length, and at each position the same location, kind, source line
//! and block structure; only events, no create or join points). A thread's events split into
//! *segments*: an atomic block, or one event outside any block. Segment 0 starts with the
//! anchor. For segment k ≥ 1 starting at position p_k:
//! * `reached_k(t)` is the conjunction of the guards of the first events of segments 0 … k of
//!   twin t (it executed each of them);
//! * the *suffix* of t at k is its events at positions ≥ p_k and all of its checks (checks are
//!   taken whole: more in the suffix only adds conditions below). Its circuits are followed
//!   back through the encoder's gates ([`encoder::Encoder::gate_inputs`]) to their inputs;
//!   every input must be the value bit of a read of t, the constant, or t's creation guard
//!   (anything else — a nondet value, a bit of another thread — and the group gets no order
//!   from k on). `C_k(t)` is the positions < p_k of the reads met: the only part of what t did
//!   before p_k that its suffix depends on;
//! * `D_k` is the union of `C_1 … C_k` over the group;
//! * `same_k(a, b)` is `reached_k(a) ∧ reached_k(b)` and, for every position in `D_k`, the
//!   read values of a and b there are equal.
//!
//! For twins a before b in creation order, the first event of segment k of a comes before that
//! of b under `same_k(a, b)` (every pair of a group of at most [`ALL_PAIRS`] twins, else
//! consecutive ones).
//!
//! # Why no outcome is lost
//!
//! Take an execution E; by `symmetry`'s renaming its anchors are in creation order for every
//! group. Rearrange it segment by segment, k = 1, 2, …: for each class Q of the relation
//! `same_k` (an equivalence on the twins that reached k: equality of values and both reaching),
//! hand the suffixes at k of Q's members out again, the one whose first event comes earliest
//! to the member created first, and so on. Each member keeps its events before p_k and takes
//! over another member's suffix with its steps, values and positions in the order.
//! * The result is an execution. A suffix is a function of the code (the same for twins), of
//!   the values of the `C_k` reads and of the suffix's own reads (the circuits have no other
//!   input; the numbers of a twin's own objects are constants that differ between twins, but
//!   no use observes them, so the function is the same: `symmetry`, "Objects of their own");
//!   in Q those `C_k ⊆ D_k` values are equal, so the suffix that a member takes over is
//!   what that member's own code does from its state, reading the same values at the same
//!   points of the order. The atomic blocks stay whole (a suffix starts at a segment start).
//!   Program order holds: the member created i-th in Q takes the i-th earliest suffix; the
//!   suffixes of the members created after it all start after its segment k-1, because
//!   `same_k ⇒ same_{k-1}` (reaching is cumulative, `D_{k-1} ⊆ D_k`), so by the rearrangement
//!   at k-1 (or the anchors, k = 1) its segment k-1 — one atomic block, or one event — starts
//!   before theirs, and as a block of one thread it ends before theirs begin; so at most i-1
//!   suffixes start before it ends, and the i-th earliest starts after.
//! * The events before p_k do not move, so the orders of segments before k still hold, and
//!   every other thread reads the same values at the same points (the suffixes moved with
//!   their values). Every check that failed fails again, in the member that took the suffix.
//!
//! * Twins joined in one join block of their creator (`symmetry`, "Joined twins"): the
//!   a join observes whether a twin ends, which may depend on what the twin read before
//!   p_k (an `assume` after its last event), so for joined twins the end condition (the
//!   disjunction of the guards of its ends) counts with the checks in the suffix's circuits.
//!   Then the handout permutes the ends of Q with their suffixes, so whether every twin is
//!   done is unchanged; as there, the block's join points are put just before its last one,
//!   which comes after every twin's end when the creator passes the block.
//!
//! The final execution satisfies every order added here (and the anchors' ones), reaches the
//! same errors, and is an execution of the program: restricting the search to such executions
//! keeps every reachable error, and a FALSE found under them is a real one. As for the
//! anchors, only unreach-call and no-overflow under sequential consistency use it
//! (`SymexOptions::symmetry`).

use std::collections::{HashMap, HashSet};

use encoder::{Thread, ThreadItem};
use solver_glue::{Lit, Var};

use super::exec::Symex;

/// Groups of at most this many twins get an order for every pair, larger ones for consecutive
/// twins only (a subset of the orders the argument allows is allowed too).
const ALL_PAIRS: usize = 16;

/// Gate visits the cones of one group may take; a group that needs more gets no segment orders.
const VISIT_BUDGET: usize = 1 << 20;

/// What a cone met: the positions of the thread's reads, or an input of another kind.
type Cone = Option<HashSet<usize>>;

impl Symex<'_, '_, '_> {
    /// Adds the segment orders of one group of twins, given in creation order with their
    /// creation guards (module doc).
    pub(super) fn order_twin_segments(
        &mut self,
        twins: &[Thread],
        created: &[Lit],
        ends: Option<&[Lit]>,
    ) {
        let Some(starts) = self.aligned_segments(twins) else {
            return;
        };
        if starts.len() < 2 {
            return;
        }
        let gates = self.enc.gate_inputs();
        let mut budget = VISIT_BUDGET;
        // Per twin, per segment k ≥ 1: C_k (positions of earlier reads the suffix depends on).
        let mut deps: Vec<Vec<Option<HashSet<usize>>>> = Vec::new();
        for (i, &t) in twins.iter().enumerate() {
            let end = ends.map(|e| e[i]);
            deps.push(self.suffix_dependencies(t, created[i], end, &starts, &gates, &mut budget));
        }
        let mut reached: Vec<Lit> = created.to_vec();
        let mut d: Vec<usize> = Vec::new();
        let n = twins.len();
        for k in 1..starts.len() {
            let mut dk: HashSet<usize> = d.iter().copied().collect();
            for dep in &deps {
                match &dep[k] {
                    Some(c) => dk.extend(c),
                    None => return,
                }
            }
            d = dk.into_iter().collect();
            d.sort_unstable();
            let p = starts[k];
            let first = |sx: &Self, t: Thread| match sx.eq.threads[t].items[p] {
                ThreadItem::Event(e) => e,
                _ => unreachable!("aligned twins hold only events"),
            };
            for (i, &t) in twins.iter().enumerate() {
                let g = self.eq.events[first(self, t)].guard;
                reached[i] = self.enc.and(reached[i], g);
            }
            let pairs: Vec<(usize, usize)> = if n <= ALL_PAIRS {
                (0..n)
                    .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                    .collect()
            } else {
                (1..n).map(|b| (b - 1, b)).collect()
            };
            for (a, b) in pairs {
                let mut conj = vec![reached[a], reached[b]];
                for &pos in &d {
                    let (ra, rb) = (self.read_at(twins[a], pos), self.read_at(twins[b], pos));
                    for (&x, &y) in ra.bits().iter().zip(rb.bits()) {
                        conj.push(self.enc.iff(x, y));
                    }
                }
                let guard = self.enc.and_all(&conj);
                if self.enc.const_value(guard) == Some(false) {
                    continue;
                }
                let (ea, eb) = (first(self, twins[a]), first(self, twins[b]));
                self.eq.add_search_order(ea, eb, guard);
            }
        }
    }

    /// The value of the event at position `pos` of twin `t` (a read).
    fn read_at(&self, t: Thread, pos: usize) -> encoder::BitVec {
        match self.eq.threads[t].items[pos] {
            ThreadItem::Event(e) => self.eq.events[e].value.clone(),
            _ => unreachable!("aligned twins hold only events"),
        }
    }

    /// The segment starts shared by all twins, when their event sequences line up (module
    /// doc), else `None`.
    fn aligned_segments(&self, twins: &[Thread]) -> Option<Vec<usize>> {
        let shape = |t: Thread| -> Option<Vec<_>> {
            let items = &self.eq.threads[t].items;
            let mut out = Vec::with_capacity(items.len());
            let mut prev: Option<encoder::AtomicBlock> = None;
            for (pos, item) in items.iter().enumerate() {
                let ThreadItem::Event(e) = *item else {
                    return None;
                };
                let ev = &self.eq.events[e];
                let starts = pos == 0 || ev.atomic.is_none() || ev.atomic != prev;
                prev = ev.atomic;
                let loc = self.event_info[e].loc;
                out.push((ev.location, ev.kind, loc, starts, ev.value.width()));
            }
            Some(out)
        };
        let first = shape(twins[0])?;
        let checks = |t: Thread| self.checks.iter().filter(|c| c.thread == t).count();
        for &t in &twins[1..] {
            if shape(t)? != first || checks(t) != checks(twins[0]) {
                return None;
            }
        }
        Some(
            first
                .iter()
                .enumerate()
                .filter(|(_, s)| s.3)
                .map(|(pos, _)| pos)
                .collect(),
        )
    }

    /// For each segment k (index into `starts`; entry 0 unused), the positions before its
    /// start of the reads of `t` that `t`'s suffix at k depends on, or `None` when the suffix
    /// depends on an input that is not a read of `t` (or the budget ran out).
    fn suffix_dependencies(
        &self,
        t: Thread,
        created: Lit,
        end: Option<Lit>,
        starts: &[usize],
        gates: &hashbrown::HashMap<Var, Vec<Lit>>,
        budget: &mut usize,
    ) -> Vec<Option<HashSet<usize>>> {
        let items = &self.eq.threads[t].items;
        let mut read_pos: HashMap<Var, usize> = HashMap::new();
        for (pos, item) in items.iter().enumerate() {
            if let ThreadItem::Event(e) = *item {
                let ev = &self.eq.events[e];
                if ev.is_read() {
                    for b in ev.value.bits() {
                        read_pos.insert(b.var(), pos);
                    }
                }
            }
        }
        let stop: HashSet<Var> = [self.enc.tru().var(), created.var()].into();
        let cone = |roots: Vec<Lit>, budget: &mut usize| -> Cone {
            let mut seen: HashSet<Var> = HashSet::new();
            let mut out = HashSet::new();
            let mut todo: Vec<Var> = roots.iter().map(|l| l.var()).collect();
            while let Some(v) = todo.pop() {
                if stop.contains(&v) || !seen.insert(v) {
                    continue;
                }
                *budget = budget.checked_sub(1)?;
                if let Some(&pos) = read_pos.get(&v) {
                    out.insert(pos);
                } else if let Some(ins) = gates.get(&v) {
                    todo.extend(ins.iter().map(|l| l.var()));
                } else {
                    return None;
                }
            }
            Some(out)
        };
        // Per position: what its event's guard and value depend on; then the checks.
        let mut at: Vec<Cone> = Vec::with_capacity(items.len());
        for item in items {
            let ThreadItem::Event(e) = *item else {
                at.push(None);
                continue;
            };
            let ev = &self.eq.events[e];
            let mut roots = vec![ev.guard];
            if ev.is_write() {
                roots.extend(ev.value.bits());
            }
            at.push(cone(roots, budget));
        }
        let check_roots: Vec<Lit> = self
            .checks
            .iter()
            .filter(|c| c.thread == t)
            .map(|c| c.lit)
            .chain(end)
            .collect();
        let checks = cone(check_roots, budget);
        let mut out = vec![None; starts.len()];
        for (k, &p) in starts.iter().enumerate().skip(1) {
            let mut c: HashSet<usize> = HashSet::new();
            let mut ok = true;
            for dep in at[p..].iter().chain(std::iter::once(&checks)) {
                match dep {
                    Some(s) => c.extend(s.iter().copied().filter(|&q| q < p)),
                    None => ok = false,
                }
            }
            if ok {
                out[k] = Some(c);
            }
        }
        out
    }
}
