//! Kernel reasons (Algorithm 2): a reason is a sorted set of literals whose conjunction
//! entails an order; a reason set is an antichain of reasons (no member is a subset of
//! another), capped at K members, the shortest kept.
//!
//! Both are hash-consed, so a reason set is one `u32` and the per-pair table of the closure
//! stays small, equal sets compare in O(1) (which is how the closure notices that an order
//! gained nothing), and `join`/`product` results are cached. Dropping reasons beyond K is
//! sound: every kept reason still entails its order; only pruning power is lost.

use cranelift_entity::{entity_impl, PrimaryMap};
use hashbrown::HashMap;
use solver_glue::Lit;

/// An interned sorted literal set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct ReasonId(u32);
entity_impl!(ReasonId, "o");

/// An interned reason set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct RSet(u32);
entity_impl!(RSet, "O");

/// No reason: the order is not (yet) known.
pub(crate) const NONE: RSet = RSet(0);
/// The empty reason: the order holds unconditionally.
pub(crate) const TRUE: RSet = RSet(1);

struct ReasonData {
    lits: Box<[Lit]>,
    /// One bit per literal hash: `a ⊆ b` needs `sig(a) & !sig(b) == 0`.
    sig: u64,
}

pub(crate) struct Reasons {
    k: usize,
    /// Longest reason built by `product`; longer ones are dropped (sound, they are weak
    /// clauses anyway, and their number grows combinatorially with length).
    max_len: usize,
    /// Whether some reason was dropped for its length (then an order may keep no reason).
    pub dropped_long: bool,
    reasons: PrimaryMap<ReasonId, ReasonData>,
    reason_index: HashMap<Box<[Lit]>, ReasonId>,
    sets: PrimaryMap<RSet, Box<[ReasonId]>>,
    set_index: HashMap<Box<[ReasonId]>, RSet>,
    join_cache: HashMap<(RSet, RSet), RSet>,
    product_cache: HashMap<(RSet, RSet), RSet>,
    scratch: Vec<ReasonId>,
    lit_scratch: Vec<Lit>,
    cand_scratch: Vec<(u32, u32, u64)>,
    /// Literals implied by a literal (a link implies both guards); dropped from any reason
    /// that holds the implying literal, which leaves the conjunction unchanged.
    implied: HashMap<Lit, Vec<Lit>>,
    /// Reasons known to make the graph infeasible (an antichain). Any reason containing one is
    /// useless: whatever it derives has a reason the final subsumption removes. Dropping such
    /// reasons early stops reasons from growing around cycles.
    refuted: Vec<ReasonId>,
}

