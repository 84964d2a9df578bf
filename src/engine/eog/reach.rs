//! Algorithm 1 without reasons: the fixpoint of R1–R3 as a dense reachability bit matrix.
//!
//! Invariant: row u holds exactly the nodes v with u ≺ v derivable from the edges inserted so
//! far (R1 is kept implicitly by inserting an edge (a, b) into every row that reaches a).
//! Every pair that becomes ordered fires R2/R3 once; derived edges go through the same
//! insertion. This decides "cycle or not" for the whole graph in O(edges · n²/64) word
//! operations and lets the closure skip reason tracking when there is no cycle.

use cranelift_entity::EntityRef;

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

/// Result of the reason-free closure.
pub(crate) struct Reach {
    pub m: BitMatrix,
    /// Edges derived by R2/R3 that added something: (from, to, kind).
    pub derived: Vec<(Node, Node, u8)>,
}

impl Reach {
    pub fn has_cycle(&self) -> bool {
        (0..self.m.n).any(|u| self.m.get(u, u))
    }
}

/// Saturates the base edges of `rules` under R1–R3.
pub(crate) fn saturate(rules: &Rules) -> Reach {
    let n = rules.n;
    let mut m = BitMatrix::new(n);
    let mut derived = Vec::new();
    for (node, _) in &rules.self_conflicts {
        m.set(node.index(), node.index());
    }
    let mut queue: Vec<(usize, usize, u8)> = rules
        .base
        .iter()
        .rev()
        .filter(|e| !e.shortcut)
        .map(|e| (e.from.index(), e.to.index(), e.kind))
        .collect();
    let mut src = vec![0u64; m.words];
    let mut fresh: Vec<(usize, usize)> = Vec::new();
    while let Some((a, b, k)) = queue.pop() {
        if m.get(a, b) {
            continue;
        }
        if k & (kind::R2 | kind::R3) != 0 {
            derived.push((Node::new(a), Node::new(b), k));
        }
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
    Reach { m, derived }
}

/// R2/R3 triggered by the new order u ≺ v.
fn fire(rules: &Rules, u: usize, v: usize, queue: &mut Vec<(usize, usize, u8)>) {
    if u == v {
        return;
    }
    let (un, vn) = (Node::new(u), Node::new(v));
    // R2: w ◁ r with r in v, u writes var(w), u ≠ node(w) ⇒ u ≺ node(w).
    for &i in &rules.rf_in[vn] {
        let rf = &rules.rfs[i as usize];
        if rf.w != un && rules.writes_of(un, rf.loc).is_some() {
            queue.push((u, rf.w.index(), kind::R2));
        }
    }
    // R3: w ◁ r with w in u, v writes var(w), v ≠ node(r) ⇒ node(r) ≺ v.
    for &i in &rules.rf_out[un] {
        let rf = &rules.rfs[i as usize];
        if rf.r != vn && rules.writes_of(vn, rf.loc).is_some() {
            queue.push((rf.r.index(), v, kind::R3));
        }
    }
}
