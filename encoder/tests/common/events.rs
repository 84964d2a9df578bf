//! Random event structures and a brute-force reference for sequentially consistent schedules.
//!
//! A [`Plan`] describes threads as item lists (events, create and join points) with guards
//! drawn from a small pool of variables. [`Reference`] evaluates a plan under one assignment of
//! the pool, independently of the encoder's own program-order code: it computes program order
//! by Floyd–Warshall over thread chains and enumerates total orders of the executed events by
//! depth-first search with atomic blocks placed as one unit.

use super::Rng;
use encoder::{AccessKind, Encoder, Equation, Event, EventData, Location, Thread};
use solver_glue::Lit;
use std::collections::HashSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum G {
    True,
    Pos(usize),
    Neg(usize),
}

impl G {
    pub fn eval(self, assign: &[bool]) -> bool {
        match self {
            G::True => true,
            G::Pos(i) => assign[i],
            G::Neg(i) => !assign[i],
        }
    }
}

#[derive(Clone, Debug)]
pub enum PItem {
    Ev {
        write: bool,
        loc: usize,
        guard: G,
        block: Option<usize>,
    },
    Create {
        child: usize,
        guard: G,
        block: Option<usize>,
    },
    Join {
        child: usize,
        guard: G,
        block: Option<usize>,
    },
}

impl PItem {
    fn block(&self) -> Option<usize> {
        match *self {
            PItem::Ev { block, .. } | PItem::Create { block, .. } | PItem::Join { block, .. } => {
                block
            }
        }
    }
}

/// A block for a point inserted at `pos`: the block around it, or (sometimes) the block it
/// touches.
fn block_at(rng: &mut Rng, items: &[PItem], pos: usize) -> Option<usize> {
    let before = pos.checked_sub(1).and_then(|p| items[p].block());
    let after = items.get(pos).and_then(|i| i.block());
    match (before, after) {
        (Some(a), Some(b)) if a == b => Some(a),
        (Some(a), _) if rng.chance(30) => Some(a),
        (_, Some(b)) if rng.chance(30) => Some(b),
        _ => None,
    }
}

/// Threads as item lists; thread 0 is the init thread (one write per location).
#[derive(Clone, Debug)]
pub struct Plan {
    pub threads: Vec<Vec<PItem>>,
    pub locs: usize,
    pub pool: usize,
    pub blocks: usize,
}

fn random_guard(rng: &mut Rng, pool: usize, p_true: u32) -> G {
    if rng.chance(p_true) {
        G::True
    } else if rng.chance(50) {
        G::Pos(rng.below(pool))
    } else {
        G::Neg(rng.below(pool))
    }
}

