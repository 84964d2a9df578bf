//! The varisat back end: a pure-Rust CDCL solver, run on a worker thread.
//!
//! varisat 0.2 cannot be stopped from outside: its `solve` loops until it has an answer and
//! offers no terminate callback, no conflict limit and no conflict counter (its only hook
//! into the search, proof output, rejects incremental clauses and assumptions in DRAT form
//! and makes the solver unusable after an error). So that a budget still ends the *call*
//! on time, each varisat instance lives on its own worker thread, and what holds is:
//!
//! - Time budget: `solve` returns [`SolveResult::Interrupted`] once the time is up (within
//!   the channel's wake-up latency). The abandoned search cannot be cancelled: it runs on in
//!   its thread, using one core, until it finishes (its answer is then dropped) or the process
//!   exits. The back end carries on with a fresh varisat instance that it loads from its own
//!   copy of the clauses at the next solve; learned clauses are lost.
//! - Conflict budget: not supported; [`SatSolver::set_budget`] refuses it with
//!   [`UnsupportedBudget`] and [`Stats::conflicts`] is `None`.
//!
//! The cost of the thread is one channel round trip per solve, and the clause copy (kept
//! to rebuild after an interruption) doubles the memory for clauses.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Instant;

use varisat::ExtendFormula;

use super::{deadline, Tally};
use crate::{Budget, Lit, SatSolver, SolveResult, Stats, UnsupportedBudget, Var};

/// One solve for the worker: the clauses it has not seen yet (DIMACS literals, each clause
/// ended by 0) and the assumptions.
struct Request {
    clauses: Vec<i32>,
    assumptions: Vec<i32>,
}

/// The worker's answer: `None` if varisat reported an error instead of an answer.
struct Reply {
    answer: Option<bool>,
    /// Indexed by DIMACS variable: 0 unassigned, 1 true, 2 false (only after Sat).
    model: Vec<u8>,
    /// Failed assumptions (only after Unsat).
    core: Vec<i32>,
}

struct Worker {
    requests: Sender<Request>,
    replies: Receiver<Reply>,
}

impl Worker {
    fn spawn() -> Worker {
        let (requests, request_rx) = mpsc::channel::<Request>();
        let (reply_tx, replies) = mpsc::channel::<Reply>();
        thread::Builder::new()
            .name("varisat".into())
            .spawn(move || serve(request_rx, reply_tx))
            .expect("cannot start the varisat worker thread");
        Worker { requests, replies }
    }
}

/// The worker thread: owns one varisat instance (which is not `Send`) for its whole life and
/// ends when the front end hangs up.
fn serve(requests: Receiver<Request>, replies: Sender<Reply>) {
    let mut solver = varisat::Solver::new();
    let mut clause = Vec::new();
    while let Ok(request) = requests.recv() {
        for &lit in &request.clauses {
            if lit == 0 {
                solver.add_clause(&clause);
                clause.clear();
            } else {
                clause.push(varisat::Lit::from_dimacs(lit as isize));
            }
        }
        let assumptions: Vec<varisat::Lit> = request
            .assumptions
            .iter()
            .map(|&l| varisat::Lit::from_dimacs(l as isize))
            .collect();
        solver.assume(&assumptions);
        let answer = solver.solve().ok();
        let mut model = Vec::new();
        let mut core = Vec::new();
        match answer {
            Some(true) => {
                for lit in solver.model().unwrap_or_default() {
                    let var = lit.var().to_dimacs() as usize;
                    if model.len() <= var {
                        model.resize(var + 1, 0);
                    }
                    model[var] = if lit.is_positive() { 1 } else { 2 };
                }
            }
            Some(false) => {
                core.extend(
                    solver
                        .failed_core()
                        .unwrap_or(&[])
                        .iter()
                        .map(|l| l.to_dimacs() as i32),
                );
            }
            None => {}
        }
        if replies
            .send(Reply {
                answer,
                model,
                core,
            })
            .is_err()
        {
            return; // abandoned after a timeout
        }
    }
}

/// [`SatSolver`] over varisat.
pub struct VarisatSolver {
    tally: Tally,
    budget: Budget,
    /// Every clause added, each ended by 0: what a fresh worker must be given.
    clauses: Vec<i32>,
    /// How much of `clauses` the current worker already has.
    sent: usize,
    worker: Option<Worker>,
    last: Option<SolveResult>,
    model: Vec<u8>,
    core: Vec<Lit>,
}

impl Default for VarisatSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl VarisatSolver {
    /// A fresh solver; its worker thread starts at the first solve.
    pub fn new() -> Self {
        VarisatSolver {
            tally: Tally::default(),
            budget: Budget::default(),
            clauses: Vec::new(),
            sent: 0,
            worker: None,
            last: None,
            model: Vec::new(),
            core: Vec::new(),
        }
    }
}

impl SatSolver for VarisatSolver {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn new_var(&mut self) -> Var {
        self.last = None;
        self.tally.new_var()
    }

    fn num_vars(&self) -> u32 {
        self.tally.num_vars
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.tally.see(lits);
        self.tally.clauses += 1;
        self.last = None;
        self.clauses.extend(lits.iter().map(|l| l.to_dimacs()));
        self.clauses.push(0);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        let start = Instant::now();
        self.tally.see(assumptions);
        self.tally.solves += 1;
        self.last = Some(SolveResult::Interrupted);
        self.model.clear();
        self.core.clear();
        if self.worker.is_none() {
            self.sent = 0;
        }
        let worker = self.worker.get_or_insert_with(Worker::spawn);
        let request = Request {
            clauses: self.clauses[self.sent..].to_vec(),
            assumptions: assumptions.iter().map(|l| l.to_dimacs()).collect(),
        };
        worker
            .requests
            .send(request)
            .expect("the varisat worker thread died");
        self.sent = self.clauses.len();
        let reply = match deadline(start, &self.budget) {
            None => worker.replies.recv().ok(),
            Some(deadline) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match worker.replies.recv_timeout(wait) {
                    Ok(reply) => Some(reply),
                    Err(RecvTimeoutError::Timeout) => {
                        // Hang up: the search runs on unobserved; a new worker is loaded
                        // from `clauses` at the next solve.
                        self.worker = None;
                        self.tally.solve_time += start.elapsed();
                        return SolveResult::Interrupted;
                    }
                    Err(RecvTimeoutError::Disconnected) => None,
                }
            }
        };
        let reply = reply.expect("the varisat worker thread died");
        let result = match reply.answer {
            Some(true) => SolveResult::Sat,
            Some(false) => SolveResult::Unsat,
            None => SolveResult::Interrupted,
        };
        self.model = reply.model;
        self.core = reply.core.into_iter().map(Lit::from_dimacs).collect();
        self.last = Some(result);
        self.tally.solve_time += start.elapsed();
        result
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        if self.last != Some(SolveResult::Sat) {
            return None;
        }
        match self.model.get(lit.var().to_dimacs() as usize) {
            Some(1) => Some(lit.is_positive()),
            Some(2) => Some(!lit.is_positive()),
            _ => None,
        }
    }

    fn failed_core(&self) -> Vec<Lit> {
        if self.last == Some(SolveResult::Unsat) {
            self.core.clone()
        } else {
            Vec::new()
        }
    }

    fn set_budget(&mut self, budget: Budget) -> Result<(), UnsupportedBudget> {
        if budget.conflicts.is_some() {
            return Err(UnsupportedBudget {
                solver: "varisat",
                what: "conflicts",
            });
        }
        self.budget = budget;
        Ok(())
    }

    fn stats(&self) -> Stats {
        self.tally.stats(None)
    }
}
