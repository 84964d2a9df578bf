//! A [`Propagator`] behind CaDiCaL's external propagator interface (IPASIR-UP).
//!
//! CaDiCaL reports assignments of observed variables, decision levels and backtracking, asks for
//! propagations one literal at a time (and for their reason clauses lazily), and for external
//! clauses, which is how a conflict reaches it: a clause false under the current assignment. It
//! may report an assignment again after backtracking (out-of-order literals it keeps); the
//! propagator's contract allows that.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use cadical_sys::ExternalPropagator;

use crate::{Lit, Propagation, Propagator};

pub(crate) struct UpAdapter {
    inner: Box<dyn Propagator>,
    /// Time spent inside the propagator.
    pub time: Duration,
    implied: VecDeque<i32>,
    /// A clause waiting to be handed to CaDiCaL (a conflict or a lemma), and how much of it
    /// has been handed out.
    clause: Vec<i32>,
    clause_at: usize,
    has_clause: bool,
    /// The reason clause being handed out, for which literal, and how far.
    reason: Vec<i32>,
    reason_at: usize,
    reason_for: i32,
    batch: Vec<Lit>,
    /// Values of a full model, by variable index (scratch of `cb_check_found_model`).
    model: Vec<i8>,
}

impl UpAdapter {
    pub fn new(inner: Box<dyn Propagator>) -> UpAdapter {
        UpAdapter {
            inner,
            time: Duration::ZERO,
            implied: VecDeque::new(),
            clause: Vec::new(),
            clause_at: 0,
            has_clause: false,
            reason: Vec::new(),
            reason_at: 0,
            reason_for: 0,
            batch: Vec::new(),
            model: Vec::new(),
        }
    }

    pub fn inner(&mut self) -> &mut dyn Propagator {
        &mut *self.inner
    }

    fn stash(&mut self, clause: Vec<Lit>) {
        self.clause = clause.iter().map(|l| l.to_dimacs()).collect();
        self.clause_at = 0;
        self.has_clause = true;
    }

    /// The propagator's conclusion: a literal to propagate (0 for none), stashing a conflict.
    fn conclude(&mut self) -> i32 {
        if let Some(l) = self.implied.pop_front() {
            return l;
        }
        if self.has_clause {
            return 0;
        }
        match self.inner.propagate() {
            Propagation::Done => 0,
            Propagation::Conflict(c) => {
                self.stash(c);
                0
            }
            Propagation::Imply(lits) => {
                self.implied.extend(lits.iter().map(|l| l.to_dimacs()));
                self.implied.pop_front().unwrap_or(0)
            }
        }
    }
}

impl ExternalPropagator for UpAdapter {
    fn notify_assignment(&mut self, lits: &[i32]) {
        self.batch.clear();
        self.batch.extend(lits.iter().map(|&l| Lit::from_dimacs(l)));
        self.inner.notify(&self.batch);
    }

    fn notify_new_decision_level(&mut self) {
        self.inner.new_level();
    }

    fn notify_backtrack(&mut self, new_level: usize) {
        let start = Instant::now();
        self.implied.clear();
        self.inner.backtrack(new_level);
        self.time += start.elapsed();
    }

    fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
        let start = Instant::now();
        let accepted = match self.conclude() {
            0 if !self.has_clause => {
                self.model.clear();
                for &l in model {
                    let v = l.unsigned_abs() as usize - 1;
                    if v >= self.model.len() {
                        self.model.resize(v + 1, 0);
                    }
                    self.model[v] = if l > 0 { 1 } else { -1 };
                }
                let values = &self.model;
                let value = |l: Lit| {
                    let v = values.get(l.var().index()).copied().unwrap_or(0);
                    (v > 0) == l.is_positive()
                };
                match self.inner.check_model(&value) {
                    None => true,
                    Some(lemma) => {
                        self.stash(lemma);
                        false
                    }
                }
            }
            // A pending conflict or propagation: the model is not final.
            l => {
                if l != 0 {
                    self.implied.push_front(l);
                }
                false
            }
        };
        self.time += start.elapsed();
        accepted
    }

    fn cb_propagate(&mut self) -> i32 {
        let start = Instant::now();
        let l = self.conclude();
        self.time += start.elapsed();
        l
    }

    fn cb_add_reason_clause_lit(&mut self, propagated: i32) -> i32 {
        if self.reason_for != propagated {
            let start = Instant::now();
            let p = Lit::from_dimacs(propagated);
            self.reason.clear();
            self.reason.push(propagated);
            self.reason
                .extend(self.inner.reason(p).iter().map(|l| (!*l).to_dimacs()));
            self.reason_at = 0;
            self.reason_for = propagated;
            self.time += start.elapsed();
        }
        if self.reason_at < self.reason.len() {
            self.reason_at += 1;
            self.reason[self.reason_at - 1]
        } else {
            self.reason_for = 0;
            0
        }
    }

    fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
        *is_forgettable = true;
        self.has_clause
    }

    fn cb_add_external_clause_lit(&mut self) -> i32 {
        if self.clause_at < self.clause.len() {
            self.clause_at += 1;
            self.clause[self.clause_at - 1]
        } else {
            self.has_clause = false;
            0
        }
    }
}
