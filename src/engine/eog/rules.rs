//! The node-level premises of rules R1–R3, lowered from the event graph once per closure:
//! base edges between distinct nodes, read-from facts that cross nodes (indexed by reading and
//! by writing node), the writes each node makes per location, and the conflicts that atomic
//! blocks cause on their own.
//!
//! Why rf edges inside or into a block need care: a node's events share one clock, so an rf
//! edge whose ends share a node orders nothing between nodes; it only constrains positions
//! inside the node (the write must come first with no write of the location in between). For
//! an rf edge (w, r) across nodes W ≠ R, the other writes of the location in W must precede w
//! and those in R must follow r, or they sit between w and r. Writes in third nodes are
//! handled by R2/R3 at node level, which must therefore skip the nodes W and R themselves
//! (a lock acquire, read m then write m, would otherwise derive R ≺ R from its own write).

use cranelift_entity::{EntityRef, SecondaryMap};
use solver_glue::Lit;

use super::graph::{Access, EogBuilder, Event, Loc, Node};

/// Why an explicit edge exists (bit flags; an edge may have several).
pub(crate) mod kind {
    pub const PO: u8 = 1;
    pub const RF: u8 = 2;
    pub const R2: u8 = 4;
    pub const R3: u8 = 8;
}

/// An rf edge whose write and read sit in different nodes.
#[derive(Clone, Debug)]
pub(crate) struct CrossRf {
    pub w: Node,
    pub r: Node,
    pub loc: Loc,
    pub link: Lit,
}

/// A base edge between distinct nodes with its single reason.
#[derive(Clone, Debug)]
pub(crate) struct BaseEdge {
    pub from: Node,
    pub to: Node,
    pub kind: u8,
    pub reason: Vec<Lit>,
    /// A po shortcut over guarded events: adds a shorter reason, never a new order.
    pub shortcut: bool,
    /// The events it connects (po: source and target; rf: write and read).
    pub events: (Event, Event),
}

/// Most events one po shortcut search visits from one event.
const SHORTCUT_REACH: usize = 256;

/// Per location a node writes: the guard alternatives of those writes (`None` = unconditional,
/// then the only entry).
pub(crate) type NodeWrites = Vec<(Loc, Vec<Option<Lit>>)>;

pub(crate) struct Rules {
    pub n: usize,
    pub base: Vec<BaseEdge>,
    pub rfs: Vec<CrossRf>,
    /// Cross rf facts by reading node.
    pub rf_in: SecondaryMap<Node, Vec<u32>>,
    /// Cross rf facts by writing node.
    pub rf_out: SecondaryMap<Node, Vec<u32>>,
    /// Per node, per location it writes: the guard alternatives of those writes. `None` in
    /// the list means an unconditional write (then it is the only entry).
    pub writes: SecondaryMap<Node, NodeWrites>,
    /// Conflicts inside single nodes: (node, reason).
    pub self_conflicts: Vec<(Node, Vec<Lit>)>,
    /// For each link literal, the guards it implies (of its write and its read).
    pub link_guards: Vec<(Lit, Vec<Lit>)>,
}

