//! The closure of an EOG under R1–R3 with kernel reasons (Algorithms 1 and 2, implemented
//! once), and its result.
//!
//! First the reason-free bit-matrix fixpoint (`reach` module) decides whether a cycle exists;
//! without one the answer is `NotSure` and no reason is computed. With one, the reason pass
//! recomputes the same fixpoint carrying, for every ordered node pair, its set of kernel
//! reasons (`reasons` module):
//!
//! * explicit edges are the base edges (po, po shortcuts, rf) and the edges R2/R3 derive, each
//!   with its own reason set;
//! * R1 is applied left-linearly: the reasons of u ≺ v are those of u ≺ x times those of an
//!   explicit edge x → v, which covers every path, so pairs are never combined with pairs;
//! * a pair is queued again whenever its reason set changes and is then propagated with the
//!   reasons it gained (so reasons found late still reach every order derived from it, unlike
//!   the printed Algorithm 2); when an explicit edge a → b gains reasons, every known pair
//!   u ≺ a is extended through it. Pairs are processed shortest new reason first;
//! * R2/R3 conclusions also carry the guard of the write they rely on, because that write's
//!   existence is a premise of the rule;
//! * a reason of u ≺ u refutes the graph; every reason containing a refuting one is dropped
//!   from then on, since whatever it derives would be subsumed in the result.
//!
//! Everything dropped (beyond K per order, beyond the length cap, through a refuted reason, or
//! after the work budget) only loses refinement strength, never soundness: every kept reason
//! still entails its order. When the budget cuts the reason pass, reasons are also read back
//! from the first pass's derivation log (`explain` module); if even that yields nothing, the
//! result is one reason made of every literal of the graph (sound by Theorem 4.7).

use std::time::{Duration, Instant};

use cranelift_entity::EntityRef;
use hashbrown::HashMap;
use solver_glue::Lit;

use super::explain::Explainer;
use super::graph::{EogBuilder, Event, Node};
use super::reach::{self, Reach};
use super::reasons::{RSet, Reasons, NONE};
use super::rules::{kind, Rules};

/// Bounds of one closure run.
#[derive(Copy, Clone, Debug)]
pub struct ClosureLimits {
    /// Reasons kept per order (K); the shortest are kept.
    pub reasons_per_order: usize,
    /// Longest reason (in literals) the reason pass builds; longer ones are dropped.
    pub max_reason_len: usize,
    /// Once a cycle reason of length L is known, stop when every pending reason is longer than
    /// L + slack (reasons are built roughly shortest first). `None`: run to the fixpoint.
    pub reason_slack: Option<usize>,
    /// Reason compositions allowed in the reason pass.
    pub work_budget: u64,
    /// Most reasons returned for an infeasible graph (shortest first).
    pub max_result_reasons: usize,
    /// Above this many nodes the reason pass (two n² tables of 4-byte ids: 72 MB at 3000) is
    /// skipped and reasons come from the derivation log only.
    pub max_reason_nodes: usize,
    /// Conflict nodes whose shortest cycle is explained when the reason pass is cut short.
    pub explain_cycles: usize,
    /// Run the reason pass even when there is no cycle (to inspect orders and reasons).
    pub reasons_without_cycle: bool,
}

impl Default for ClosureLimits {
    fn default() -> Self {
        ClosureLimits {
            reasons_per_order: 8,
            max_reason_len: 16,
            reason_slack: None,
            work_budget: 500_000,
            max_result_reasons: 256,
            max_reason_nodes: 3000,
            explain_cycles: 64,
            reasons_without_cycle: false,
        }
    }
}

/// The verdict of the graph check.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ClosureResult {
    /// Some event is ordered before itself. Each reason is a sorted set of literals whose
    /// conjunction makes the graph infeasible; `¬(l1 ∧ … ∧ lk)` is a valid refinement clause.
    /// Subset-minimal among the reasons found, deduplicated, shortest first, never empty.
    Infeasible { reasons: Vec<Vec<Lit>> },
    /// No cycle: the graph may or may not be feasible.
    NotSure,
}

