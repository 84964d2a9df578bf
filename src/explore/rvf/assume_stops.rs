//! Failed assumptions of a silent thread under symbolic inputs: a node whose extension stops
//! a thread that has done nothing visible at an assumption on its inputs that could have held
//! is not explored (counted as `pruned_stops`). The rule of `concolic::stops` for dpor, with
//! an argument over input classes instead of the schedule tree.
//!
//! `x = nondet(); assume(2 <= x && x <= 7);` in each of three workers: every exploration
//! (`inputs`) decides the assumptions, and the driver explores each way of each, so the input
//! classes are the product of the workers' input paths, the failing ones included (seed 2 of
//! `yogar-bench explore-gen`: 11 × 3 × 11 paths, 9 × 1 × 9 with every assumption holding).
//! An exploration whose inputs fail a worker's assumption runs the whole space of the other
//! threads again with that worker stopped, and its decisions there split it further.
//!
//! # The rule
//!
//! A thread's step is *silent* when `concolic::stops::silent` says so (no access, no lock,
//! no creation, no enumerated choice, no atomic section). A silent step observes nothing, so
//! the extension (parent module, step 1) takes it as soon as its thread can run. Thread `p`'s
//! step in a node's extension is a *cut stop* when
//! 1. it stops `p` at an assumption whose condition `d` has a term (`Concolic::failed_assume`),
//!    and `d` taken false is the last decision the step made;
//! 2. every step of `p` so far, this one included, is silent, and every decision they made
//!    (`Concolic::trail`: each one, repeats included, in order) mentions inputs of `p` only;
//! 3. `d` can hold: the decisions of `p`'s steps before it (this step's earlier ones
//!    included) and `d` taken true are satisfiable (`Splitter::other_way`).
//!
//! The node is then dropped at once: no leaf, no children, and the rest of its extension not
//! run (its decisions would split the input class for nothing). While classes are counted
//! the rule is off (it drops leaves).
//!
//! # Why no violation, trap or bound is lost
//!
//! A silent thread reads nothing shared, so its steps are a function of its start, its
//! argument (fixed by its creation event, a read of the thread table) and its inputs `X_p`:
//! its *silent prefix* (its steps up to its first non-silent one, its end or its stop) is
//! fixed by them, and nothing computed from `X_p` reaches another thread (it writes nothing).
//! Call inputs `v` *passing* for a run `T` when no thread created in `T` has a silent prefix
//! under `v` (with its creation in `T`) that ends in a cut stop. Every node `N` that `T` fits
//! (parent module, "Causal maps") creates its threads as `T` does (creation events are
//! reads, in `T` with their observations) and runs each thread's silent prefix as it is, so
//! when `v` is passing for `T`, no node that `T` fits is cut. The completeness induction
//! then goes through unchanged: it moves from `N` to children that `T` fits, or replaces `T`
//! by a run with the same creations (`stopping`, `settled`), for which `v` stays passing.
//! So `E(v)` meets the end of every run of `P_v` for which `v` is passing.
//!
//! Let `ρ` be a run under inputs `u` that ends in a violation, a trap or a bound. Build `v'`
//! from `u`: the inputs of a thread that is not silent throughout `ρ` stay. For a thread `q`
//! silent throughout `ρ`, keep the outcomes of the decisions of its steps in `ρ` except the
//! last step if it is a cut stop, then follow `q`'s silent continuation one decision at a time,
//! taking each assumption true when that is satisfiable with the decisions before it (3) and
//! each other decision a satisfiable way; stop choosing at a decision that mentions another
//! thread's inputs (no cut stop can follow it, by 2). The decisions of `q` mention `X_q`
//! only up to there, so each choice is one of `X_q`. Let `ρ'` be `ρ` without the cut stops.
//! Under `v'` every step of `ρ'` makes the decisions it made in `ρ` (no other thread sees
//! `X_q`), so `ρ'` is a run under `v'` that ends the same way (a stopped thread and one not
//! run further are alike to the others: a join of either waits, neither holds a mutex or is
//! inside an atomic section). `v'` is passing for `ρ'`: a thread not silent throughout `ρ`
//! leaves its silent prefix at a step of `ρ`; one silent throughout takes every assumption
//! that can hold. The driver (`inputs`) explores some `E(v̂)` with `v̂` deciding every
//! condition as `v'` does: the cut stops depend on the decisions and the solver's answers
//! only, so `E(v̂)` is `E(v')` and it reports `ρ'`'s end.
//!
//! Without 3, an assumption that never holds (`stop_unsat_assume_false.c`) would cut every
//! run where its thread was created. Without the whole trail in 3 (the first-met `log`
//! has a condition once), a condition the thread branched on before could not hold at the
//! assumption and the check would not see it. Without 2, the thread may have written a value
//! the others read (`stop_value_read_later_false.c`).

