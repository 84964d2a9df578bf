//! An acyclic graph that grows and shrinks in stack order, with a topological order kept at all
//! times (Pearce and Kelly's dynamic topological sort) and cycle explanations.
//!
//! Invariant: `ord` is a permutation of the nodes such that every edge goes from a smaller to a
//! larger position. Inserting an edge that already goes forward costs O(1). Otherwise only the
//! nodes between the two positions are searched: forward from the head (a cycle exists iff the
//! tail is reached) and backward from the tail, and the two sets swap their positions. Removing
//! an edge never invalidates the order, so backtracking is popping edges.
//!
//! Every edge carries up to three literals (its reason; none for static program order). When an
//! insertion would close a cycle, the forward search is a 0-1 breadth-first search in which an
//! edge with literals costs one, so the path it returns has the fewest literal-carrying edges
//! among the paths inside the searched window: the conflict clauses of the theory are short.

use std::collections::VecDeque;

use solver_glue::Lit;

/// The literals that make an edge present (at most three; empty for static edges).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reason {
    lits: [Lit; 3],
    len: u8,
}

impl Reason {
    pub(crate) fn none() -> Reason {
        Reason {
            lits: [Lit::from_dimacs(1); 3],
            len: 0,
        }
    }

    /// The reason made of `lits` (at most three, duplicates kept out by the caller).
    pub(crate) fn of(lits: &[Lit]) -> Reason {
        debug_assert!(lits.len() <= 3);
        let mut r = Reason::none();
        for &l in lits {
            r.lits[r.len as usize] = l;
            r.len += 1;
        }
        r
    }

    pub(crate) fn lits(&self) -> &[Lit] {
        &self.lits[..self.len as usize]
    }
}

#[derive(Copy, Clone, Debug)]
struct Edge {
    from: u32,
    to: u32,
    reason: Reason,
}

/// The graph. Nodes are `0..n`.
pub(crate) struct Dag {
    /// Position of each node in the topological order.
    ord: Vec<u32>,
    out: Vec<Vec<u32>>,
    inc: Vec<Vec<u32>>,
    /// All edges, in insertion order (removal pops).
    edges: Vec<Edge>,
    // Scratch of the searches: a node is visited in the current search iff `seen[v] == stamp`.
    seen: Vec<u32>,
    stamp: u32,
    dist: Vec<u32>,
    parent: Vec<u32>,
    deque: VecDeque<u32>,
    fwd: Vec<u32>,
    bwd: Vec<u32>,
    pool: Vec<u32>,
    /// Work counter: nodes visited by searches (for statistics).
    pub(crate) visited: u64,
}

/// `Dag::insert` found that the edge would close a cycle.
pub(crate) struct Cycle;

impl Dag {
    /// A graph over `n` nodes with the static `edges` (which must be acyclic) and no reasons.
    /// Returns `None` if they contain a cycle.
    pub(crate) fn new(n: usize, edges: &[(u32, u32)]) -> Option<Dag> {
        let order = crate::program_order::topological_order(
            n,
            &edges
                .iter()
                .map(|&(a, b)| (a as usize, b as usize))
                .collect::<Vec<_>>(),
        )?;
        let mut ord = vec![0u32; n];
        for (i, &v) in order.iter().enumerate() {
            ord[v] = i as u32;
        }
        let mut dag = Dag {
            ord,
            out: vec![Vec::new(); n],
            inc: vec![Vec::new(); n],
            edges: Vec::with_capacity(edges.len() * 2),
            seen: vec![0; n],
            stamp: 0,
            dist: vec![0; n],
            parent: vec![0; n],
            deque: VecDeque::new(),
            fwd: Vec::new(),
            bwd: Vec::new(),
            pool: Vec::new(),
            visited: 0,
        };
        for &(a, b) in edges {
            dag.push(a, b, Reason::none());
        }
        Some(dag)
    }

    /// Number of edges present (a mark for [`Dag::truncate`]).
    pub(crate) fn num_edges(&self) -> usize {
        self.edges.len()
    }

