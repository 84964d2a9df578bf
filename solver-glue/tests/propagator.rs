//! Propagators inside the search: every back end that runs one must give the answers of the
//! plain CNF encoding of the same theory, through conflicts, implied literals with reasons,
//! backtracking and incremental solves under assumptions.
//!
//! The theory here is "at most one of the observed variables is true": it raises a conflict
//! when two are true, and once one is true it implies the others false (reason: that one).

mod common;

use std::any::Any;

use solver_glue::{make_solver, Lit, Propagation, Propagator, SolveResult, Var};

/// At most one of `vars` true.
struct AtMostOne {
    vars: Vec<Var>,
    trail: Vec<Lit>,
    levels: Vec<usize>,
    implied: u64,
    conflicts: u64,
}

impl AtMostOne {
    fn new(vars: Vec<Var>) -> AtMostOne {
        AtMostOne {
            vars,
            trail: Vec::new(),
            levels: Vec::new(),
            implied: 0,
            conflicts: 0,
        }
    }

    fn true_ones(&self) -> Vec<Lit> {
        self.trail
            .iter()
            .copied()
            .filter(|l| l.is_positive())
            .collect()
    }
}

impl Propagator for AtMostOne {
    fn observed(&self) -> Vec<Var> {
        self.vars.clone()
    }
    fn notify(&mut self, lits: &[Lit]) {
        for &l in lits {
            if !self.trail.iter().any(|t| t.var() == l.var()) {
                self.trail.push(l);
            }
        }
    }
    fn new_level(&mut self) {
        self.levels.push(self.trail.len());
    }
    fn backtrack(&mut self, level: usize) {
        if level < self.levels.len() {
            self.trail.truncate(self.levels[level]);
            self.levels.truncate(level);
        }
    }
    fn propagate(&mut self) -> Propagation {
        let on = self.true_ones();
        if on.len() >= 2 {
            self.conflicts += 1;
            return Propagation::Conflict(vec![!on[0], !on[1]]);
        }
        if let Some(&a) = on.first() {
            let open: Vec<Lit> = self
                .vars
                .iter()
                .filter(|v| **v != a.var() && !self.trail.iter().any(|t| t.var() == **v))
                .map(|v| v.neg())
                .collect();
            if !open.is_empty() {
                self.implied += open.len() as u64;
                return Propagation::Imply(open);
            }
        }
        Propagation::Done
    }
    fn reason(&mut self, lit: Lit) -> Vec<Lit> {
        // Asked while `lit` is assigned (or, when it is false, right away): the true observed
        // variable that implied it is still true, and more may be true by now.
        let on = self.true_ones();
        let why = on.iter().copied().find(|l| l.var() != lit.var());
        assert!(!lit.is_positive(), "{lit} was never implied");
        vec![why.unwrap_or_else(|| panic!("{lit} implied by {on:?}"))]
    }
    fn check_model(&mut self, value: &dyn Fn(Lit) -> bool) -> Option<Vec<Lit>> {
        let on: Vec<Lit> = self
            .vars
            .iter()
            .map(|v| v.pos())
            .filter(|&l| value(l))
            .collect();
        (on.len() >= 2).then(|| vec![!on[0], !on[1]])
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
    fn lit(&mut self, n: u32) -> Lit {
        let v = 1 + self.below(u64::from(n)) as i32;
        Lit::from_dimacs(if self.below(2) == 0 { v } else { -v })
    }
}

fn amo_clauses(vars: &[Var]) -> Vec<Vec<Lit>> {
    let mut out = Vec::new();
    for (i, a) in vars.iter().enumerate() {
        for b in &vars[i + 1..] {
            out.push(vec![a.neg(), b.neg()]);
        }
    }
    out
}

#[test]
fn propagators_agree_with_the_cnf_encoding() {
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let mut theory_conflicts = 0;
    let mut implied = 0;
    for name in ["batsat", "cadical"] {
        for round in 0..60 {
            let n = 12 + (round % 7) as u32;
            let k = 3 + (round % 5) as usize;
            let clauses: Vec<Vec<Lit>> = (0..(n as usize * 3))
                .map(|_| (0..3).map(|_| rng.lit(n)).collect())
                .collect();
            let observed: Vec<Var> = (1..=k as u32).map(Var::from_dimacs).collect();
            let mut with_theory = make_solver(name).unwrap();
            let mut plain = make_solver(name).unwrap();
            for c in &clauses {
                with_theory.add_clause(c);
                plain.add_clause(c);
            }
            for c in amo_clauses(&observed) {
                plain.add_clause(&c);
            }
            with_theory
                .connect_propagator(Box::new(AtMostOne::new(observed.clone())))
                .unwrap_or_else(|e| panic!("{e}"));
            // Incremental: several solves under different assumptions, a clause added between.
            for step in 0..4 {
                let assumptions: Vec<Lit> = (0..step).map(|_| rng.lit(n)).collect();
                let a = with_theory.solve(&assumptions);
                let b = plain.solve(&assumptions);
                assert_eq!(a, b, "{name} round {round} step {step}");
                if a == SolveResult::Sat {
                    let on = observed
                        .iter()
                        .filter(|v| with_theory.value(v.pos()) == Some(true))
                        .count();
                    assert!(on <= 1, "{name}: model with {on} observed variables true");
                    common::check_model(&*with_theory, &clauses, &assumptions);
                }
                let extra: Vec<Lit> = (0..3).map(|_| rng.lit(n)).collect();
                with_theory.add_clause(&extra);
                plain.add_clause(&extra);
            }
            let p = with_theory.propagator().unwrap();
            let t = p.as_any().downcast_ref::<AtMostOne>().unwrap();
            theory_conflicts += t.conflicts;
            implied += t.implied;
        }
    }
    // The test exercised both paths of the adapters.
    assert!(
        theory_conflicts > 0 && implied > 0,
        "{theory_conflicts} {implied}"
    );
}

#[test]
fn varisat_refuses_a_propagator() {
    let mut s = make_solver("varisat").unwrap();
    let r = s.connect_propagator(Box::new(AtMostOne::new(vec![Var::from_dimacs(1)])));
    assert!(r.is_err());
}