impl Plan {
    /// A random plan: 2–4 user threads (thread 1 is main), 2–3 locations, up to
    /// `max_events` user events, random create/join points, guards and atomic blocks.
    pub fn random(rng: &mut Rng, max_events: usize, with_guards: bool) -> Plan {
        let k = 2 + rng.below(3);
        let locs = 2 + rng.below(2);
        let pool = 3;
        let gp = if with_guards { 65 } else { 100 };
        let ep = if with_guards { 70 } else { 100 };
        let mut threads: Vec<Vec<PItem>> = vec![Vec::new(); k + 1];
        for l in 0..locs {
            threads[0].push(PItem::Ev {
                write: true,
                loc: l,
                guard: G::True,
                block: None,
            });
        }
        let n = 3 + rng.below(max_events - 2);
        for _ in 0..n {
            let t = 1 + rng.below(k);
            let guard = random_guard(rng, pool, gp);
            threads[t].push(PItem::Ev {
                write: rng.chance(50),
                loc: rng.below(locs),
                guard,
                block: None,
            });
        }
        let mut blocks = 0;
        for items in threads.iter_mut().skip(1) {
            if items.len() >= 2 && rng.chance(35) {
                let len = 2 + rng.below(2).min(items.len() - 2);
                let start = rng.below(items.len() - len + 1);
                for item in &mut items[start..start + len] {
                    if let PItem::Ev { block, .. } = item {
                        *block = Some(blocks);
                    }
                }
                blocks += 1;
            }
        }
        for child in 2..=k {
            let parent = 1 + rng.below(child - 1);
            let pos = rng.below(threads[parent].len() + 1);
            let guard = random_guard(rng, pool, ep);
            let block = block_at(rng, &threads[parent], pos);
            threads[parent].insert(
                pos,
                PItem::Create {
                    child,
                    guard,
                    block,
                },
            );
        }
        for child in 2..=k {
            if rng.chance(50) {
                let mut joiner = 1 + rng.below(k);
                if joiner == child {
                    joiner = 1;
                }
                // Mostly after the joiner's own create points (joining before creating is a
                // cycle); sometimes anywhere.
                let items = &threads[joiner];
                let after_creates = items
                    .iter()
                    .rposition(|i| matches!(i, PItem::Create { .. }))
                    .map_or(0, |p| p + 1);
                let lo = if rng.chance(85) { after_creates } else { 0 };
                let pos = lo + rng.below(items.len() + 1 - lo);
                let guard = random_guard(rng, pool, ep);
                let block = block_at(rng, &threads[joiner], pos);
                threads[joiner].insert(
                    pos,
                    PItem::Join {
                        child,
                        guard,
                        block,
                    },
                );
            }
        }
        Plan {
            threads,
            locs,
            pool,
            blocks,
        }
    }

    /// The events in creation order (= `Event` index order of [`Plan::build`]).
    pub fn events(&self) -> Vec<(usize, bool, usize, G, Option<usize>)> {
        let mut out = Vec::new();
        for (t, items) in self.threads.iter().enumerate() {
            for item in items {
                if let PItem::Ev {
                    write,
                    loc,
                    guard,
                    block,
                } = *item
                {
                    out.push((t, write, loc, guard, block));
                }
            }
        }
        out
    }

    /// The equation of this plan on `enc`, with the pool literals. Values are fresh 2-bit
    /// vectors.
    pub fn build(&self, enc: &mut Encoder) -> (Equation, Vec<Lit>) {
        let pool: Vec<Lit> = (0..self.pool).map(|_| enc.new_lit()).collect();
        let lit = |g: G| match g {
            G::True => enc.tru(),
            G::Pos(i) => pool[i],
            G::Neg(i) => !pool[i],
        };
        let guards: Vec<Vec<Lit>> = self
            .threads
            .iter()
            .map(|items| {
                items
                    .iter()
                    .map(|it| match *it {
                        PItem::Ev { guard, .. }
                        | PItem::Create { guard, .. }
                        | PItem::Join { guard, .. } => lit(guard),
                    })
                    .collect()
            })
            .collect();
        let mut eq = Equation::new(enc.tru());
        let threads: Vec<Thread> = (0..self.threads.len())
            .map(|t| {
                if t == 0 {
                    eq.init_thread()
                } else {
                    eq.add_thread()
                }
            })
            .collect();
        let locs: Vec<Location> = (0..self.locs)
            .map(|l| eq.add_location(format!("v{l}")))
            .collect();
        let blocks: Vec<_> = (0..self.blocks).map(|_| eq.new_atomic_block()).collect();
        for (t, items) in self.threads.iter().enumerate() {
            for (i, item) in items.iter().enumerate() {
                let g = guards[t][i];
                match *item {
                    PItem::Ev {
                        write, loc, block, ..
                    } => {
                        let value = enc.bv_fresh(2);
                        eq.add_event(EventData {
                            thread: threads[t],
                            location: locs[loc],
                            kind: if write {
                                AccessKind::Write
                            } else {
                                AccessKind::Read
                            },
                            guard: g,
                            value,
                            atomic: block.map(|b| blocks[b]),
                            source: None,
                        });
                    }
                    PItem::Create { child, block, .. } => {
                        eq.add_create(threads[t], threads[child], g, block.map(|b| blocks[b]))
                    }
                    PItem::Join { child, block, .. } => {
                        eq.add_join(threads[t], threads[child], g, block.map(|b| blocks[b]))
                    }
                }
            }
        }
        (eq, pool)
    }
}