    /// Removes the edges inserted after the mark `len`.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.edges.len() > len {
            let e = self.edges.pop().expect("an edge above the mark");
            let id = self.edges.len() as u32;
            let popped = self.out[e.from as usize].pop();
            debug_assert_eq!(popped, Some(id));
            let popped = self.inc[e.to as usize].pop();
            debug_assert_eq!(popped, Some(id));
        }
    }

    /// The nodes in topological order.
    pub(crate) fn order(&self) -> Vec<u32> {
        let mut nodes = vec![0u32; self.ord.len()];
        for (v, &o) in self.ord.iter().enumerate() {
            nodes[o as usize] = v as u32;
        }
        nodes
    }

    fn push(&mut self, from: u32, to: u32, reason: Reason) {
        let id = self.edges.len() as u32;
        self.edges.push(Edge { from, to, reason });
        self.out[from as usize].push(id);
        self.inc[to as usize].push(id);
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Inserts `from → to` with `reason`. On a cycle nothing is inserted and `path` receives the
    /// reasons of a path `to ⇝ from` with the fewest literal-carrying edges in the searched
    /// window (the cycle is that path plus the new edge). `from != to`.
    pub(crate) fn insert(
        &mut self,
        from: u32,
        to: u32,
        reason: Reason,
        path: &mut Vec<Lit>,
    ) -> Result<(), Cycle> {
        debug_assert_ne!(from, to);
        let (lb, ub) = (self.ord[to as usize], self.ord[from as usize]);
        if ub < lb {
            self.push(from, to, reason);
            return Ok(());
        }
        // Forward from `to` among positions ≤ ub: 0-1 BFS on the number of reasoned edges.
        let stamp = self.next_stamp();
        self.fwd.clear();
        self.deque.clear();
        self.seen[to as usize] = stamp;
        self.dist[to as usize] = 0;
        self.deque.push_back(to);
        while let Some(u) = self.deque.pop_front() {
            self.visited += 1;
            if u == from {
                let mut v = from;
                while v != to {
                    let e = self.edges[self.parent[v as usize] as usize];
                    path.extend_from_slice(e.reason.lits());
                    v = e.from;
                }
                return Err(Cycle);
            }
            let du = self.dist[u as usize];
            for &id in &self.out[u as usize] {
                let e = self.edges[id as usize];
                let v = e.to as usize;
                if self.ord[v] > ub {
                    continue;
                }
                let w = u32::from(e.reason.len > 0);
                let nd = du + w;
                if self.seen[v] != stamp || nd < self.dist[v] {
                    if self.seen[v] != stamp {
                        self.seen[v] = stamp;
                        self.fwd.push(v as u32);
                    }
                    self.dist[v] = nd;
                    self.parent[v] = id;
                    if w == 0 {
                        self.deque.push_front(v as u32);
                    } else {
                        self.deque.push_back(v as u32);
                    }
                }
            }
        }
        self.fwd.push(to);
        // Backward from `from` among positions > lb.
        let stamp = self.next_stamp();
        self.bwd.clear();
        self.seen[from as usize] = stamp;
        self.deque.push_back(from);
        while let Some(u) = self.deque.pop_back() {
            self.visited += 1;
            self.bwd.push(u);
            for &id in &self.inc[u as usize] {
                let v = self.edges[id as usize].from as usize;
                if self.ord[v] > lb && self.seen[v] != stamp {
                    self.seen[v] = stamp;
                    self.deque.push_back(v as u32);
                }
            }
        }
        // The backward set takes the smallest of the freed positions, in its old order, then
        // the forward set.
        let ord = &self.ord;
        self.fwd.sort_unstable_by_key(|&v| ord[v as usize]);
        self.bwd.sort_unstable_by_key(|&v| ord[v as usize]);
        self.pool.clear();
        self.pool
            .extend(self.bwd.iter().chain(&self.fwd).map(|&v| ord[v as usize]));
        self.pool.sort_unstable();
        for (i, &v) in self.bwd.iter().chain(self.fwd.iter()).enumerate() {
            self.ord[v as usize] = self.pool[i];
        }
        self.push(from, to, reason);
        Ok(())
    }

    /// The position of `v` in the topological order: `u ⇝ v` is only possible when
    /// `position(u) < position(v)`.
    pub(crate) fn position(&self, v: u32) -> u32 {
        self.ord[v as usize]
    }

    /// A 0-1 breadth-first search from `start`, forward along out-edges (`forward`) or backward
    /// along in-edges, through nodes whose position is within `bound` (at most it going forward,
    /// at least it going backward), stopping after `budget` visits. Afterwards
    /// [`Dag::reached`] and [`Dag::path_reasons`] answer for the nodes it reached, until the
    /// next search or insertion. Returns the visits made, or `None` if the budget ran out.
    pub(crate) fn search(
        &mut self,
        start: u32,
        forward: bool,
        bound: u32,
        budget: u32,
    ) -> Option<u32> {
        let stamp = self.next_stamp();
        self.deque.clear();
        self.seen[start as usize] = stamp;
        self.dist[start as usize] = 0;
        self.parent[start as usize] = u32::MAX;
        self.deque.push_back(start);
        let mut visits = 0u32;
        while let Some(u) = self.deque.pop_front() {
            visits += 1;
            if visits > budget {
                self.visited += u64::from(visits);
                return None;
            }
            let du = self.dist[u as usize];
            let list = if forward {
                &self.out[u as usize]
            } else {
                &self.inc[u as usize]
            };
            for &id in list {
                let e = self.edges[id as usize];
                let v = if forward { e.to } else { e.from } as usize;
                let p = self.ord[v];
                if (forward && p > bound) || (!forward && p < bound) {
                    continue;
                }
                let w = u32::from(e.reason.len > 0);
                let nd = du + w;
                if self.seen[v] != stamp || nd < self.dist[v] {
                    self.seen[v] = stamp;
                    self.dist[v] = nd;
                    self.parent[v] = id;
                    if w == 0 {
                        self.deque.push_front(v as u32);
                    } else {
                        self.deque.push_back(v as u32);
                    }
                }
            }
        }
        self.visited += u64::from(visits);
        Some(visits)
    }

    /// Whether the last [`Dag::search`] reached `v`.
    pub(crate) fn reached(&self, v: u32) -> bool {
        self.seen[v as usize] == self.stamp
    }

    /// The reasons of the path the last [`Dag::search`] found to `v` (which it reached).
    pub(crate) fn path_reasons(&self, v: u32, out: &mut Vec<Lit>) {
        let mut v = v;
        while self.parent[v as usize] != u32::MAX {
            let e = self.edges[self.parent[v as usize] as usize];
            out.extend_from_slice(e.reason.lits());
            // Going forward the parent edge ends at v; going backward it starts at v.
            v = if e.to == v { e.from } else { e.to };
        }
    }

    /// Whether the current order respects every edge (for tests and debug checks).
    #[cfg(test)]
    pub(crate) fn order_is_valid(&self) -> bool {
        self.edges
            .iter()
            .all(|e| self.ord[e.from as usize] < self.ord[e.to as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(n: i32) -> Lit {
        Lit::from_dimacs(n)
    }

    #[test]
    fn forward_edges_are_free_and_back_edges_reorder() {
        let mut g = Dag::new(4, &[(0, 1)]).unwrap();
        let mut path = Vec::new();
        assert!(g.insert(2, 3, Reason::of(&[lit(5)]), &mut path).is_ok());
        assert!(g.insert(3, 0, Reason::of(&[lit(6)]), &mut path).is_ok());
        assert!(g.order_is_valid());
        let order = g.order();
        let pos = |v: u32| order.iter().position(|&x| x == v).unwrap();
        assert!(pos(2) < pos(3) && pos(3) < pos(0) && pos(0) < pos(1));
    }

    #[test]
    fn a_cycle_is_refused_with_the_cheapest_path() {
        // 0 →(a) 1 →(b) 2 and a static path 0 → 3 → 2; closing 2 → 0 must blame no literal
        // but the new edge's, since the static path costs nothing.
        let mut g = Dag::new(4, &[(0, 3), (3, 2)]).unwrap();
        let mut path = Vec::new();
        g.insert(0, 1, Reason::of(&[lit(1)]), &mut path)
            .ok()
            .unwrap();
        g.insert(1, 2, Reason::of(&[lit(2)]), &mut path)
            .ok()
            .unwrap();
        assert!(g.insert(2, 0, Reason::of(&[lit(3)]), &mut path).is_err());
        assert!(path.is_empty(), "{path:?}");
        // Without the static path the cycle needs both literals.
        let mut g = Dag::new(3, &[]).unwrap();
        g.insert(0, 1, Reason::of(&[lit(1)]), &mut path)
            .ok()
            .unwrap();
        g.insert(1, 2, Reason::of(&[lit(2)]), &mut path)
            .ok()
            .unwrap();
        assert!(g.insert(2, 0, Reason::of(&[lit(3)]), &mut path).is_err());
        path.sort();
        assert_eq!(path, vec![lit(1), lit(2)]);
    }

    #[test]
    fn truncation_restores_insertability() {
        let mut g = Dag::new(3, &[]).unwrap();
        let mut path = Vec::new();
        let mark = g.num_edges();
        g.insert(0, 1, Reason::of(&[lit(1)]), &mut path)
            .ok()
            .unwrap();
        g.insert(1, 2, Reason::of(&[lit(2)]), &mut path)
            .ok()
            .unwrap();
        assert!(g.insert(2, 0, Reason::none(), &mut path).is_err());
        g.truncate(mark);
        assert!(g.insert(2, 0, Reason::none(), &mut path).is_ok());
        assert!(g.order_is_valid());
    }

    /// Random insertions against a brute-force reachability check.
    #[test]
    fn agrees_with_brute_force_reachability() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let n = 2 + (next() % 9) as usize;
            let mut g = Dag::new(n, &[]).unwrap();
            let mut adj = vec![vec![false; n]; n];
            for _ in 0..3 * n {
                let (a, b) = ((next() % n as u64) as usize, (next() % n as u64) as usize);
                if a == b {
                    continue;
                }
                // b reaches a in the brute-force graph?
                let mut reach = vec![false; n];
                let mut stack = vec![b];
                reach[b] = true;
                while let Some(u) = stack.pop() {
                    for v in 0..n {
                        if adj[u][v] && !reach[v] {
                            reach[v] = true;
                            stack.push(v);
                        }
                    }
                }
                let mut path = Vec::new();
                let r = g.insert(a as u32, b as u32, Reason::of(&[lit(1)]), &mut path);
                assert_eq!(r.is_err(), reach[a]);
                if r.is_ok() {
                    adj[a][b] = true;
                }
                assert!(g.order_is_valid());
            }
        }
    }
}