fn sig_of(lits: &[Lit]) -> u64 {
    lits.iter().fold(0, |s, l| {
        s | 1 << ((l.code() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
    })
}

impl Reasons {
    /// A store keeping at most `k` (≥ 1) reasons per set, each of at most `max_len` literals.
    pub fn new(k: usize, max_len: usize) -> Reasons {
        let mut r = Reasons {
            k: k.max(1),
            max_len,
            dropped_long: false,
            reasons: PrimaryMap::new(),
            reason_index: HashMap::new(),
            sets: PrimaryMap::new(),
            set_index: HashMap::new(),
            join_cache: HashMap::new(),
            product_cache: HashMap::new(),
            scratch: Vec::new(),
            lit_scratch: Vec::new(),
            cand_scratch: Vec::new(),
            implied: HashMap::new(),
            refuted: Vec::new(),
        };
        let empty = r.reason(&[]);
        let none = r.intern_set(Vec::new());
        let truth = r.intern_set(vec![empty]);
        debug_assert_eq!((none, truth), (NONE, TRUE));
        r
    }

    /// Declares that `by` implies each of `lits`. Must precede any reason containing `by`.
    pub fn add_implication(&mut self, by: Lit, lits: &[Lit]) {
        self.implied.entry(by).or_default().extend_from_slice(lits);
    }

    /// Interns a literal set (any order, duplicates allowed).
    pub fn reason(&mut self, lits: &[Lit]) -> ReasonId {
        let mut v = lits.to_vec();
        v.sort_unstable();
        v.dedup();
        self.intern_reason(v)
    }

    fn intern_reason(&mut self, mut sorted: Vec<Lit>) -> ReasonId {
        self.strip_implied(&mut sorted, 0);
        if let Some(&id) = self.reason_index.get(sorted.as_slice()) {
            return id;
        }
        let lits = sorted.into_boxed_slice();
        let id = self.reasons.push(ReasonData {
            sig: sig_of(&lits),
            lits: lits.clone(),
        });
        self.reason_index.insert(lits, id);
        id
    }

    fn intern_set(&mut self, members: Vec<ReasonId>) -> RSet {
        if let Some(&id) = self.set_index.get(members.as_slice()) {
            return id;
        }
        let members = members.into_boxed_slice();
        let id = self.sets.push(members.clone());
        self.set_index.insert(members, id);
        id
    }

    /// The set holding just `r`.
    pub fn single(&mut self, r: ReasonId) -> RSet {
        self.intern_set(vec![r])
    }

    pub fn lits(&self, r: ReasonId) -> &[Lit] {
        &self.reasons[r].lits
    }

    pub fn num_reasons(&self) -> usize {
        self.reasons.len()
    }

    pub fn num_sets(&self) -> usize {
        self.sets.len()
    }

    /// `a ⊆ b`.
    pub fn subset(&self, a: ReasonId, b: ReasonId) -> bool {
        if a == b {
            return true;
        }
        let rb = &self.reasons[b];
        self.subset_of_slice(a, &rb.lits, rb.sig)
    }

    /// `a ⊆ lits` where `sig` is the signature of the sorted `lits`.
    fn subset_of_slice(&self, a: ReasonId, lits: &[Lit], sig: u64) -> bool {
        let ra = &self.reasons[a];
        if ra.lits.len() > lits.len() || ra.sig & !sig != 0 {
            return false;
        }
        let mut it = lits.iter();
        ra.lits.iter().all(|x| it.any(|y| y == x))
    }

    /// Members of `a` that are not members of `b`.
    pub fn difference(&mut self, a: RSet, b: RSet) -> RSet {
        if b == NONE {
            return a;
        }
        let members: Vec<ReasonId> = self.sets[a]
            .iter()
            .copied()
            .filter(|r| !self.sets[b].contains(r))
            .collect();
        self.intern_set(members)
    }

    /// Length of the shortest reason in `s` (sets are sorted shortest first).
    pub fn shortest(&self, s: RSet) -> usize {
        self.sets[s]
            .first()
            .map_or(usize::MAX, |&r| self.reasons[r].lits.len())
    }

    /// Reduces candidates to the subset-minimal ones, shortest first, at most `cap`.
    pub fn minimize(&self, cands: &mut Vec<ReasonId>, cap: usize) {
        cands.sort_unstable_by(|&a, &b| {
            let (la, lb) = (&self.reasons[a].lits, &self.reasons[b].lits);
            la.len().cmp(&lb.len()).then_with(|| la.cmp(lb))
        });
        cands.dedup();
        let mut kept = 0;
        for i in 0..cands.len() {
            if kept == cap {
                break;
            }
            let c = cands[i];
            if !cands[..kept].iter().any(|&k| self.subset(k, c)) {
                cands[kept] = c;
                kept += 1;
            }
        }
        cands.truncate(kept);
    }

    /// Records the reasons of `s` as refuting the graph. Returns whether one was new.
    pub fn refute(&mut self, s: RSet) -> bool {
        let mut changed = false;
        for i in 0..self.sets[s].len() {
            let r = self.sets[s][i];
            if self.is_refuted(r) {
                continue;
            }
            let mut kept = std::mem::take(&mut self.refuted);
            kept.retain(|&q| !self.subset(r, q));
            kept.push(r);
            self.refuted = kept;
            changed = true;
        }
        if changed {
            // Cached results may hold reasons that are now known to be useless.
            self.join_cache.clear();
            self.product_cache.clear();
        }
        changed
    }

    /// Length of the shortest refuting reason found.
    pub fn shortest_refuted(&self) -> Option<usize> {
        self.refuted
            .iter()
            .map(|&r| self.reasons[r].lits.len())
            .min()
    }

    /// Whether `r` contains a refuting reason.
    pub fn is_refuted(&self, r: ReasonId) -> bool {
        self.refuted.iter().any(|&q| self.subset(q, r))
    }

    /// The refuting reasons found, shortest first.
    pub fn refuted(&self) -> Vec<ReasonId> {
        let mut v = self.refuted.clone();
        self.minimize(&mut v, usize::MAX);
        v
    }

    fn finish(&mut self, mut cands: Vec<ReasonId>) -> RSet {
        let k = self.k;
        if !self.refuted.is_empty() {
            cands.retain(|&r| !self.is_refuted(r));
        }
        self.minimize(&mut cands, k);
        let s = self.intern_set(cands.clone());
        cands.clear();
        self.scratch = cands;
        s
    }

    /// `a ∪ b` as reason sets (an order known for the reasons of a or of b).
    pub fn join(&mut self, a: RSet, b: RSet) -> RSet {
        if a == b || b == NONE || a == TRUE {
            return a;
        }
        if a == NONE || b == TRUE {
            return b;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(&s) = self.join_cache.get(&key) {
            return s;
        }
        let mut cands = std::mem::take(&mut self.scratch);
        cands.clear();
        cands.extend_from_slice(&self.sets[a]);
        cands.extend_from_slice(&self.sets[b]);
        let s = self.finish(cands);
        self.join_cache.insert(key, s);
        s
    }

    /// `{o1 ∪ o2 | o1 ∈ a, o2 ∈ b}`: the reasons of an order derived from two premises.
    pub fn product(&mut self, a: RSet, b: RSet) -> RSet {
        if a == NONE || b == NONE {
            return NONE;
        }
        if a == TRUE {
            return b;
        }
        if b == TRUE {
            return a;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(&s) = self.product_cache.get(&key) {
            return s;
        }
        // Candidates live in a flat buffer and are interned only if they survive, so the
        // many unions that subsumption discards cost no memory.
        let mut buf = std::mem::take(&mut self.lit_scratch);
        let mut cands = std::mem::take(&mut self.cand_scratch);
        buf.clear();
        cands.clear();
        for &x in self.sets[a].iter() {
            for &y in self.sets[b].iter() {
                let start = buf.len();
                let (lx, ly) = (&self.reasons[x].lits, &self.reasons[y].lits);
                let (mut i, mut j) = (0, 0);
                while i < lx.len() && j < ly.len() {
                    match lx[i].cmp(&ly[j]) {
                        std::cmp::Ordering::Less => {
                            buf.push(lx[i]);
                            i += 1;
                        }
                        std::cmp::Ordering::Greater => {
                            buf.push(ly[j]);
                            j += 1;
                        }
                        std::cmp::Ordering::Equal => {
                            buf.push(lx[i]);
                            i += 1;
                            j += 1;
                        }
                    }
                }
                buf.extend_from_slice(&lx[i..]);
                buf.extend_from_slice(&ly[j..]);
                self.strip_implied(&mut buf, start);
                let sig = sig_of(&buf[start..]);
                cands.push((start as u32, (buf.len() - start) as u32, sig));
            }
        }
        let slice = |c: &(u32, u32, u64)| &buf[c.0 as usize..(c.0 + c.1) as usize];
        cands.sort_unstable_by(|x, y| x.1.cmp(&y.1).then_with(|| slice(x).cmp(slice(y))));
        let mut kept: Vec<ReasonId> = Vec::new();
        for c in &cands {
            if kept.len() == self.k {
                break;
            }
            if c.1 as usize > self.max_len {
                self.dropped_long = true;
                break;
            }
            let lits = slice(c);
            let covered = |r: &ReasonId| self.subset_of_slice(*r, lits, c.2);
            if self.refuted.iter().any(covered) || kept.iter().any(covered) {
                continue;
            }
            let r = self.intern_reason(lits.to_vec());
            kept.push(r);
        }
        let s = self.intern_set(kept);
        self.lit_scratch = buf;
        self.cand_scratch = cands;
        self.product_cache.insert(key, s);
        s
    }

    /// Drops from `buf[start..]` the literals implied by another literal there.
    fn strip_implied(&self, buf: &mut Vec<Lit>, start: usize) {
        if self.implied.is_empty() {
            return;
        }
        let mut drop: Vec<Lit> = Vec::new();
        for l in &buf[start..] {
            if let Some(gs) = self.implied.get(l) {
                drop.extend_from_slice(gs);
            }
        }
        if drop.is_empty() {
            return;
        }
        let mut w = start;
        for r in start..buf.len() {
            if !drop.contains(&buf[r]) {
                buf[w] = buf[r];
                w += 1;
            }
        }
        buf.truncate(w);
    }

    /// The set of reasons `{lits}` for one literal set.
    pub fn set_of(&mut self, lits: &[Lit]) -> RSet {
        let r = self.reason(lits);
        self.single(r)
    }

    /// The reasons of `s` as literal vectors.
    pub fn to_vecs(&self, s: RSet) -> Vec<Vec<Lit>> {
        self.sets[s]
            .iter()
            .map(|&r| self.reasons[r].lits.to_vec())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(n: i32) -> Lit {
        Lit::from_dimacs(n)
    }

    #[test]
    fn join_keeps_only_minimal_reasons() {
        let mut r = Reasons::new(8, usize::MAX);
        let a = r.set_of(&[l(1), l(2)]);
        let b = r.set_of(&[l(1)]);
        let c = r.set_of(&[l(3)]);
        assert_eq!(r.join(a, b), b);
        let bc = r.join(b, c);
        assert_eq!(r.to_vecs(bc), vec![vec![l(1)], vec![l(3)]]);
        assert_eq!(r.join(bc, TRUE), TRUE);
        assert_eq!(r.join(bc, NONE), bc);
    }

    #[test]
    fn product_unions_pairs_and_drops_subsumed() {
        let mut r = Reasons::new(8, usize::MAX);
        let a = r.set_of(&[l(1)]);
        let a2 = r.set_of(&[l(2), l(3)]);
        let a = r.join(a, a2);
        let b = r.set_of(&[l(1), l(4)]);
        let p = r.product(a, b);
        // {1}∪{1,4} = {1,4}; {2,3}∪{1,4} = {1,2,3,4} is subsumed.
        assert_eq!(r.to_vecs(p), vec![vec![l(1), l(4)]]);
        assert_eq!(r.product(a, NONE), NONE);
        assert_eq!(r.product(a, TRUE), a);
    }

    #[test]
    fn cap_keeps_the_shortest() {
        let mut r = Reasons::new(2, usize::MAX);
        let mut s = NONE;
        for lits in [vec![l(1), l(2), l(3)], vec![l(4)], vec![l(5), l(6)]] {
            let x = r.set_of(&lits);
            s = r.join(s, x);
        }
        assert_eq!(r.to_vecs(s), vec![vec![l(4)], vec![l(5), l(6)]]);
    }

    #[test]
    fn implied_literals_are_dropped() {
        let mut r = Reasons::new(8, usize::MAX);
        r.add_implication(l(10), &[l(1), l(2)]);
        let a = r.set_of(&[l(1), l(3)]);
        let b = r.set_of(&[l(10)]);
        let p = r.product(a, b);
        assert_eq!(r.to_vecs(p), vec![vec![l(3), l(10)]]);
    }

    #[test]
    fn subset_respects_literal_polarity() {
        let mut r = Reasons::new(8, usize::MAX);
        let a = r.reason(&[l(1)]);
        let b = r.reason(&[l(-1), l(2)]);
        assert!(!r.subset(a, b));
        let c = r.reason(&[l(2), l(1)]);
        assert!(r.subset(a, c));
    }
}