/// The plan evaluated under one assignment of its guard pool.
///
/// Schedulable points are the events (indices `0..n`, creation order) and the create/join
/// points (indices `n..m`). A schedule orders all points: absent events and points have no
/// effect but keep their place, and an atomic block's points are contiguous.
pub struct Reference {
    pub n: usize,
    pub m: usize,
    pub present: Vec<bool>,
    pub write: Vec<bool>,
    pub loc: Vec<usize>,
    pub block: Vec<Option<usize>>,
    /// `before[a][b]`: point a precedes point b in program order (active edges, transitively).
    pub before: Vec<Vec<bool>>,
    /// Same over events, with only unconditional create/join edges.
    pub before_always: Vec<Vec<bool>>,
    pub cyclic: bool,
    pub locs: usize,
}

fn closure(num: usize, edges: &[(usize, usize)]) -> Vec<Vec<bool>> {
    let mut r = vec![vec![false; num]; num];
    for &(a, b) in edges {
        r[a][b] = true;
    }
    for k in 0..num {
        let row_k = r[k].clone();
        for row in r.iter_mut() {
            if row[k] {
                for (cell, &via) in row.iter_mut().zip(&row_k) {
                    *cell |= via;
                }
            }
        }
    }
    r
}

impl Reference {
    pub fn new(plan: &Plan, assign: &[bool]) -> Reference {
        let evs = plan.events();
        let n = evs.len();
        // Graph nodes: points first (events, then create/join points), then thread starts
        // and ends.
        let mut item_node: Vec<Vec<usize>> = Vec::new();
        let mut next_event = 0;
        let mut next_point = n;
        let mut point_block = Vec::new();
        for items in &plan.threads {
            let mut nodes = Vec::new();
            for item in items {
                if matches!(item, PItem::Ev { .. }) {
                    nodes.push(next_event);
                    next_event += 1;
                } else {
                    nodes.push(next_point);
                    point_block.push(item.block());
                    next_point += 1;
                }
            }
            item_node.push(nodes);
        }
        let m = next_point;
        let start: Vec<usize> = (0..plan.threads.len()).map(|t| m + 2 * t).collect();
        let end: Vec<usize> = (0..plan.threads.len()).map(|t| m + 2 * t + 1).collect();
        let total = m + 2 * plan.threads.len();
        let mut active = Vec::new();
        let mut always = Vec::new();
        for (t, items) in plan.threads.iter().enumerate() {
            let mut prev = start[t];
            for &nd in &item_node[t] {
                active.push((prev, nd));
                always.push((prev, nd));
                prev = nd;
            }
            active.push((prev, end[t]));
            always.push((prev, end[t]));
            if t != 0 {
                active.push((end[0], start[t]));
                always.push((end[0], start[t]));
            }
            for (i, item) in items.iter().enumerate() {
                let (from, to, g) = match *item {
                    PItem::Create { child, guard, .. } => (item_node[t][i], start[child], guard),
                    PItem::Join { child, guard, .. } => (end[child], item_node[t][i], guard),
                    PItem::Ev { .. } => continue,
                };
                if g == G::True {
                    always.push((from, to));
                }
                if g.eval(assign) {
                    active.push((from, to));
                }
            }
        }
        let full = closure(total, &active);
        let fixed = closure(total, &always);
        let cyclic = (0..total).any(|v| full[v][v]);
        let mut present: Vec<bool> = evs.iter().map(|e| e.3.eval(assign)).collect();
        present.resize(m, false);
        let mut write: Vec<bool> = evs.iter().map(|e| e.1).collect();
        write.resize(m, false);
        let mut loc: Vec<usize> = evs.iter().map(|e| e.2).collect();
        loc.resize(m, 0);
        let mut block: Vec<Option<usize>> = evs.iter().map(|e| e.4).collect();
        block.extend(point_block);
        Reference {
            n,
            m,
            present,
            write,
            loc,
            block,
            before: (0..m).map(|a| full[a][..m].to_vec()).collect(),
            before_always: (0..n).map(|a| fixed[a][..n].to_vec()).collect(),
            cyclic,
            locs: plan.locs,
        }
    }

