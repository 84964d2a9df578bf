//! Explanations: kernel reasons read back from the derivation log of the reason-free pass,
//! one per explained cycle, for graphs where the full reason pass is too expensive or ran out
//! of budget before finding a cycle reason.
//!
//! A cycle is a shortest path of logged edges from a conflict node back to itself. A base edge
//! is explained by its own reason; an edge derived by R2/R3 by its link, the guard of the write
//! the rule relied on, and the explanation of its premise order, which is a path of edges logged
//! *before* it (timestamps strictly decrease, so explanations are well founded). Runs of po
//! edges through shared events count only the guards of the run's two ends, since program
//! order is static and transitive.

use cranelift_entity::EntityRef;
use hashbrown::HashMap;
use solver_glue::Lit;

use super::graph::{Event, Node};
use super::reach::{Origin, Reach};
use super::rules::{kind, Rules};

/// Deepest chain of nested explanations before giving up on an edge.
const MAX_DEPTH: usize = 800;

pub(crate) struct Explainer<'a> {
    rules: &'a Rules,
    reach: &'a Reach,
    guard: &'a dyn Fn(Event) -> Option<Lit>,
    out: Vec<Vec<u32>>,
    memo: HashMap<u32, Option<Vec<Lit>>>,
    depth: usize,
}