/// Counters of the last closure run.
#[derive(Clone, Default, Debug)]
pub struct ClosureStats {
    pub events: usize,
    pub nodes: usize,
    pub po_edges: usize,
    pub rf_edges: usize,
    /// Edges derived by R2 / R3 (in the reason pass if it ran, else in the first pass).
    pub r2_edges: usize,
    pub r3_edges: usize,
    /// Ordered node pairs u ≺ v, including self pairs.
    pub orders: u64,
    /// Nodes on a cycle.
    pub conflict_nodes: usize,
    pub reasons_returned: usize,
    /// Distinct reasons and reason sets interned by the reason pass.
    pub reasons_interned: usize,
    pub reason_sets_interned: usize,
    /// Reason compositions done.
    pub work: u64,
    pub reach_time: Duration,
    pub reason_time: Duration,
    /// Whether the reason pass ran to its fixpoint.
    pub reasons_complete: bool,
    /// Reasons explained from the first pass's derivation log (when the reason pass was cut).
    pub explained: usize,
    pub explain_time: Duration,
    /// Whether the all-literals fallback reason was returned.
    pub fallback: bool,
}

/// One explicit edge of the reason pass.
#[derive(Clone, Debug)]
pub(crate) struct Explicit {
    pub to: Node,
    pub kind: u8,
    pub reasons: RSet,
}

/// What the last closure computed, kept for queries and Graphviz output.
pub(crate) struct Analysis {
    pub stats: ClosureStats,
    pub reach: Reach,
    pub pass: Option<ReasonPass>,
}

/// The reason pass state.
pub(crate) struct ReasonPass {
    pub n: usize,
    pub store: Reasons,
    /// Row-major n×n reason sets; `NONE` = not ordered.
    pub pair: Vec<RSet>,
    pub edges: Vec<Explicit>,
    edge_index: HashMap<(u32, u32), u32>,
    out: Vec<Vec<u32>>,
    /// Reasons of each pair already propagated; a pair is processed with the difference.
    done: Vec<RSet>,
    /// Changed pairs, bucketed by the length of their shortest new reason: short reasons are
    /// propagated first, so longer ones they subsume are rarely built.
    buckets: Vec<Vec<u32>>,
    low: usize,
    pub work: u64,
    budget: u64,
    slack: Option<usize>,
    /// True while the base edges are entered (before any pair is processed).
    seeding: bool,
    pub complete: bool,
}

impl ReasonPass {
    fn new(n: usize, limits: &ClosureLimits) -> ReasonPass {
        ReasonPass {
            n,
            store: Reasons::new(limits.reasons_per_order, limits.max_reason_len),
            pair: vec![NONE; n * n],
            edges: Vec::new(),
            edge_index: HashMap::new(),
            out: vec![Vec::new(); n],
            done: vec![NONE; n * n],
            buckets: Vec::new(),
            low: 0,
            work: 0,
            budget: limits.work_budget,
            slack: limits.reason_slack,
            seeding: true,
            complete: true,
        }
    }

    fn update_pair(&mut self, u: usize, v: usize, add: RSet) {
        let i = u * self.n + v;
        if u == v {
            if add != NONE {
                self.store.refute(add);
                self.pair[i] = self.store.join(self.pair[i], add);
            }
            return;
        }
        let old = self.pair[i];
        let new = self.store.join(old, add);
        if new == old {
            return;
        }
        self.pair[i] = new;
        let fresh = self.store.difference(new, old);
        if fresh == NONE {
            // Only refuted reasons were dropped.
            return;
        }
        let prio = self.store.shortest(fresh);
        if self.buckets.len() <= prio {
            self.buckets.resize(prio + 1, Vec::new());
        }
        self.buckets[prio].push(i as u32);
        self.low = self.low.min(prio);
    }

    fn pop(&mut self) -> Option<usize> {
        while self.low < self.buckets.len() {
            if let Some(i) = self.buckets[self.low].pop() {
                return Some(i as usize);
            }
            self.low += 1;
        }
        None
    }

    fn update_edge(&mut self, a: usize, b: usize, k: u8, add: RSet) {
        debug_assert_ne!(a, b);
        let next = self.edges.len() as u32;
        let e = *self.edge_index.entry((a as u32, b as u32)).or_insert(next);
        if e == next {
            self.edges.push(Explicit {
                to: Node::new(b),
                kind: 0,
                reasons: NONE,
            });
            self.out[a].push(e);
        }
        let edge = &mut self.edges[e as usize];
        let old = edge.reasons;
        let new = self.store.join(old, add);
        if new == old {
            return;
        }
        edge.kind |= k;
        edge.reasons = new;
        let add = self.store.difference(new, old);
        self.update_pair(a, b, add);
        if self.seeding {
            // No pair has been processed yet; each will meet this edge when it is.
            return;
        }
        for u in 0..self.n {
            let s = self.pair[u * self.n + a];
            if s != NONE && u != a {
                self.work += 1;
                let t = self.store.product(s, add);
                self.update_pair(u, b, t);
            }
        }
    }

