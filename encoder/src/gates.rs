//! Single-bit gates over a [`SatSolver`], with structural hashing and constant folding.
//!
//! [`Encoder`] owns the gate tables of one solver. Every AND, XOR and MUX gate is hash-consed on
//! its normalised inputs, so building the same sub-circuit twice returns the same literal and
//! adds no clauses. One literal is fixed true by a unit clause ([`Encoder::tru`]); gates whose
//! inputs are constants, equal or complementary fold without creating variables. Invariant: a
//! gate output literal is equivalent (by its Tseitin clauses) to the function of its inputs.

use hashbrown::HashMap;
use solver_glue::{Lit, SatSolver};
use std::fmt;
use std::ops::{Add, Sub};

/// Variables and clauses an [`Encoder`] has added to its solver. Take one snapshot before and
/// one after building a part of the formula; the difference is that part's size.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Counters {
    pub vars: u64,
    pub clauses: u64,
}

impl Sub for Counters {
    type Output = Counters;
    fn sub(self, rhs: Counters) -> Counters {
        Counters {
            vars: self.vars - rhs.vars,
            clauses: self.clauses - rhs.clauses,
        }
    }
}

impl Add for Counters {
    type Output = Counters;
    fn add(self, rhs: Counters) -> Counters {
        Counters {
            vars: self.vars + rhs.vars,
            clauses: self.clauses + rhs.clauses,
        }
    }
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} variables, {} clauses", self.vars, self.clauses)
    }
}

/// What an [`Encoder`] knows apart from its solver ([`Encoder::into_state`]).
#[derive(Clone, Debug)]
pub struct EncoderState {
    true_lit: Lit,
    and_gates: HashMap<(Lit, Lit), Lit>,
    xor_gates: HashMap<(Lit, Lit), Lit>,
    mux_gates: HashMap<(Lit, Lit, Lit), Lit>,
    counters: Counters,
}

impl EncoderState {
    /// The literal fixed true.
    pub fn tru(&self) -> Lit {
        self.true_lit
    }

    /// Size added so far.
    pub fn counters(&self) -> Counters {
        self.counters
    }
}

/// Builds circuits on one solver. Bit-vector operations live in `bitvec.rs`, as methods of
/// this type.
pub struct Encoder<'s> {
    solver: &'s mut dyn SatSolver,
    true_lit: Lit,
    and_gates: HashMap<(Lit, Lit), Lit>,
    xor_gates: HashMap<(Lit, Lit), Lit>,
    mux_gates: HashMap<(Lit, Lit, Lit), Lit>,
    counters: Counters,
}

