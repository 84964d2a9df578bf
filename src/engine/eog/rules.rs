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

use cranelift_entity::SecondaryMap;
use solver_glue::Lit;

use super::graph::{Access, EogBuilder, Loc, Node};

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
}

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
    pub writes: SecondaryMap<Node, Vec<(Loc, Vec<Option<Lit>>)>>,
    /// Conflicts inside single nodes: (node, reason).
    pub self_conflicts: Vec<(Node, Vec<Lit>)>,
}

impl Rules {
    pub fn lower(g: &EogBuilder) -> Rules {
        let n = g.nodes.len();
        let mut writes: SecondaryMap<Node, Vec<(Loc, Vec<Option<Lit>>)>> = SecondaryMap::new();
        for (node, data) in g.nodes.iter() {
            let mut per_loc: Vec<(Loc, Vec<Option<Lit>>)> = Vec::new();
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
        for p in &g.po {
            let (a, b) = (&g.events[p.from], &g.events[p.to]);
            if a.node != b.node {
                base.push(BaseEdge {
                    from: a.node,
                    to: b.node,
                    kind: kind::PO,
                    reason: p.reason.to_vec(),
                });
            } else if a.pos >= b.pos {
                self_conflicts.push((a.node, p.reason.to_vec()));
            }
        }

        let mut rfs = Vec::new();
        let mut rf_in: SecondaryMap<Node, Vec<u32>> = SecondaryMap::new();
        let mut rf_out: SecondaryMap<Node, Vec<u32>> = SecondaryMap::new();
        for rf in &g.rf {
            let (w, r) = (&g.events[rf.write], &g.events[rf.read]);
            let loc = w.loc;
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
