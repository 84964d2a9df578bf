//! Test support: a solver for the encoder, and a small seeded random generator.
#![allow(dead_code)]

pub mod accepted;
pub mod events;

use solver_glue::SatSolver;

/// A fresh solver of the default back end (solver-glue checks every back end against brute
/// force, so the encoder's tests need no adapter of their own).
pub fn solver() -> Box<dyn SatSolver> {
    solver_glue::make_solver(solver_glue::DEFAULT_SOLVER).expect("the default back end exists")
}

/// The seeded generator of `cnf_gen`, with the index-sized draws the tests use.
pub struct Rng(cnf_gen::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(cnf_gen::Rng::new(seed))
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
