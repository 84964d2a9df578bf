//! The input of the EOG analysis: the events of one abstract counterexample, grouped into
//! nodes (an atomic block is one node), with program-order and read-from edges.
//!
//! Semantics (Def. 4.4 of the paper, extended with atomic blocks): a valid schedule gives every
//! node one clock value, distinct across nodes; inside a node, events run in the order they
//! were added. Events are thereby totally ordered by (clock of their node, position in node).
//! A po edge (a, b) requires a before b; an rf edge (w, r) requires w before r and no other
//! write of the location in between.

use cranelift_entity::{entity_impl, PrimaryMap};
use hashbrown::HashMap;
use solver_glue::Lit;

use super::closure::Analysis;

/// One shared-memory access of the counterexample.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event(u32);
entity_impl!(Event, "e");

/// A scheduling unit: a single event, or all events of one atomic block.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(u32);
entity_impl!(Node, "n");

/// The thread an event belongs to (the caller's numbering).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadId(u32);
entity_impl!(ThreadId, "t");

/// A shared location (the caller's numbering of shared variables).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc(u32);
entity_impl!(Loc, "v");

/// One dynamic instance of an atomic block (the caller's numbering). Events added with the
/// same key form one indivisible node.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockKey(u32);
entity_impl!(BlockKey, "blk");

/// Whether an event reads or writes its location.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Access {
    Read,
    Write,
}

/// What the graph knows about one event.
#[derive(Clone, Debug)]
pub struct EventData {
    pub thread: ThreadId,
    pub loc: Loc,
    pub access: Access,
    /// Guard literal; `None` when the event executes unconditionally.
    pub guard: Option<Lit>,
    pub block: Option<BlockKey>,
    /// The node holding this event.
    pub node: Node,
    /// Position inside the node (0 for a lone event).
    pub pos: u32,
    /// Optional name for Graphviz output.
    pub label: Option<String>,
}

/// A scheduling unit.
#[derive(Clone, Debug)]
pub struct NodeData {
    pub thread: ThreadId,
    pub block: Option<BlockKey>,
    /// Events in execution order.
    pub events: Vec<Event>,
}

/// A program-order edge (also a create or join order): `from` executes before `to`.
///
/// Program order is static: it holds between two events whenever both execute, and it is
/// transitive whatever runs in between. The closure therefore uses {guard(a), guard(c)} as a
/// reason for every po path from a to c, not the guards of the events on the path.
#[derive(Copy, Clone, Debug)]
pub struct PoEdge {
    pub from: Event,
    pub to: Event,
}

/// A read-from edge: `read` takes its value from `write` when `link` holds.
#[derive(Copy, Clone, Debug)]
pub struct RfEdge {
    pub write: Event,
    pub read: Event,
    pub link: Lit,
}

/// Builds the event order graph of one counterexample and runs the closure on it
/// ([`EogBuilder::close`]).
#[derive(Default)]
pub struct EogBuilder {
    pub(crate) events: PrimaryMap<Event, EventData>,
    pub(crate) nodes: PrimaryMap<Node, NodeData>,
    block_node: HashMap<BlockKey, Node>,
    pub(crate) po: Vec<PoEdge>,
    pub(crate) rf: Vec<RfEdge>,
    pub(crate) analysis: Option<Analysis>,
}

impl EogBuilder {
    pub fn new() -> EogBuilder {
        EogBuilder::default()
    }

    /// Adds an event whose guard is true in the counterexample. Events of one atomic block
    /// must be added in their execution order and belong to one thread.
    pub fn add_event(
        &mut self,
        thread: ThreadId,
        loc: Loc,
        access: Access,
        guard: Option<Lit>,
        block: Option<BlockKey>,
    ) -> Event {
        self.analysis = None;
        let node = match block.and_then(|b| self.block_node.get(&b).copied()) {
            Some(node) => {
                assert_eq!(
                    self.nodes[node].thread, thread,
                    "an atomic block belongs to one thread"
                );
                node
            }
            None => {
                let node = self.nodes.push(NodeData {
                    thread,
                    block,
                    events: Vec::new(),
                });
                if let Some(b) = block {
                    self.block_node.insert(b, node);
                }
                node
            }
        };
        let pos = self.nodes[node].events.len() as u32;
        let event = self.events.push(EventData {
            thread,
            loc,
            access,
            guard,
            block,
            node,
            pos,
            label: None,
        });
        self.nodes[node].events.push(event);
        event
    }

    /// Names an event in Graphviz output.
    pub fn set_label(&mut self, event: Event, label: impl Into<String>) {
        self.events[event].label = Some(label.into());
    }

    /// Adds a program-order (or create/join) edge of the static program order restricted to
    /// the executed events. Its reason is the guards of both ends.
    pub fn add_po(&mut self, from: Event, to: Event) {
        self.analysis = None;
        self.po.push(PoEdge { from, to });
    }

    /// Adds a read-from edge selected by link literal `link`. The encoding must make `link`
    /// imply the guards of both events: reasons drop those guards next to the link.
    pub fn add_rf(&mut self, write: Event, read: Event, link: Lit) {
        self.analysis = None;
        let (w, r) = (&self.events[write], &self.events[read]);
        assert_eq!(w.access, Access::Write, "rf source must be a write");
        assert_eq!(r.access, Access::Read, "rf target must be a read");
        assert_eq!(
            w.loc, r.loc,
            "rf edge must connect accesses of one location"
        );
        self.rf.push(RfEdge { write, read, link });
    }

    pub fn event(&self, e: Event) -> &EventData {
        &self.events[e]
    }

    pub fn node(&self, n: Node) -> &NodeData {
        &self.nodes[n]
    }

    pub fn num_events(&self) -> usize {
        self.events.len()
    }

    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    pub fn po_edges(&self) -> &[PoEdge] {
        &self.po
    }

    pub fn rf_edges(&self) -> &[RfEdge] {
        &self.rf
    }

    /// Every literal the graph depends on: guards and links. Their conjunction entails the
    /// whole graph, so it is always a (weak) reason of an infeasible graph.
    pub fn all_literals(&self) -> Vec<Lit> {
        let mut lits: Vec<Lit> = self.events.values().filter_map(|e| e.guard).collect();
        lits.extend(self.rf.iter().map(|r| r.link));
        lits.sort_unstable();
        lits.dedup();
        lits
    }

    /// A short name for an event: its label, or `e<N>`.
    pub fn event_name(&self, e: Event) -> String {
        match &self.events[e].label {
            Some(l) => l.clone(),
            None => e.to_string(),
        }
    }
}