impl Rules {
    pub fn lower(g: &EogBuilder) -> Rules {
        let n = g.nodes.len();
        let mut writes: SecondaryMap<Node, NodeWrites> = SecondaryMap::new();
        for (node, data) in g.nodes.iter() {
            let mut per_loc: NodeWrites = Vec::new();
            for &e in &data.events {
                let ev = &g.events[e];
                if ev.access != Access::Write {
                    continue;
                }
                let alts = match per_loc.iter_mut().find(|(l, _)| *l == ev.loc) {
                    Some((_, alts)) => alts,
                    None => {
                        per_loc.push((ev.loc, Vec::new()));
                        &mut per_loc.last_mut().expect("just pushed").1
                    }
                };
                if alts.first() == Some(&None) {
                    continue;
                }
                match ev.guard {
                    None => *alts = vec![None],
                    Some(gl) => {
                        if !alts.contains(&Some(gl)) {
                            alts.push(Some(gl));
                        }
                    }
                }
            }
            per_loc.sort_by_key(|(l, _)| *l);
            writes[node] = per_loc;
        }

        let mut base = Vec::new();
        let mut self_conflicts = Vec::new();
        let po_reason = |a: Event, b: Event| -> Vec<Lit> {
            let mut r: Vec<Lit> = [g.events[a].guard, g.events[b].guard]
                .into_iter()
                .flatten()
                .collect();
            r.sort_unstable();
            r.dedup();
            r
        };
        let mut po_succ: SecondaryMap<Event, Vec<Event>> = SecondaryMap::new();
        for p in &g.po {
            po_succ[p.from].push(p.to);
            let (a, b) = (&g.events[p.from], &g.events[p.to]);
            if a.node != b.node {
                base.push(BaseEdge {
                    from: a.node,
                    to: b.node,
                    kind: kind::PO,
                    reason: po_reason(p.from, p.to),
                    shortcut: false,
                    events: (p.from, p.to),
                });
            } else if a.pos >= b.pos {
                self_conflicts.push((a.node, po_reason(p.from, p.to)));
            }
        }
        // Shortcuts: composing po edges would put the guards of the events in between into the
        // reason. From each event, walk forward through events whose guard differs from its
        // own (and is not constant true: an unguarded event adds nothing to a composition) and
        // add a direct edge with the two end guards.
        let mut seen: SecondaryMap<Event, u32> = SecondaryMap::new();
        let mut stack = Vec::new();
        for (a, ad) in g.events.iter() {
            let stamp = a.index() as u32 + 1;
            stack.clear();
            stack.extend(po_succ[a].iter().copied());
            let mut visited = 0;
            while let Some(c) = stack.pop() {
                if seen[c] == stamp || visited == SHORTCUT_REACH {
                    continue;
                }
                seen[c] = stamp;
                visited += 1;
                let cd = &g.events[c];
                let direct = po_succ[a].contains(&c);
                if !direct && cd.node != ad.node {
                    base.push(BaseEdge {
                        from: ad.node,
                        to: cd.node,
                        kind: kind::PO,
                        reason: po_reason(a, c),
                        shortcut: true,
                        events: (a, c),
                    });
                }
                if cd.guard.is_some() && cd.guard != ad.guard {
                    stack.extend(po_succ[c].iter().copied());
                }
            }
        }

        let mut rfs = Vec::new();
        let mut link_guards = Vec::new();
        let mut rf_in: SecondaryMap<Node, Vec<u32>> = SecondaryMap::new();
        let mut rf_out: SecondaryMap<Node, Vec<u32>> = SecondaryMap::new();
        for rf in &g.rf {
            let (w, r) = (&g.events[rf.write], &g.events[rf.read]);
            let loc = w.loc;
            let implied: Vec<Lit> = [w.guard, r.guard].into_iter().flatten().collect();
            if !implied.is_empty() {
                link_guards.push((rf.link, implied));
            }
            // Writes of `loc` in node `node` at positions in `range` lie between w and r.
            let mut between = |node: Node, range: std::ops::Range<u32>| {
                for &e in &g.nodes[node].events {
                    let ev = &g.events[e];
                    if ev.access == Access::Write && ev.loc == loc && range.contains(&ev.pos) {
                        let mut reason = vec![rf.link];
                        reason.extend(ev.guard);
                        self_conflicts.push((node, reason));
                    }
                }
            };
            if w.node == r.node {
                if w.pos > r.pos {
                    self_conflicts.push((w.node, vec![rf.link]));
                } else {
                    between(w.node, w.pos + 1..r.pos);
                }
                continue;
            }
            between(w.node, w.pos + 1..u32::MAX);
            between(r.node, 0..r.pos);
            let idx = rfs.len() as u32;
            rfs.push(CrossRf {
                w: w.node,
                r: r.node,
                loc,
                link: rf.link,
            });
            rf_in[r.node].push(idx);
            rf_out[w.node].push(idx);
            base.push(BaseEdge {
                from: w.node,
                to: r.node,
                kind: kind::RF,
                reason: vec![rf.link],
                shortcut: false,
                events: (rf.write, rf.read),
            });
        }
        for (_, reason) in self_conflicts.iter_mut() {
            reason.sort_unstable();
            reason.dedup();
        }
        Rules {
            n,
            base,
            rfs,
            rf_in,
            rf_out,
            writes,
            self_conflicts,
            link_guards,
        }
    }

    /// Guard alternatives of the writes of `loc` in `node`, if it writes `loc`.
    pub fn writes_of(&self, node: Node, loc: Loc) -> Option<&[Option<Lit>]> {
        self.writes[node]
            .iter()
            .find(|(l, _)| *l == loc)
            .map(|(_, alts)| alts.as_slice())
    }
}
