//! Seeded formula generators shared by the tests and `yogar-bench`: random k-SAT, pigeonhole,
//! a multiplier commutativity miter, and an incremental script imitating the Yogar loop.
//!
//! Everything is a function of its seed, so a failing test or a bench number can be
//! reproduced exactly on any back end.

use solver_glue::dimacs::Cnf;
use solver_glue::{ClauseSink, Lit, Var};

/// SplitMix64: tiny, fast, and good enough to draw formulas from.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }

    /// A literal over variables 1..=n with a random sign.
    pub fn lit(&mut self, n: u32) -> Lit {
        let var = Var::from_dimacs(1 + self.below(u64::from(n)) as u32);
        if self.coin() {
            var.pos()
        } else {
            var.neg()
        }
    }

    /// `k` literals over distinct variables among 1..=n (k ≤ n).
    pub fn clause(&mut self, n: u32, k: usize) -> Vec<Lit> {
        let mut clause: Vec<Lit> = Vec::with_capacity(k);
        while clause.len() < k {
            let lit = self.lit(n);
            if clause.iter().all(|l| l.var() != lit.var()) {
                clause.push(lit);
            }
        }
        clause
    }
}

/// Uniform random k-SAT: `clauses` clauses of `k` distinct variables among `vars`.
/// For k = 3 the satisfiable/unsatisfiable threshold is near clauses/vars ≈ 4.26, where the
/// formulas are hardest.
pub fn random_ksat(vars: u32, clauses: usize, k: usize, seed: u64) -> Cnf {
    let mut rng = Rng::new(seed);
    Cnf {
        num_vars: vars,
        clauses: (0..clauses).map(|_| rng.clause(vars, k)).collect(),
    }
}

/// Pigeonhole: `pigeons` pigeons into `holes` holes, each pigeon in some hole, no two in one.
/// Unsatisfiable when pigeons > holes, and exponentially hard for resolution.
pub fn pigeonhole(pigeons: u32, holes: u32) -> Cnf {
    let var = |p: u32, h: u32| Lit::from_dimacs((p * holes + h + 1) as i32);
    let mut clauses = Vec::new();
    for p in 0..pigeons {
        clauses.push((0..holes).map(|h| var(p, h)).collect());
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                clauses.push(vec![!var(p, h), !var(q, h)]);
            }
        }
    }
    Cnf {
        num_vars: pigeons * holes,
        clauses,
    }
}

/// Tseitin gates over a [`ClauseSink`].
struct Circuit<'a, S: ClauseSink> {
    sink: &'a mut S,
}

impl<S: ClauseSink> Circuit<'_, S> {
    fn input(&mut self) -> Lit {
        self.sink.new_var().pos()
    }

    fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.input();
        self.sink.add_clause(&[!o, a]);
        self.sink.add_clause(&[!o, b]);
        self.sink.add_clause(&[o, !a, !b]);
        o
    }

    fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.input();
        self.sink.add_clause(&[!o, a, b]);
        self.sink.add_clause(&[!o, !a, !b]);
        self.sink.add_clause(&[o, !a, b]);
        self.sink.add_clause(&[o, a, !b]);
        o
    }

    /// Sum and carry of a full adder.
    fn full_add(&mut self, a: Lit, b: Lit, c: Lit) -> (Lit, Lit) {
        let ab = self.xor(a, b);
        let sum = self.xor(ab, c);
        let both = self.and(a, b);
        let through = self.and(ab, c);
        (sum, self.or(both, through))
    }

    /// `a · b` (little-endian, 2n bits) by shift-and-add over ripple-carry adders.
    fn multiply(&mut self, a: &[Lit], b: &[Lit], zero: Lit) -> Vec<Lit> {
        let width = a.len() + b.len();
        let mut acc = vec![zero; width];
        for (j, &bj) in b.iter().enumerate() {
            let mut carry = zero;
            for i in j..width {
                let partial = if i - j < a.len() {
                    self.and(a[i - j], bj)
                } else {
                    zero
                };
                let (sum, c) = self.full_add(acc[i], partial, carry);
                acc[i] = sum;
                carry = c;
            }
        }
        acc
    }
}

