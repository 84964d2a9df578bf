//! Binary relations over at most [`MAX_NODES`] events as bit matrices (one `u128` row per
//! event): the relational algebra of the axiomatic models (union, intersection, sequence,
//! closure, acyclicity).

/// The most events a relation ranges over.
pub const MAX_NODES: usize = 128;

/// A relation over nodes `0..n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rel {
    pub rows: Vec<u128>,
}

impl Rel {
    pub fn empty(n: usize) -> Rel {
        Rel { rows: vec![0; n] }
    }

    pub fn n(&self) -> usize {
        self.rows.len()
    }

    pub fn add(&mut self, a: usize, b: usize) {
        self.rows[a] |= 1u128 << b;
    }

    pub fn union(&self, o: &Rel) -> Rel {
        Rel {
            rows: self.rows.iter().zip(&o.rows).map(|(a, b)| a | b).collect(),
        }
    }

    pub fn inter(&self, o: &Rel) -> Rel {
        Rel {
            rows: self.rows.iter().zip(&o.rows).map(|(a, b)| a & b).collect(),
        }
    }

    /// Pairs whose source is in `from` and target in `to` (sets as masks).
    pub fn restrict(&self, from: u128, to: u128) -> Rel {
        Rel {
            rows: self
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| if from >> i & 1 == 1 { r & to } else { 0 })
                .collect(),
        }
    }

    /// Pairs not in `o`.
    pub fn minus(&self, o: &Rel) -> Rel {
        Rel {
            rows: self.rows.iter().zip(&o.rows).map(|(a, b)| a & !b).collect(),
        }
    }

    /// `self ; o`.
    pub fn seq(&self, o: &Rel) -> Rel {
        let mut out = vec![0u128; self.n()];
        for (i, row) in self.rows.iter().enumerate() {
            let mut r = *row;
            let mut acc = 0;
            while r != 0 {
                let k = r.trailing_zeros() as usize;
                r &= r - 1;
                acc |= o.rows[k];
            }
            out[i] = acc;
        }
        Rel { rows: out }
    }

    pub fn inverse(&self) -> Rel {
        let mut out = Rel::empty(self.n());
        for (i, row) in self.rows.iter().enumerate() {
            let mut r = *row;
            while r != 0 {
                let k = r.trailing_zeros() as usize;
                r &= r - 1;
                out.add(k, i);
            }
        }
        out
    }

    /// Transitive closure `self+`.
    pub fn plus(&self) -> Rel {
        let mut m = self.rows.clone();
        let n = m.len();
        for k in 0..n {
            let bit = 1u128 << k;
            let rk = m[k];
            for row in m.iter_mut() {
                if *row & bit != 0 {
                    *row |= rk;
                }
            }
        }
        Rel { rows: m }
    }

    /// Reflexive-transitive closure `self*`.
    pub fn star(&self) -> Rel {
        let mut p = self.plus();
        for i in 0..p.n() {
            p.add(i, i);
        }
        p
    }

    pub fn irreflexive(&self) -> bool {
        self.rows.iter().enumerate().all(|(i, r)| r >> i & 1 == 0)
    }

    pub fn acyclic(&self) -> bool {
        self.plus().irreflexive()
    }
}