impl<'s> Encoder<'s> {
    /// An encoder on `solver`; creates the constant-true literal.
    pub fn new(solver: &'s mut dyn SatSolver) -> Encoder<'s> {
        let true_lit = solver.new_var().pos();
        solver.add_clause(&[true_lit]);
        Encoder {
            solver,
            true_lit,
            and_gates: HashMap::new(),
            xor_gates: HashMap::new(),
            mux_gates: HashMap::new(),
            counters: Counters {
                vars: 1,
                clauses: 1,
            },
        }
    }

    /// Detaches the encoder from its solver: what it knows (the constant, the gate tables, its
    /// counters), to go on building on another solver that holds the same clauses.
    pub fn into_state(self) -> EncoderState {
        EncoderState {
            true_lit: self.true_lit,
            and_gates: self.and_gates,
            xor_gates: self.xor_gates,
            mux_gates: self.mux_gates,
            counters: self.counters,
        }
    }

    /// An encoder on `solver`, which must hold the clauses the encoder of `state` added (and
    /// may hold more): gates built again are found in the tables, literals stay the same.
    pub fn resume(solver: &'s mut dyn SatSolver, state: EncoderState) -> Encoder<'s> {
        debug_assert!(solver.num_vars() >= state.true_lit.var().to_dimacs());
        Encoder {
            solver,
            true_lit: state.true_lit,
            and_gates: state.and_gates,
            xor_gates: state.xor_gates,
            mux_gates: state.mux_gates,
            counters: state.counters,
        }
    }

    /// The inputs of every gate built so far, by the variable of its output: what a gate's
    /// output is a function of (its Tseitin clauses make it equivalent to that function).
    /// A variable that is no gate output is an input of the formula (a read's value, a nondet
    /// value, a literal constrained by other clauses).
    pub fn gate_inputs(&self) -> HashMap<solver_glue::Var, Vec<Lit>> {
        let mut map = HashMap::new();
        for (&(a, b), &o) in self.and_gates.iter().chain(self.xor_gates.iter()) {
            map.insert(o.var(), vec![a, b]);
        }
        for (&(c, t, e), &o) in &self.mux_gates {
            map.insert(o.var(), vec![c, t, e]);
        }
        map
    }

    /// The solver, for solving and for adding clauses the encoder need not know about.
    pub fn solver(&mut self) -> &mut dyn SatSolver {
        self.solver
    }

    /// Read-only access to the solver (model values, statistics).
    pub fn solver_ref(&self) -> &dyn SatSolver {
        self.solver
    }

    /// Size added through this encoder so far.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The literal fixed true.
    pub fn tru(&self) -> Lit {
        self.true_lit
    }

    /// The literal fixed false.
    pub fn fls(&self) -> Lit {
        !self.true_lit
    }

    /// The constant literal for `b`.
    pub fn constant(&self, b: bool) -> Lit {
        if b {
            self.tru()
        } else {
            self.fls()
        }
    }

    /// `Some(b)` when `l` is the constant `b`.
    pub fn const_value(&self, l: Lit) -> Option<bool> {
        if l == self.true_lit {
            Some(true)
        } else if l == !self.true_lit {
            Some(false)
        } else {
            None
        }
    }

    /// A fresh unconstrained literal.
    pub fn new_lit(&mut self) -> Lit {
        self.counters.vars += 1;
        self.solver.new_var().pos()
    }

    /// Adds a clause after dropping false constants; a clause with a true constant or with
    /// complementary literals is skipped.
    pub fn add_clause(&mut self, lits: &[Lit]) {
        let mut clause: Vec<Lit> = Vec::with_capacity(lits.len());
        for &l in lits {
            match self.const_value(l) {
                Some(true) => return,
                Some(false) => continue,
                None => clause.push(l),
            }
        }
        // Sorted by variable, duplicates and complementary pairs are adjacent.
        clause.sort_unstable_by_key(|l| (l.var(), !l.is_positive()));
        clause.dedup();
        if clause.windows(2).any(|w| w[0] == !w[1]) {
            return;
        }
        self.counters.clauses += 1;
        self.solver.add_clause(&clause);
    }

    /// Adds the unit clause `l`.
    pub fn assert_lit(&mut self, l: Lit) {
        self.add_clause(&[l]);
    }

    /// Adds `a ⇒ b`.
    pub fn assert_implies(&mut self, a: Lit, b: Lit) {
        self.add_clause(&[!a, b]);
    }

    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        match (self.const_value(a), self.const_value(b)) {
            (Some(false), _) | (_, Some(false)) => return self.fls(),
            (Some(true), _) => return b,
            (_, Some(true)) => return a,
            _ => {}
        }
        if a == b {
            return a;
        }
        if a == !b {
            return self.fls();
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(&o) = self.and_gates.get(&key) {
            return o;
        }
        let o = self.new_lit();
        self.add_clause(&[!o, a]);
        self.add_clause(&[!o, b]);
        self.add_clause(&[o, !a, !b]);
        self.and_gates.insert(key, o);
        o
    }

    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        match (self.const_value(a), self.const_value(b)) {
            (Some(x), Some(y)) => return self.constant(x ^ y),
            (Some(x), None) => return if x { !b } else { b },
            (None, Some(y)) => return if y { !a } else { a },
            _ => {}
        }
        if a == b {
            return self.fls();
        }
        if a == !b {
            return self.tru();
        }
        // xor(¬a, b) = ¬xor(a, b): hash on the positive literals only.
        let flip = a.is_positive() != b.is_positive();
        let (pa, pb) = (a.var().pos(), b.var().pos());
        let key = if pa < pb { (pa, pb) } else { (pb, pa) };
        let o = match self.xor_gates.get(&key) {
            Some(&o) => o,
            None => {
                let o = self.new_lit();
                let (x, y) = key;
                self.add_clause(&[!o, x, y]);
                self.add_clause(&[!o, !x, !y]);
                self.add_clause(&[o, !x, y]);
                self.add_clause(&[o, x, !y]);
                self.xor_gates.insert(key, o);
                o
            }
        };
        if flip {
            !o
        } else {
            o
        }
    }

    /// `a ⇔ b`.
    pub fn iff(&mut self, a: Lit, b: Lit) -> Lit {
        !self.xor(a, b)
    }

    /// `a ⇒ b` as a literal.
    pub fn implies(&mut self, a: Lit, b: Lit) -> Lit {
        self.or(!a, b)
    }

    /// `if c then t else e`.
    pub fn mux(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        if let Some(cv) = self.const_value(c) {
            return if cv { t } else { e };
        }
        if t == e {
            return t;
        }
        if !c.is_positive() {
            return self.mux(!c, e, t);
        }
        if t == !e {
            return self.iff(c, t);
        }
        match (self.const_value(t), self.const_value(e)) {
            (Some(true), _) => return self.or(c, e),
            (Some(false), _) => return self.and(!c, e),
            (_, Some(true)) => return self.or(!c, t),
            (_, Some(false)) => return self.and(c, t),
            _ => {}
        }
        if t == c {
            return self.or(c, e);
        }
        if t == !c {
            return self.and(!c, e);
        }
        if e == c {
            return self.and(c, t);
        }
        if e == !c {
            return self.or(!c, t);
        }
        // mux(c, ¬t, ¬e) = ¬mux(c, t, e): hash with a positive then-input.
        let flip = !t.is_positive();
        let (t, e) = if flip { (!t, !e) } else { (t, e) };
        let key = (c, t, e);
        let o = match self.mux_gates.get(&key) {
            Some(&o) => o,
            None => {
                let o = self.new_lit();
                self.add_clause(&[!c, !t, o]);
                self.add_clause(&[!c, t, !o]);
                self.add_clause(&[c, !e, o]);
                self.add_clause(&[c, e, !o]);
                // Redundant, but lets propagation see through an unassigned selector.
                self.add_clause(&[!t, !e, o]);
                self.add_clause(&[t, e, !o]);
                self.mux_gates.insert(key, o);
                o
            }
        };
        if flip {
            !o
        } else {
            o
        }
    }

    /// Conjunction of `lits` (true when empty).
    pub fn and_all(&mut self, lits: &[Lit]) -> Lit {
        let mut acc = self.tru();
        for &l in lits {
            acc = self.and(acc, l);
        }
        acc
    }

    /// Disjunction of `lits` (false when empty).
    pub fn or_all(&mut self, lits: &[Lit]) -> Lit {
        let mut acc = self.fls();
        for &l in lits {
            acc = self.or(acc, l);
        }
        acc
    }

    /// Adds clauses allowing at most one of `lits` to be true: pairwise for few literals,
    /// rustsat's bimander encoding for more (see [`crate::at_most_one`]).
    pub fn at_most_one(&mut self, lits: &[Lit]) {
        let lits: Vec<Lit> = lits
            .iter()
            .copied()
            .filter(|&l| self.const_value(l) != Some(false))
            .collect();
        if lits.len() <= 5 {
            for i in 0..lits.len() {
                for j in i + 1..lits.len() {
                    self.add_clause(&[!lits[i], !lits[j]]);
                }
            }
            return;
        }
        crate::at_most_one::bimander(self, &lits);
    }

    /// Value of `l` in the solver's last model; unassigned literals read as false.
    pub fn value(&self, l: Lit) -> bool {
        if let Some(b) = self.const_value(l) {
            return b;
        }
        self.solver.value(l).unwrap_or(false)
    }
}
