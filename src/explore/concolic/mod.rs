//! Nondet inputs for the explorers, after maximal path causality (Yi and Huang, FSE 2018):
//! inputs stay symbolic along a run and the path conditions are solved with the SAT layer to
//! pick the inputs of the paths not covered yet.
//!
//! The interpreter runs concolically: every value computed from a nondet input carries, next
//! to its concrete bits, a term over the inputs ([`term`]) that gives those bits for every
//! input. Where the concrete run makes a choice on such a value (a branch, an assumption, an
//! assertion, a division's or shift's trap, the cell an input-dependent array index selects,
//! see `Machine::split_index`; the value of an input-dependent pointer offset or size, see
//! `interp::pin`) it records a [`Decision`]: the condition's term and the way the run went.
//! Where a value the shadow cannot follow would steer the run (an integer cast to a pointer,
//! a thread handle, a symbolic value read in parts or inside an aggregate), the run ends with
//! an `unsupported` trap: the answer is UNKNOWN, never a guess. [`search`] drives the schedule
//! explorer over the input space.

pub mod encode;
pub mod enumerate;
pub mod search;
pub mod split;
pub mod stops;
pub mod term;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use term::{InputKey, SymId, Terms};

/// A choice of the run on an input-dependent condition (a one-bit term).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    pub cond: SymId,
    pub taken: bool,
}

/// The concrete run disagrees with its symbolic shadow: a bug that must not give a verdict.
#[derive(Clone, Debug)]
pub struct Mismatch;

/// The symbolic state shared by every machine of one exploration.
#[derive(Debug, Default)]
pub struct Concolic {
    pub terms: Terms,
    /// The inputs' values in this run (an input not listed is 0).
    values: HashMap<InputKey, u64>,
    memo: HashMap<SymId, u64>,
    /// The decisions of the run so far (its path condition), each condition once, in the
    /// order they were first made.
    pub log: Vec<Decision>,
    /// For each decision of `log`, how many enumerated choices (nondet values of at most two
    /// values) the run had made before it: orders a step's decisions among its choices.
    pub at_choice: Vec<u64>,
    /// Enumerated choices made so far (only differences within one step mean anything).
    pub choices: u64,
    seen: HashSet<SymId>,
    /// A decision disagreed with its term in this run. Recorded here as well as trapped: a
    /// machine that only probes (an enabledness test, a commutation check on a copy) drops
    /// its trap, and a wrong shadow must still void the verdict.
    pub mismatch: bool,
    /// The condition of the last assumption that failed on an input (its thread stopped);
    /// the explorer clears it before a step (see [`stops`]).
    pub failed_assume: Option<SymId>,
    /// When set, every decision made from then on, repeats included, in order: the decisions
    /// of one step, which the first-met `log` does not give (`rvf::assume_stops`).
    pub trail: Option<Vec<Decision>>,
}

/// The handle the machines keep (clones of a machine share it).
pub type Handle = Rc<RefCell<Concolic>>;

impl Concolic {
    /// Starts a run with these input values.
    pub fn start_run(&mut self, values: HashMap<InputKey, u64>) {
        self.values = values;
        self.memo.clear();
        self.log.clear();
        self.at_choice.clear();
        self.seen.clear();
        self.mismatch = false;
    }

    /// Goes on with other input values (the memo of term values is theirs no more).
    pub fn set_values(&mut self, values: HashMap<InputKey, u64>) {
        self.values = values;
        self.memo.clear();
    }

    /// Goes back to the first `len` decisions: a run restored to an earlier prefix, or the
    /// decisions of a probing machine dropped.
    pub fn truncate(&mut self, len: usize) {
        for d in self.log.drain(len.min(self.log.len())..) {
            self.seen.remove(&d.cond);
        }
        self.at_choice.truncate(len);
    }

    pub fn values(&self) -> &HashMap<InputKey, u64> {
        &self.values
    }

    /// The value of a term under this run's inputs.
    pub fn value(&mut self, s: SymId) -> u64 {
        let values = &self.values;
        self.terms
            .eval(s, &|k| values.get(&k).copied().unwrap_or(0), &mut self.memo)
    }

    /// The input `key` of `width` bits: its value this run and its term.
    pub fn input(&mut self, key: InputKey, width: u32) -> (u64, SymId) {
        let s = self.terms.input(key, width);
        (self.value(s), s)
    }

    /// Records that the run went the `taken` way on the one-bit condition `cond`. A condition
    /// the run met before is not recorded again (its value is the same: one term, one input).
    pub fn decide(&mut self, cond: SymId, taken: bool) -> Result<(), Mismatch> {
        if (self.value(cond) != 0) != taken {
            self.mismatch = true;
            return Err(Mismatch);
        }
        if self.terms.is_const(cond) {
            return Ok(());
        }
        if let Some(trail) = &mut self.trail {
            trail.push(Decision { cond, taken });
        }
        if self.seen.insert(cond) {
            self.log.push(Decision { cond, taken });
            self.at_choice.push(self.choices);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decision against its term's value is refused and leaves a mark the search reads
    /// after the exploration (a probing machine may drop the trap); a new run clears it.
    #[test]
    fn a_mismatch_is_remembered_for_the_run() {
        let mut k = Concolic::default();
        let key = InputKey {
            thread: 0,
            index: 0,
        };
        k.start_run(HashMap::from([(key, 3)]));
        let (_, x) = k.input(key, 8);
        let c = k.terms.nonzero(x);
        assert!(k.decide(c, true).is_ok());
        assert!(!k.mismatch);
        assert!(k.decide(c, false).is_err());
        assert!(k.mismatch);
        k.start_run(HashMap::new());
        assert!(!k.mismatch);
    }
}