    /// Extends the changed pair u ≺ x through R1 (explicit edges out of x), R2 and R3.
    fn process(&mut self, rules: &Rules, u: usize, x: usize) {
        let i = u * self.n + x;
        let s = self.store.difference(self.pair[i], self.done[i]);
        self.done[i] = self.pair[i];
        if s == NONE {
            return;
        }
        for j in 0..self.out[x].len() {
            let e = &self.edges[self.out[x][j] as usize];
            let (v, es) = (e.to.index(), e.reasons);
            self.work += 1;
            let t = self.store.product(s, es);
            self.update_pair(u, v, t);
        }
        let (un, xn) = (Node::new(u), Node::new(x));
        // R2: w ◁ r with r in x, u writes var(w), u ≠ node(w) ⇒ u ≺ node(w).
        for &i in &rules.rf_in[xn] {
            let rf = &rules.rfs[i as usize];
            if rf.w == un {
                continue;
            }
            if let Some(alts) = rules.writes_of(un, rf.loc) {
                let d = self.rule_reasons(s, rf.link, alts);
                self.update_edge(u, rf.w.index(), kind::R2, d);
            }
        }
        // R3: w ◁ r with w in u, x writes var(w), x ≠ node(r) ⇒ node(r) ≺ x.
        for &i in &rules.rf_out[un] {
            let rf = &rules.rfs[i as usize];
            if rf.r == xn {
                continue;
            }
            if let Some(alts) = rules.writes_of(xn, rf.loc) {
                let d = self.rule_reasons(s, rf.link, alts);
                self.update_edge(rf.r.index(), x, kind::R3, d);
            }
        }
    }

    /// Reasons of an R2/R3 conclusion: the premise order's reasons, the link, and the guard of
    /// one of the writes the rule relies on.
    fn rule_reasons(&mut self, premise: RSet, link: Lit, writes: &[Option<Lit>]) -> RSet {
        let mut alts = NONE;
        for w in writes {
            let one = match w {
                Some(g) => self.store.set_of(&[link, *g]),
                None => self.store.set_of(&[link]),
            };
            alts = self.store.join(alts, one);
        }
        self.work += 1;
        self.store.product(premise, alts)
    }

    fn run(&mut self, rules: &Rules) {
        for (link, guards) in &rules.link_guards {
            self.store.add_implication(*link, guards);
        }
        for (node, reason) in &rules.self_conflicts {
            let s = self.store.set_of(reason);
            self.update_pair(node.index(), node.index(), s);
        }
        for e in &rules.base {
            let s = self.store.set_of(&e.reason);
            self.update_edge(e.from.index(), e.to.index(), e.kind, s);
        }
        self.seeding = false;
        while let Some(i) = self.pop() {
            if self.work > self.budget {
                self.complete = false;
                break;
            }
            if let (Some(slack), Some(best)) = (self.slack, self.store.shortest_refuted()) {
                if self.low > best + slack {
                    self.complete = false;
                    break;
                }
            }
            self.process(rules, i / self.n, i % self.n);
        }
    }

    pub fn reasons(&self, u: usize, v: usize) -> RSet {
        self.pair[u * self.n + v]
    }
}

/// Sorted, deduplicated, subset-minimal reasons, shortest first.
fn antichain(mut reasons: Vec<Vec<Lit>>) -> Vec<Vec<Lit>> {
    for r in reasons.iter_mut() {
        r.sort_unstable();
        r.dedup();
    }
    reasons.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    reasons.dedup();
    let mut kept: Vec<Vec<Lit>> = Vec::new();
    for r in reasons {
        if !kept
            .iter()
            .any(|k| k.iter().all(|l| r.binary_search(l).is_ok()))
        {
            kept.push(r);
        }
    }
    kept
}

