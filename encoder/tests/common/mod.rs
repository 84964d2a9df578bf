//! Test support: a `SatSolver` over varisat, and a small seeded random generator.
#![allow(dead_code)]

pub mod events;

use solver_glue::{Budget, Lit, SatSolver, SolveResult, Stats, UnsupportedBudget, Var};
use varisat::ExtendFormula;

/// varisat behind the `SatSolver` trait (the tests' own adapter).
pub struct Varisat {
    solver: varisat::Solver<'static>,
    vars: u32,
    model: Vec<Option<bool>>,
    core: Vec<Lit>,
    stats: Stats,
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat {
            solver: varisat::Solver::new(),
            vars: 0,
            model: Vec::new(),
            core: Vec::new(),
            stats: Stats::default(),
        }
    }
}

fn to_v(l: Lit) -> varisat::Lit {
    varisat::Lit::from_dimacs(l.to_dimacs() as isize)
}

fn from_v(l: varisat::Lit) -> Lit {
    Lit::from_dimacs(l.to_dimacs() as i32)
}

impl SatSolver for Varisat {
    fn name(&self) -> &'static str {
        "varisat-test"
    }
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        self.stats.vars += 1;
        Var::from_dimacs(self.vars)
    }
    fn num_vars(&self) -> u32 {
        self.vars
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        for l in lits {
            self.vars = self.vars.max(l.var().to_dimacs());
        }
        let c: Vec<varisat::Lit> = lits.iter().map(|&l| to_v(l)).collect();
        self.stats.clauses += 1;
        self.solver.add_clause(&c);
    }
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        let a: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_v(l)).collect();
        self.solver.assume(&a);
        self.stats.solves += 1;
        self.model.clear();
        self.core.clear();
        match self.solver.solve() {
            Ok(true) => {
                self.model = vec![None; self.vars as usize + 1];
                for l in self.solver.model().unwrap_or_default() {
                    let l = from_v(l);
                    let i = l.var().to_dimacs() as usize;
                    if i < self.model.len() {
                        self.model[i] = Some(l.is_positive());
                    }
                }
                SolveResult::Sat
            }
            Ok(false) => {
                self.core = self
                    .solver
                    .failed_core()
                    .unwrap_or(&[])
                    .iter()
                    .map(|&l| from_v(l))
                    .collect();
                SolveResult::Unsat
            }
            Err(_) => SolveResult::Interrupted,
        }
    }
    fn value(&self, lit: Lit) -> Option<bool> {
        let v = *self.model.get(lit.var().to_dimacs() as usize)?;
        v.map(|b| if lit.is_positive() { b } else { !b })
    }
    fn failed_core(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn set_budget(&mut self, budget: Budget) -> Result<(), UnsupportedBudget> {
        // The encoder's tests never stop a solve early.
        match budget {
            Budget {
                time: None,
                conflicts: None,
            } => Ok(()),
            _ => Err(UnsupportedBudget {
                solver: "varisat (test adapter)",
                what: "time or conflicts",
            }),
        }
    }
    fn stats(&self) -> Stats {
        self.stats
    }
}

/// The seeded generator of `solver_glue::generate`, with the index-sized draws the tests use.
pub struct Rng(solver_glue::generate::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(solver_glue::generate::Rng::new(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    /// True with probability `p` percent.
    pub fn chance(&mut self, p: u32) -> bool {
        self.below(100) < p as usize
    }
}