impl<'a> Explainer<'a> {
    pub fn new(
        rules: &'a Rules,
        reach: &'a Reach,
        guard: &'a dyn Fn(Event) -> Option<Lit>,
    ) -> Explainer<'a> {
        let mut out = vec![Vec::new(); rules.n];
        for (i, e) in reach.log.iter().enumerate() {
            out[e.from.index()].push(i as u32);
        }
        Explainer {
            rules,
            reach,
            guard,
            out,
            memo: HashMap::new(),
            depth: 0,
        }
    }

    /// Reasons of the shortest cycles through up to `max` conflict nodes (one each; cycles
    /// too deep to explain are skipped), plus the conflicts inside atomic blocks.
    pub fn cycles(&mut self, max: usize) -> Vec<Vec<Lit>> {
        let mut reasons: Vec<Vec<Lit>> = self
            .rules
            .self_conflicts
            .iter()
            .map(|(_, r)| r.clone())
            .collect();
        let mut tried = 0;
        for c in 0..self.rules.n {
            if tried >= max {
                break;
            }
            if !self.reach.m.get(c, c) {
                continue;
            }
            tried += 1;
            let found = self.path(c, c, u32::MAX);
            if let Some(r) = found.and_then(|p| self.path_reason(&p, u32::MAX)) {
                reasons.push(r);
            }
        }
        reasons
    }

    /// Cheapest path of logged edges older than `before` from `p` to `q` (a cycle if p = q).
    /// A po edge costs 0, an rf edge 1 (its link), a derived edge 2 (a link and a premise), so
    /// the path approximates the one with the fewest literals.
    fn path(&self, p: usize, q: usize, before: u32) -> Option<Vec<u32>> {
        use std::cmp::Reverse;
        let n = self.rules.n;
        let mut dist = vec![u32::MAX; n];
        let mut via = vec![u32::MAX; n];
        let mut heap = std::collections::BinaryHeap::from([Reverse((0u32, p))]);
        dist[p] = 0;
        let mut best: Option<(u32, u32, usize)> = None; // (cost, last edge, its source)
        while let Some(Reverse((d, u))) = heap.pop() {
            if d > dist[u] || best.is_some_and(|b| d >= b.0) {
                continue;
            }
            for &e in &self.out[u] {
                if e >= before {
                    break;
                }
                let logged = &self.reach.log[e as usize];
                let w = match logged.origin {
                    Origin::Base(i) if self.rules.base[i as usize].kind & kind::PO != 0 => 0,
                    Origin::Base(_) => 1,
                    Origin::Rule { .. } => 2,
                };
                let (v, nd) = (logged.to.index(), d + w);
                if v == q {
                    if best.is_none_or(|b| nd < b.0) {
                        best = Some((nd, e, u));
                    }
                    continue;
                }
                if v != p && nd < dist[v] {
                    dist[v] = nd;
                    via[v] = e;
                    heap.push(Reverse((nd, v)));
                }
            }
        }
        let (_, last, mut x) = best?;
        let mut path = vec![last];
        while x != p {
            let back = via[x];
            path.push(back);
            x = self.reach.log[back as usize].from.index();
        }
        path.reverse();
        Some(path)
    }

    /// Replaces each hop of `path` by the parallel logged edge (older than `before`) with the
    /// best explanation: a base edge if there is one, else the shortest reason.
    fn best_hops(&mut self, path: &[u32], before: u32) -> Vec<u32> {
        let mut hops = Vec::with_capacity(path.len());
        for &e in path {
            let (u, v) = {
                let l = self.reach.log[e as usize];
                (l.from.index(), l.to)
            };
            let parallel: Vec<u32> = self.out[u]
                .iter()
                .copied()
                .take_while(|&x| x < before)
                .filter(|&x| self.reach.log[x as usize].to == v)
                .collect();
            if parallel.len() <= 1
                || parallel
                    .iter()
                    .any(|&x| matches!(self.reach.log[x as usize].origin, Origin::Base(_)))
            {
                hops.push(e);
                continue;
            }
            let mut best = (usize::MAX, e);
            for x in parallel {
                if let Some(r) = self.edge_reason(x) {
                    best = best.min((r.len(), x));
                }
            }
            hops.push(best.1);
        }
        hops
    }

    fn path_reason(&mut self, path: &[u32], before: u32) -> Option<Vec<Lit>> {
        let path = self.best_hops(path, before);
        let mut lits = Vec::new();
        let mut run: Option<(Event, Event)> = None;
        let flush = |run: &mut Option<(Event, Event)>, lits: &mut Vec<Lit>| {
            if let Some((a, b)) = run.take() {
                lits.extend((self.guard)(a));
                lits.extend((self.guard)(b));
            }
        };
        for &e in &path {
            let logged = self.reach.log[e as usize];
            if let Origin::Base(i) = logged.origin {
                let base = &self.rules.base[i as usize];
                if base.kind & kind::PO != 0 {
                    let (a, b) = base.events;
                    run = match run {
                        Some((start, end)) if end == a => Some((start, b)),
                        _ => {
                            flush(&mut run, &mut lits);
                            Some((a, b))
                        }
                    };
                    continue;
                }
            }
            flush(&mut run, &mut lits);
            lits.extend(self.edge_reason(e)?);
        }
        flush(&mut run, &mut lits);
        Some(self.normalize(lits))
    }

    fn edge_reason(&mut self, e: u32) -> Option<Vec<Lit>> {
        if let Some(r) = self.memo.get(&e) {
            return r.clone();
        }
        let r = match self.reach.log[e as usize].origin {
            Origin::Base(i) => Some(self.rules.base[i as usize].reason.clone()),
            Origin::Rule { kind: k, rf, p, q } => {
                if self.depth >= MAX_DEPTH {
                    return None;
                }
                self.depth += 1;
                let rf = &self.rules.rfs[rf as usize];
                let writer = if k == kind::R2 { p } else { q };
                let premise = self
                    .path(p as usize, q as usize, e)
                    .and_then(|path| self.path_reason(&path, e));
                self.depth -= 1;
                premise.map(|mut lits| {
                    lits.push(rf.link);
                    let alts = self
                        .rules
                        .writes_of(Node::new(writer as usize), rf.loc)
                        .unwrap_or(&[]);
                    lits.extend(alts.first().copied().flatten());
                    self.normalize(lits)
                })
            }
        };
        self.memo.insert(e, r.clone());
        r
    }

    /// Sorts, deduplicates and drops guards implied by a link in the same reason.
    fn normalize(&self, mut lits: Vec<Lit>) -> Vec<Lit> {
        lits.sort_unstable();
        lits.dedup();
        let implied: Vec<Lit> = self
            .rules
            .link_guards
            .iter()
            .filter(|(l, _)| lits.binary_search(l).is_ok())
            .flat_map(|(_, gs)| gs.iter().copied())
            .collect();
        lits.retain(|l| !implied.contains(l));
        lits
    }
}