impl EogBuilder {
    /// Runs the closure and returns the verdict. The analysis is kept for
    /// [`EogBuilder::stats`], [`EogBuilder::ordered`], [`EogBuilder::order_reasons`] and
    /// [`EogBuilder::to_dot`] until the graph changes.
    pub fn close(&mut self, limits: ClosureLimits) -> ClosureResult {
        let rules = Rules::lower(self);
        let mut stats = ClosureStats {
            events: self.events.len(),
            nodes: self.nodes.len(),
            po_edges: self.po.len(),
            rf_edges: self.rf.len(),
            reasons_complete: true,
            ..ClosureStats::default()
        };
        let t0 = Instant::now();
        let reach = reach::saturate(&rules);
        stats.reach_time = t0.elapsed();
        stats.orders = reach.m.count();
        let cyclic = reach.has_cycle();
        for &(_, _, k) in &reach.derived {
            if k & kind::R2 != 0 {
                stats.r2_edges += 1;
            } else {
                stats.r3_edges += 1;
            }
        }
        stats.conflict_nodes = (0..rules.n).filter(|&u| reach.m.get(u, u)).count();

        let mut pass = None;
        let want_reasons = cyclic || limits.reasons_without_cycle;
        if want_reasons && rules.n <= limits.max_reason_nodes {
            let t1 = Instant::now();
            let mut p = ReasonPass::new(rules.n, &limits);
            p.run(&rules);
            stats.reason_time = t1.elapsed();
            stats.work = p.work;
            stats.reasons_complete = p.complete;
            stats.reasons_interned = p.store.num_reasons();
            stats.reason_sets_interned = p.store.num_sets();
            stats.r2_edges = p.edges.iter().filter(|e| e.kind & kind::R2 != 0).count();
            stats.r3_edges = p.edges.iter().filter(|e| e.kind & kind::R3 != 0).count();
            // Both passes apply the same rules; the reason pass may leave out orders whose every
            // derivation runs through a known cycle or needs a reason longer than the cap.
            let exact = !cyclic && p.complete && !p.store.dropped_long;
            debug_assert!(
                (0..rules.n).all(|u| (0..rules.n).all(|v| {
                    let r = p.reasons(u, v) != NONE;
                    r <= reach.m.get(u, v) && (!exact || r == reach.m.get(u, v))
                })),
                "reason pass and reachability pass disagree"
            );
            pass = Some(p);
        } else if want_reasons {
            stats.reasons_complete = false;
        }

        let result = if !cyclic {
            ClosureResult::NotSure
        } else {
            let mut reasons: Vec<Vec<Lit>> = Vec::new();
            if let Some(p) = &pass {
                reasons = p
                    .store
                    .refuted()
                    .iter()
                    .map(|&r| p.store.lits(r).to_vec())
                    .collect();
            }
            if !stats.reasons_complete {
                // The reason pass was cut short or skipped: add reasons read back from the
                // derivation log of the first pass, one per cycle.
                let t2 = Instant::now();
                let events = &self.events;
                let guard = |e: Event| events[e].guard;
                let mut ex = Explainer::new(&rules, &reach, &guard);
                let explained = ex.cycles(limits.explain_cycles.max(1));
                stats.explained = explained.len();
                stats.explain_time = t2.elapsed();
                reasons.extend(explained);
            }
            reasons = antichain(reasons);
            reasons.truncate(limits.max_result_reasons.max(1));
            if reasons.is_empty() {
                stats.fallback = true;
                reasons.push(self.all_literals());
            }
            ClosureResult::Infeasible { reasons }
        };
        if let ClosureResult::Infeasible { reasons } = &result {
            stats.reasons_returned = reasons.len();
        }
        self.analysis = Some(Analysis { stats, reach, pass });
        result
    }

    /// Counters of the last [`EogBuilder::close`] (`None` before it or after a change).
    pub fn stats(&self) -> Option<&ClosureStats> {
        self.analysis.as_ref().map(|a| &a.stats)
    }

    /// Whether the last closure derived that `a`'s node precedes `b`'s node (events of one
    /// atomic block share a node, so they are ordered only if the graph has a cycle there).
    pub fn ordered(&self, a: Event, b: Event) -> Option<bool> {
        let an = self.analysis.as_ref()?;
        let (u, v) = (self.events[a].node.index(), self.events[b].node.index());
        Some(an.reach.m.get(u, v))
    }

    /// Kernel reasons of the order between the nodes of `a` and `b` found by the reason pass
    /// (`None` if it did not run; empty if the nodes are not ordered).
    pub fn order_reasons(&self, a: Event, b: Event) -> Option<Vec<Vec<Lit>>> {
        let p = self.analysis.as_ref()?.pass.as_ref()?;
        let (u, v) = (self.events[a].node.index(), self.events[b].node.index());
        Some(p.store.to_vecs(p.reasons(u, v)))
    }
}
