//! Program order as a graph and its transitive closure.
//!
//! The graph has one node per event plus synchronisation nodes: the start and end of every
//! thread and every create/join point. A thread is a chain `start → items… → end`; a create
//! point links to the child's start, the child's end links to a join point, and the init
//! thread's end links to every other thread's start. An [`crate::SearchOrder`] (symmetry
//! breaking) is an edge between its two events. Going through points (rather than linking
//! events directly) keeps orders such as "the parent's events before the create precede the
//! grandchild's events" when the child has no event before creating the grandchild.
//!
//! [`ProgramOrder`] keeps, per node, the set of nodes after it (dense bitsets): `po_before` is
//! one bit test. Which guarded create/join edges count is chosen at construction.

use crate::equation::{Equation, EquationError, Event, Thread, ThreadItem};
use cranelift_entity::{EntityRef, SecondaryMap};
use solver_glue::Lit;

/// A dense set of node indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    pub(crate) fn with_capacity(n: usize) -> BitSet {
        BitSet {
            words: vec![0; n.div_ceil(64)],
        }
    }
    pub(crate) fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| (w >> (i % 64)) & 1 == 1)
    }
    pub(crate) fn union_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= *b;
        }
    }
}

/// The program-order graph of an equation. Nodes `0..num_events` are the events (by index).
#[derive(Clone, Debug)]
pub(crate) struct PoGraph {
    pub(crate) num_nodes: usize,
    /// `(from, to, guard)`; thread chains carry the true literal.
    pub(crate) edges: Vec<(usize, usize, Lit)>,
    /// Per thread, the node of each item of [`crate::ThreadData::items`].
    pub(crate) item_nodes: SecondaryMap<Thread, Vec<usize>>,
}

impl PoGraph {
    pub(crate) fn build(eq: &Equation) -> PoGraph {
        let num_events = eq.events.len();
        let mut next = num_events;
        let mut fresh = || {
            next += 1;
            next - 1
        };
        let mut start: SecondaryMap<Thread, usize> = SecondaryMap::new();
        let mut end: SecondaryMap<Thread, usize> = SecondaryMap::new();
        let mut item_nodes: SecondaryMap<Thread, Vec<usize>> = SecondaryMap::new();
        let mut create_node = vec![0; eq.creates.len()];
        let mut join_node = vec![0; eq.joins.len()];
        for (t, td) in eq.threads.iter() {
            start[t] = fresh();
            let nodes: Vec<usize> = td
                .items
                .iter()
                .map(|item| match *item {
                    ThreadItem::Event(e) => e.index(),
                    ThreadItem::Create(c) => {
                        create_node[c] = fresh();
                        create_node[c]
                    }
                    ThreadItem::Join(j) => {
                        join_node[j] = fresh();
                        join_node[j]
                    }
                })
                .collect();
            end[t] = fresh();
            item_nodes[t] = nodes;
        }
        let num_nodes = next;
        let mut edges = Vec::new();
        for t in eq.threads.keys() {
            let mut prev = start[t];
            for &n in &item_nodes[t] {
                edges.push((prev, n, eq.true_lit));
                prev = n;
            }
            edges.push((prev, end[t], eq.true_lit));
            if t != eq.init_thread() {
                edges.push((end[eq.init_thread()], start[t], eq.true_lit));
            }
        }
        for (c, edge) in eq.creates.iter().enumerate() {
            edges.push((create_node[c], start[edge.child], edge.guard));
        }
        for (j, edge) in eq.joins.iter().enumerate() {
            edges.push((end[edge.child], join_node[j], edge.guard));
        }
        // Search orders are no program order, but every encoding built on this graph (ξ, the
        // ordering theory, the direct search) must respect them, so they are edges too.
        for o in &eq.search_orders {
            edges.push((o.before.index(), o.after.index(), o.guard));
        }
        PoGraph {
            num_nodes,
            edges,
            item_nodes,
        }
    }
}

/// Topological order of `0..n` under `edges`, or `None` on a cycle.
pub(crate) fn topological_order(n: usize, edges: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut indeg = vec![0usize; n];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        succ[a].push(b);
        indeg[b] += 1;
    }
    let mut stack: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(v) = stack.pop() {
        order.push(v);
        for &s in &succ[v] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                stack.push(s);
            }
        }
    }
    (order.len() == n).then_some(order)
}

/// Transitive program order over an equation's events.
#[derive(Clone, Debug)]
pub struct ProgramOrder {
    graph: PoGraph,
    /// Per node, the nodes strictly after it.
    after: Vec<BitSet>,
}

impl ProgramOrder {
    /// Program order counting the create/join edges whose guard satisfies `active` (the
    /// equation's true literal always counts).
    pub fn new(eq: &Equation, active: impl Fn(Lit) -> bool) -> Result<ProgramOrder, EquationError> {
        let graph = PoGraph::build(eq);
        let edges: Vec<(usize, usize)> = graph
            .edges
            .iter()
            .filter(|&&(_, _, g)| g == eq.true_lit || active(g))
            .map(|&(a, b, _)| (a, b))
            .collect();
        let order =
            topological_order(graph.num_nodes, &edges).ok_or(EquationError::ProgramOrderCycle)?;
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); graph.num_nodes];
        for &(a, b) in &edges {
            succ[a].push(b);
        }
        let mut after = vec![BitSet::default(); graph.num_nodes];
        for &v in order.iter().rev() {
            let mut set = BitSet::with_capacity(graph.num_nodes);
            for &s in &succ[v] {
                set.insert(s);
                set.union_with(&after[s]);
            }
            after[v] = set;
        }
        Ok(ProgramOrder { graph, after })
    }

    /// The order that holds in every execution: only unconditional create/join edges.
    pub fn unconditional(eq: &Equation) -> Result<ProgramOrder, EquationError> {
        ProgramOrder::new(eq, |_| false)
    }

    /// Whether `a` precedes `b` (strictly) in program order.
    pub fn po_before(&self, a: Event, b: Event) -> bool {
        self.after[a.index()].contains(b.index())
    }

    /// Whether some event of `set` (by index) comes after `a`.
    pub(crate) fn any_after(&self, a: Event, set: &BitSet) -> bool {
        self.after[a.index()]
            .words
            .iter()
            .zip(&set.words)
            .any(|(x, y)| x & y != 0)
    }

    pub(crate) fn graph(&self) -> &PoGraph {
        &self.graph
    }
}
