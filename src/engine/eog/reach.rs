//! Algorithm 1 without reasons: the fixpoint of R1–R3 as a dense reachability bit matrix.
//!
//! Invariant: row u holds exactly the nodes v with u ≺ v derivable from the edges inserted so
//! far (R1 is kept implicitly by inserting an edge (a, b) into every row that reaches a).
//! Every pair that becomes ordered fires R2/R3 once; derived edges go through the same
//! insertion. This decides "cycle or not" for the whole graph in O(edges · n²/64) word
//! operations and lets the closure skip reason tracking when there is no cycle.

use cranelift_entity::EntityRef;
use hashbrown::HashMap;

use super::graph::Node;
use super::rules::{kind, Rules};

/// A square bit matrix: bit (u, v) set iff u ≺ v.
pub(crate) struct BitMatrix {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl BitMatrix {
    pub fn new(n: usize) -> BitMatrix {
        let words = n.div_ceil(64);
        BitMatrix {
            n,
            words,
            bits: vec![0; n * words],
        }
    }

    #[inline]
    pub fn get(&self, u: usize, v: usize) -> bool {
        self.bits[u * self.words + v / 64] >> (v % 64) & 1 == 1
    }

    #[inline]
    pub fn set(&mut self, u: usize, v: usize) {
        self.bits[u * self.words + v / 64] |= 1 << (v % 64);
    }

    pub fn row(&self, u: usize) -> &[u64] {
        &self.bits[u * self.words..(u + 1) * self.words]
    }

    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    pub fn n(&self) -> usize {
        self.n
    }
}

/// Why an edge was inserted.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Origin {
    /// `rules.base[i]`.
    Base(u32),
    /// R2 or R3 applied to cross rf `rf` and the order p ≺ q (R2: p is the other write's
    /// node, q the reading node; R3: p is the writing node, q the other write's node).
    Rule { kind: u8, rf: u32, p: u32, q: u32 },
}

/// An edge that added orders, in insertion order (its index is its timestamp).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Logged {
    pub from: Node,
    pub to: Node,
    pub origin: Origin,
}

/// Result of the reason-free closure.
pub(crate) struct Reach {
    pub m: BitMatrix,
    /// Edges derived by R2/R3 that added something: (from, to, kind).
    pub derived: Vec<(Node, Node, u8)>,
    /// Every edge that added something, with its origin: the premises of each derived edge
    /// were ordered by edges logged before it, which is what explanations walk back along.
    pub log: Vec<Logged>,
}

impl Reach {
    pub fn has_cycle(&self) -> bool {
        (0..self.m.n).any(|u| self.m.get(u, u))
    }
}

/// Most alternative derivations of one ordered pair kept in the log.
const MAX_ALTERNATIVES: u8 = 4;

/// Saturates the base edges of `rules` under R1–R3.
pub(crate) fn saturate(rules: &Rules) -> Reach {
    let n = rules.n;
    let mut m = BitMatrix::new(n);
    let mut derived = Vec::new();
    for (node, _) in &rules.self_conflicts {
        m.set(node.index(), node.index());
    }
    let mut log = Vec::new();
    let mut queue: Vec<(usize, usize, Origin)> = rules
        .base
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, e)| !e.shortcut)
        .map(|(i, e)| (e.from.index(), e.to.index(), Origin::Base(i as u32)))
        .collect();
    let mut src = vec![0u64; m.words];
    let mut fresh: Vec<(usize, usize)> = Vec::new();
    // Derivations of an already ordered pair add no order, but a few are kept in the log as
    // alternative direct edges: explanations then pick the one with the shortest reason.
    let mut alternatives: HashMap<(u32, u32), u8> = HashMap::new();
    while let Some((a, b, origin)) = queue.pop() {
        if m.get(a, b) {
            // Base edges are always logged: they are the cheapest explanation of their pair.
            let keep = match origin {
                Origin::Base(_) => true,
                Origin::Rule { .. } => {
                    let seen = alternatives.entry((a as u32, b as u32)).or_insert(0);
                    *seen += 1;
                    *seen <= MAX_ALTERNATIVES
                }
            };
            if keep {
                log.push(Logged {
                    from: Node::new(a),
                    to: Node::new(b),
                    origin,
                });
            }
            continue;
        }
        if let Origin::Rule { kind, .. } = origin {
            derived.push((Node::new(a), Node::new(b), kind));
        }
        log.push(Logged {
            from: Node::new(a),
            to: Node::new(b),
            origin,
        });
        src.copy_from_slice(m.row(b));
        src[b / 64] |= 1 << (b % 64);
        for u in 0..n {
            if u != a && !m.get(u, a) {
                continue;
            }
            let row = &mut m.bits[u * m.words..(u + 1) * m.words];
            for (w, (r, s)) in row.iter_mut().zip(src.iter()).enumerate() {
                let mut new = s & !*r;
                *r |= new;
                while new != 0 {
                    let bit = new.trailing_zeros() as usize;
                    new &= new - 1;
                    fresh.push((u, w * 64 + bit));
                }
            }
        }
        for (u, v) in fresh.drain(..) {
            fire(rules, u, v, &mut queue);
        }
    }
    Reach { m, derived, log }
}

/// R2/R3 triggered by the new order u ≺ v.
fn fire(rules: &Rules, u: usize, v: usize, queue: &mut Vec<(usize, usize, Origin)>) {
    if u == v {
        return;
    }
    let (un, vn) = (Node::new(u), Node::new(v));
    // R2: w ◁ r with r in v, u writes var(w), u ≠ node(w) ⇒ u ≺ node(w).
    for &i in &rules.rf_in[vn] {
        let rf = &rules.rfs[i as usize];
        if rf.w != un && rules.writes_of(un, rf.loc).is_some() {
            let origin = Origin::Rule {
                kind: kind::R2,
                rf: i,
                p: u as u32,
                q: v as u32,
            };
            queue.push((u, rf.w.index(), origin));
        }
    }
    // R3: w ◁ r with w in u, v writes var(w), v ≠ node(r) ⇒ node(r) ≺ v.
    for &i in &rules.rf_out[un] {
        let rf = &rules.rfs[i as usize];
        if rf.r != vn && rules.writes_of(vn, rf.loc).is_some() {
            let origin = Origin::Rule {
                kind: kind::R3,
                rf: i,
                p: u as u32,
                q: v as u32,
            };
            queue.push((rf.r.index(), v, origin));
        }
    }
}
