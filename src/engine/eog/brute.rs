//! Exact feasibility of small EOGs by exhaustive search, the reference the closure is tested
//! against. It reads the semantics straight from the definition: nodes get distinct clocks,
//! events inside a node run in insertion order, a po edge needs its source earlier, and an rf
//! edge needs its write to be the last write of the location before the read. Failed search
//! states (placed nodes, last writer per location) are memoised.

use cranelift_entity::EntityRef;
use hashbrown::{HashMap, HashSet};
use solver_glue::Lit;

use super::graph::{Access, EogBuilder, Event, Node};

/// Which events and edges of a graph take part (a sub-EOG).
#[derive(Clone, Debug)]
pub(crate) struct Selection {
    pub events: Vec<bool>,
    /// Program-order pairs (source, target).
    pub po: Vec<(Event, Event)>,
    pub rf: Vec<bool>,
}

impl Selection {
    pub fn all(g: &EogBuilder) -> Selection {
        Selection {
            events: vec![true; g.num_events()],
            po: g.po_edges().iter().map(|p| (p.from, p.to)).collect(),
            rf: vec![true; g.rf_edges().len()],
        }
    }

    /// The part of `g` that the literals of `reason` entail: rf edges whose link is in it,
    /// events whose guard is absent, in it, or implied by one of its links (a link implies the
    /// guards of both its events), and program order between those events (static, so
    /// transitive through events that are left out).
    pub fn entailed_by(g: &EogBuilder, reason: &[Lit]) -> Selection {
        // The literals that hold: the reason and the guards its links imply.
        let mut holds: Vec<Lit> = reason.to_vec();
        let rf: Vec<bool> = g
            .rf_edges()
            .iter()
            .map(|r| reason.contains(&r.link))
            .collect();
        for (r, &on) in g.rf_edges().iter().zip(&rf) {
            if on {
                holds.extend(g.event(r.write).guard);
                holds.extend(g.event(r.read).guard);
            }
        }
        let events: Vec<bool> = (0..g.num_events())
            .map(|i| {
                g.event(Event::new(i))
                    .guard
                    .is_none_or(|gl| holds.contains(&gl))
            })
            .collect();
        let n = g.num_events();
        let mut succ = vec![Vec::new(); n];
        for p in g.po_edges() {
            succ[p.from.index()].push(p.to.index());
        }
        let mut po = Vec::new();
        for a in (0..n).filter(|&a| events[a]) {
            let mut seen = vec![false; n];
            let mut stack = succ[a].clone();
            while let Some(c) = stack.pop() {
                if std::mem::replace(&mut seen[c], true) {
                    continue;
                }
                if events[c] {
                    po.push((Event::new(a), Event::new(c)));
                }
                stack.extend_from_slice(&succ[c]);
            }
        }
        Selection { events, po, rf }
    }
}

/// Whether some schedule of the selected part of `g` meets every requirement, plus node
/// `before.0` earlier than node `before.1` when given.
pub(crate) fn feasible(g: &EogBuilder, sel: &Selection, before: Option<(Node, Node)>) -> bool {
    let nodes: Vec<Node> = (0..g.num_nodes())
        .map(Node::new)
        .filter(|&n| g.node(n).events.iter().any(|e| sel.events[e.index()]))
        .collect();
    assert!(nodes.len() <= 64, "brute force handles at most 64 nodes");
    let mut slot = vec![usize::MAX; g.num_nodes()];
    for (i, n) in nodes.iter().enumerate() {
        slot[n.index()] = i;
    }
    let mut locs: HashMap<u32, usize> = HashMap::new();
    for i in 0..g.num_events() {
        let next = locs.len();
        locs.entry(g.event(Event::new(i)).loc.index() as u32)
            .or_insert(next);
    }
    let mut po_in: Vec<Vec<Event>> = vec![Vec::new(); g.num_events()];
    for &(a, b) in &sel.po {
        assert!(sel.events[a.index()] && sel.events[b.index()]);
        po_in[b.index()].push(a);
    }
    let mut rf_in: Vec<Vec<Event>> = vec![Vec::new(); g.num_events()];
    for (r, &on) in g.rf_edges().iter().zip(&sel.rf) {
        if on {
            assert!(sel.events[r.write.index()] && sel.events[r.read.index()]);
            rf_in[r.read.index()].push(r.write);
        }
    }
    let mut s = Search {
        g,
        sel,
        nodes,
        slot,
        locs,
        po_in,
        rf_in,
        before: before.map(|(a, b)| (a.index(), b.index())),
        failed: HashSet::new(),
    };
    let mut last = vec![u32::MAX; s.locs.len()];
    s.dfs(0, &mut last)
}

struct Search<'a> {
    g: &'a EogBuilder,
    sel: &'a Selection,
    nodes: Vec<Node>,
    slot: Vec<usize>,
    locs: HashMap<u32, usize>,
    po_in: Vec<Vec<Event>>,
    rf_in: Vec<Vec<Event>>,
    before: Option<(usize, usize)>,
    failed: HashSet<(u64, Vec<u32>)>,
}

impl Search<'_> {
    fn dfs(&mut self, placed: u64, last: &mut [u32]) -> bool {
        if placed.count_ones() as usize == self.nodes.len() {
            return true;
        }
        if self.failed.contains(&(placed, last.to_vec())) {
            return false;
        }
        for i in 0..self.nodes.len() {
            if placed >> i & 1 == 1 {
                continue;
            }
            let mut next = last.to_vec();
            if self.place(placed, i, &mut next) && self.dfs(placed | 1 << i, &mut next) {
                return true;
            }
        }
        self.failed.insert((placed, last.to_vec()));
        false
    }

    /// Runs node `i`'s selected events after the nodes in `placed`; false if a requirement
    /// fails.
    fn place(&self, placed: u64, i: usize, last: &mut [u32]) -> bool {
        let node = self.nodes[i];
        if let Some((a, b)) = self.before {
            if b == node.index() && a != b && placed >> self.slot[a] & 1 == 0 {
                return false;
            }
        }
        let done = |e: Event, cur: &super::graph::EventData| {
            let d = self.g.event(e);
            if d.node == node {
                d.pos < cur.pos
            } else {
                placed >> self.slot[d.node.index()] & 1 == 1
            }
        };
        for &e in &self.g.node(node).events {
            if !self.sel.events[e.index()] {
                continue;
            }
            let ev = self.g.event(e);
            if !self.po_in[e.index()].iter().all(|&a| done(a, ev)) {
                return false;
            }
            let l = self.locs[&(ev.loc.index() as u32)];
            match ev.access {
                Access::Read => {
                    if !self.rf_in[e.index()]
                        .iter()
                        .all(|w| last[l] == w.index() as u32)
                    {
                        return false;
                    }
                }
                Access::Write => last[l] = e.index() as u32,
            }
        }
        true
    }
}