/// Commutativity miter of two `bits`×`bits` multipliers: is there an `a, b` with
/// `a·b ≠ b·a`? Unsatisfiable; the two circuits are structurally different, which makes this
/// hard for CDCL — the kind of formula the bit-precise arithmetic of the encoder produces.
pub fn multiplier_miter(bits: usize) -> Cnf {
    let mut cnf = Cnf::default();
    let mut c = Circuit { sink: &mut cnf };
    let zero = c.input();
    c.sink.add_clause(&[!zero]);
    let a: Vec<Lit> = (0..bits).map(|_| c.input()).collect();
    let b: Vec<Lit> = (0..bits).map(|_| c.input()).collect();
    let ab = c.multiply(&a, &b, zero);
    let ba = c.multiply(&b, &a, zero);
    let differ: Vec<Lit> = ab.iter().zip(&ba).map(|(&x, &y)| c.xor(x, y)).collect();
    c.sink.add_clause(&differ);
    cnf
}

/// One solve of an [`IncrementalScript`]: clauses to add first, then the assumptions.
#[derive(Clone, Debug)]
pub struct Step {
    pub add: Vec<Vec<Lit>>,
    pub assume: Vec<Lit>,
}

/// A sequence of solves on one solver, imitating the Yogar loop: a base formula, then many
/// solves under changing assumptions with clauses added between them.
///
/// The formula is built like a bounded program's: many small clusters of variables (blocks)
/// with dense constraints inside and sparse ones between them. All clauses are planted
/// (satisfied by a hidden assignment), so the formula stays satisfiable. Assumptions that agree
/// with the hidden assignment are satisfiable; one flipped assumption is usually refuted
/// inside its block, giving a small core — as a Yogar refinement is refuted by a short cycle.
/// Clauses between blocks hold two literals true under the hidden assignment, so a
/// refutation never has to range over the whole formula (which, for random clauses, would be
/// exponentially hard). Nothing depends on a model, so every back end solves exactly the same
/// sequence and must give the same answers.
#[derive(Clone, Debug)]
pub struct IncrementalScript {
    pub base: Cnf,
    pub steps: Vec<Step>,
}

/// Parameters of [`incremental_script`].
#[derive(Copy, Clone, Debug)]
pub struct ScriptShape {
    pub vars: u32,
    /// Variables per block (≥ 3).
    pub block: u32,
    /// 3-literal clauses per variable inside the blocks.
    pub ratio: f64,
    /// 3-literal clauses per variable between blocks.
    pub cross_ratio: f64,
    pub steps: usize,
    pub clauses_per_step: usize,
    pub assumptions_per_step: usize,
    /// Probability that a step flips one assumption against the hidden assignment.
    pub flip: f64,
}