    /// Points grouped into units (an atomic block's points, or one point), in program order.
    fn units(&self) -> Vec<Vec<usize>> {
        let mut units: Vec<Vec<usize>> = Vec::new();
        let mut block_unit: Vec<(usize, usize)> = Vec::new();
        for p in 0..self.m {
            match self.block[p] {
                Some(b) => match block_unit.iter().find(|(bb, _)| *bb == b) {
                    Some(&(_, u)) => units[u].push(p),
                    None => {
                        block_unit.push((b, units.len()));
                        units.push(vec![p]);
                    }
                },
                None => units.push(vec![p]),
            }
        }
        for u in &mut units {
            let before = &self.before;
            u.sort_by(|&a, &b| {
                if before[a][b] {
                    std::cmp::Ordering::Less
                } else if before[b][a] {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            });
        }
        units
    }

    fn ready(&self, unit: &[usize], placed: u64) -> bool {
        (0..self.m).all(|x| {
            placed & (1 << x) != 0 || unit.contains(&x) || !unit.iter().any(|&y| self.before[x][y])
        })
    }

    /// Effect of placing `unit` after a history with last writes `last`: `None` if a read
    /// in it does not see its `rf` write.
    fn place(
        &self,
        unit: &[usize],
        rf: &[Option<usize>],
        mut last: Vec<Option<usize>>,
    ) -> Option<Vec<Option<usize>>> {
        for &y in unit {
            if y >= self.n || !self.present[y] {
                continue;
            }
            if self.write[y] {
                last[self.loc[y]] = Some(y);
            } else if let Some(w) = rf[y] {
                if last[self.loc[y]] != Some(w) {
                    return None;
                }
            }
        }
        Some(last)
    }

    /// Whether a schedule exists in which each present read `r` sees `rf[r]`.
    pub fn feasible(&self, rf: &[Option<usize>]) -> bool {
        if self.cyclic {
            return false;
        }
        let units = self.units();
        let mut memo = HashSet::new();
        let all: u64 = (0..self.m).fold(0, |acc, p| acc | 1 << p);
        self.dfs(&units, rf, 0, vec![None; self.locs], all, &mut memo)
    }

    fn dfs(
        &self,
        units: &[Vec<usize>],
        rf: &[Option<usize>],
        placed: u64,
        last: Vec<Option<usize>>,
        all: u64,
        memo: &mut HashSet<(u64, Vec<Option<usize>>)>,
    ) -> bool {
        if placed == all {
            return true;
        }
        if memo.contains(&(placed, last.clone())) {
            return false;
        }
        for u in units {
            if placed & (1 << u[0]) != 0 || !self.ready(u, placed) {
                continue;
            }
            if let Some(l2) = self.place(u, rf, last.clone()) {
                let mask = u.iter().fold(placed, |acc, &e| acc | 1 << e);
                if self.dfs(units, rf, mask, l2, all, memo) {
                    return true;
                }
            }
        }
        memo.insert((placed, last));
        false
    }

    /// Every read-from map over present reads that some schedule realises.
    pub fn all_rf_maps(&self) -> HashSet<Vec<Option<usize>>> {
        let reads: Vec<usize> = (0..self.n)
            .filter(|&r| self.present[r] && !self.write[r])
            .collect();
        let choices: Vec<Vec<usize>> = reads
            .iter()
            .map(|&r| {
                (0..self.n)
                    .filter(|&w| self.present[w] && self.write[w] && self.loc[w] == self.loc[r])
                    .collect()
            })
            .collect();
        let mut out = HashSet::new();
        let mut idx = vec![0usize; reads.len()];
        loop {
            let mut rf = vec![None; self.n];
            for (k, &r) in reads.iter().enumerate() {
                rf[r] = Some(choices[k][idx[k]]);
            }
            if self.feasible(&rf) {
                out.insert(rf);
            }
            let mut k = 0;
            while k < reads.len() {
                idx[k] += 1;
                if idx[k] < choices[k].len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
            if k == reads.len() {
                return out;
            }
        }
    }

    /// The present events of a random schedule (no read-from constraint), if any.
    pub fn random_order(&self, rng: &mut Rng) -> Option<Vec<usize>> {
        if self.cyclic {
            return None;
        }
        let units = self.units();
        let mut placed = 0u64;
        let mut order = Vec::new();
        let mut done = vec![false; units.len()];
        while done.iter().any(|d| !d) {
            let ready: Vec<usize> = (0..units.len())
                .filter(|&u| !done[u] && self.ready(&units[u], placed))
                .collect();
            if ready.is_empty() {
                return None;
            }
            let u = ready[rng.below(ready.len())];
            done[u] = true;
            for &p in &units[u] {
                placed |= 1 << p;
                if p < self.n && self.present[p] {
                    order.push(p);
                }
            }
        }
        Some(order)
    }

    /// The read-from map of a sequence of events (each read sees the last earlier write).
    pub fn rf_of(&self, order: &[usize]) -> Vec<Option<usize>> {
        let mut rf = vec![None; self.n];
        let mut last = vec![None; self.locs];
        for &e in order {
            if self.write[e] {
                last[self.loc[e]] = Some(e);
            } else {
                rf[e] = last[self.loc[e]];
            }
        }
        rf
    }

    /// Checks that `order` lists the present events once each, realises `rf`, and extends to
    /// a schedule of all points.
    pub fn check_order(&self, order: &[usize], rf: &[Option<usize>]) -> Result<(), String> {
        let mut seen = vec![false; self.n];
        for &e in order {
            if e >= self.n || !self.present[e] {
                return Err(format!("absent event {e} scheduled"));
            }
            if std::mem::replace(&mut seen[e], true) {
                return Err(format!("event {e} scheduled twice"));
            }
        }
        if let Some(e) = (0..self.n).find(|&e| self.present[e] && !seen[e]) {
            return Err(format!("present event {e} missing"));
        }
        let got = self.rf_of(order);
        for e in 0..self.n {
            if self.present[e] && !self.write[e] && rf[e].is_some() && rf[e] != got[e] {
                return Err(format!("read {e} sees {:?}, wanted {:?}", got[e], rf[e]));
            }
        }
        let units = self.units();
        let mut memo = HashSet::new();
        if self.extends(&units, order, 0, 0, &mut memo) {
            Ok(())
        } else {
            Err("no schedule of all points has this order of events".into())
        }
    }

    /// Whether the points can be scheduled with the present events in exactly `order`.
    fn extends(
        &self,
        units: &[Vec<usize>],
        order: &[usize],
        placed: u64,
        k: usize,
        memo: &mut HashSet<(u64, usize)>,
    ) -> bool {
        if placed.count_ones() as usize == self.m {
            return true;
        }
        if !memo.insert((placed, k)) {
            return false;
        }
        for u in units {
            if placed & (1 << u[0]) != 0 || !self.ready(u, placed) {
                continue;
            }
            let evs: Vec<usize> = u
                .iter()
                .copied()
                .filter(|&p| p < self.n && self.present[p])
                .collect();
            if order.get(k..k + evs.len()) != Some(&evs[..]) {
                continue;
            }
            let mask = u.iter().fold(placed, |acc, &p| acc | 1 << p);
            if self.extends(units, order, mask, k + evs.len(), memo) {
                return true;
            }
        }
        false
    }
}

/// `Event` of reference index `i`.
pub fn ev(i: usize) -> Event {
    use cranelift_entity::EntityRef;
    Event::new(i)
}