use super::event::Ev;
use crate::explore::concolic::split::{Splitter, Values};
use crate::explore::concolic::stops::silent;
use crate::explore::concolic::{Decision, Handle};
use crate::explore::interp::Machine;
use crate::explore::sched::Step;
use crate::verdict::UnknownReason;

/// Per thread of a node: the decisions of its steps so far while each of them is silent,
/// `None` once one is not.
#[derive(Clone, Debug, Default)]
pub struct Quiet(Vec<Option<Vec<Decision>>>);

impl Quiet {
    fn grow(&mut self, n: usize) {
        if self.0.len() < n {
            self.0.resize(n, Some(Vec::new()));
        }
    }

    /// Thread `t` took a step that is not silent (a read a witness search added).
    pub fn loud(&mut self, t: usize) {
        self.grow(t + 1);
        self.0[t] = None;
    }
}

/// The symbolic state of one exploration and the solver that decides condition 3.
pub struct Cuts<'s> {
    pub h: Handle,
    pub split: &'s mut Splitter,
    pub values: Values,
}

impl Cuts<'_> {
    /// Before a step of the extension: its decisions are recorded from here.
    pub fn before(&self) {
        let mut k = self.h.borrow_mut();
        k.failed_assume = None;
        k.trail = Some(Vec::new());
    }

    /// After thread `t`'s step `step` of the extension (taken into the node, leaving `m`):
    /// notes it in `quiet` and tells whether it is a cut stop (module doc).
    pub fn after(
        &mut self,
        quiet: &mut Quiet,
        t: usize,
        step: &Step,
        ev: &Ev,
        m: &Machine,
    ) -> Result<bool, UnknownReason> {
        let (trail, failed) = {
            let mut k = self.h.borrow_mut();
            (k.trail.take().unwrap_or_default(), k.failed_assume.take())
        };
        quiet.grow(t + 1);
        let quiet_ev = ev.obs.is_empty() && ev.sync_writes.is_empty() && ev.writes.is_empty();
        let Some(mine) = quiet.0[t].as_mut().filter(|_| silent(step) && quiet_ev) else {
            quiet.0[t] = None;
            return Ok(false);
        };
        mine.extend(trail.iter().copied());
        let Some(d) = failed else {
            return Ok(false);
        };
        let stop = Decision {
            cond: d,
            taken: false,
        };
        if step.end.is_some() || !m.is_stopped(t) || trail.last() != Some(&stop) {
            return Ok(false);
        }
        let k = self.h.borrow();
        let mut inputs = Vec::new();
        for x in mine.iter() {
            k.terms.inputs(x.cond, &mut inputs);
        }
        if inputs.iter().any(|(key, _)| key.thread as usize != t) {
            return Ok(false);
        }
        let keep = &mine[..mine.len() - 1];
        Ok(self
            .split
            .other_way(&k.terms, keep, stop, &self.values)?
            .is_some())
    }

    /// A step of the extension that is not taken: its decisions are not the node's.
    pub fn discard(&self) {
        let mut k = self.h.borrow_mut();
        k.trail = None;
        k.failed_assume = None;
    }
}