pub fn incremental_script(shape: ScriptShape, seed: u64) -> IncrementalScript {
    assert!(shape.block >= 3 && shape.vars >= shape.block);
    let mut rng = Rng::new(seed);
    let n = shape.vars;
    let blocks = n / shape.block;
    let hidden: Vec<bool> = (0..n).map(|_| rng.coin()).collect();
    let true_lits = |lit: Lit| hidden[lit.var().index()] == lit.is_positive();
    let inner = |rng: &mut Rng| {
        let b = rng.below(u64::from(blocks)) as u32;
        loop {
            let clause: Vec<Lit> = rng
                .clause(shape.block, 3)
                .into_iter()
                .map(|l| {
                    let v = l.var().to_dimacs() + b * shape.block;
                    let v = Var::from_dimacs(v);
                    if l.is_positive() {
                        v.pos()
                    } else {
                        v.neg()
                    }
                })
                .collect();
            if clause.iter().any(|&l| true_lits(l)) {
                return clause;
            }
        }
    };
    let cross = |rng: &mut Rng| loop {
        let clause = rng.clause(n, 3);
        let same_block = |a: Lit, b: Lit| {
            a.var().index() as u32 / shape.block == b.var().index() as u32 / shape.block
        };
        let holding: Vec<Lit> = clause.iter().copied().filter(|&l| true_lits(l)).collect();
        if holding.len() >= 2 && !same_block(holding[0], holding[1]) {
            return clause;
        }
    };
    let mut clauses = Vec::new();
    for _ in 0..(shape.ratio * f64::from(n)) as usize {
        clauses.push(inner(&mut rng));
    }
    for _ in 0..(shape.cross_ratio * f64::from(n)) as usize {
        clauses.push(cross(&mut rng));
    }
    let base = Cnf {
        num_vars: n,
        clauses,
    };
    let steps = (0..shape.steps)
        .map(|i| {
            let add = (0..shape.clauses_per_step)
                .map(|j| {
                    if (i + j) % 4 == 3 {
                        cross(&mut rng)
                    } else {
                        inner(&mut rng)
                    }
                })
                .collect();
            let mut assume: Vec<Lit> = (0..shape.assumptions_per_step)
                .map(|_| {
                    let var = Var::from_dimacs(1 + rng.below(u64::from(n)) as u32);
                    if hidden[var.index()] {
                        var.pos()
                    } else {
                        var.neg()
                    }
                })
                .collect();
            if !assume.is_empty() && rng.chance(shape.flip) {
                let k = rng.below(assume.len() as u64) as usize;
                assume[k] = !assume[k];
            }
            Step { add, assume }
        })
        .collect();
    IncrementalScript { base, steps }
}

/// An incremental script over arithmetic circuits, the other side of a Yogar run: a large
/// structured formula (`multipliers` independent `bits`×`bits` multipliers), queried many
/// times under assumptions. Most queries fix both factors of one multiplier and claim a
/// product, the true one or one with a flipped bit (refuted by propagation alone); every third
/// gives one factor and the product and leaves the other factor to be found (search). Every
/// satisfiable answer must still assign the whole formula, so the cost of a solve grows with
/// the formula as in BMC. Between queries a fresh XOR gate over two existing wires is added,
/// as a deeper unwinding adds gates over existing ones.
pub fn circuit_script(
    multipliers: usize,
    bits: usize,
    steps: usize,
    seed: u64,
) -> IncrementalScript {
    assert!(bits <= 16, "products are computed in u64");
    let mut rng = Rng::new(seed);
    let mut cnf = Cnf::default();
    let mut c = Circuit { sink: &mut cnf };
    let zero = c.input();
    c.sink.add_clause(&[!zero]);
    let mut circuits = Vec::new();
    for _ in 0..multipliers {
        let a: Vec<Lit> = (0..bits).map(|_| c.input()).collect();
        let b: Vec<Lit> = (0..bits).map(|_| c.input()).collect();
        let p = c.multiply(&a, &b, zero);
        circuits.push((a, b, p));
    }
    let base = cnf.clone();
    let value_lits = |lits: &[Lit], value: u64| -> Vec<Lit> {
        lits.iter()
            .enumerate()
            .map(|(i, &l)| if value >> i & 1 == 1 { l } else { !l })
            .collect()
    };
    let mut steps_out = Vec::with_capacity(steps);
    let mut wires = cnf.num_vars;
    for i in 0..steps {
        let (a, b, p) = &circuits[rng.below(multipliers as u64) as usize];
        let x = rng.below(1 << bits);
        let y = rng.below(1 << bits);
        let mut product = value_lits(p, x * y);
        if rng.coin() {
            let k = rng.below(product.len() as u64) as usize;
            product[k] = !product[k];
        }
        let mut assume = value_lits(a, x);
        if i % 3 != 2 {
            assume.extend(value_lits(b, y));
        }
        assume.extend(product);
        // The new gate: o = u xor v over two existing wires.
        let mut gate = Cnf {
            num_vars: wires,
            clauses: Vec::new(),
        };
        let u = rng.lit(wires);
        let v = rng.lit(wires);
        Circuit { sink: &mut gate }.xor(u, v);
        wires = gate.num_vars;
        steps_out.push(Step {
            add: gate.clauses,
            assume,
        });
    }
    IncrementalScript {
        base,
        steps: steps_out,
    }
}
