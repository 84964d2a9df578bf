//! A [`Propagator`] driven by batsat's `Theory` callbacks.
//!
//! batsat hands its theory the whole trail at every propagation fixpoint (`partial_check`) and
//! tells it about decision levels (`create_level`, `pop_levels`). The adapter remembers how much
//! of the trail it has reported, per level, so each observed literal is reported once per
//! assignment; popping levels rewinds that mark to where the level began, which is exactly the
//! trail batsat keeps.

use std::time::{Duration, Instant};

use batsat::theory::{Theory, TheoryArg};
use batsat::{lbool, Lit as BLit, Var as BVar};

use crate::{Lit, Propagation, Propagator};

/// What the adapter keeps between solves: level 0 and its trail survive a solve.
#[derive(Default)]
pub(crate) struct AdapterState {
    /// Observed variables, by batsat index.
    pub observed: Vec<bool>,
    /// Trail entries already reported to the propagator.
    seen: usize,
    /// `seen` at the start of each open decision level.
    level_seen: Vec<usize>,
    /// Time spent inside the propagator.
    pub time: Duration,
    batch: Vec<Lit>,
    reason: Vec<BLit>,
}

impl AdapterState {
    pub fn observe(&mut self, var: usize) {
        if self.observed.len() <= var {
            self.observed.resize(var + 1, false);
        }
        self.observed[var] = true;
    }
}

/// One solve's view of the propagator as a batsat theory.
pub(crate) struct Adapter<'a> {
    pub propagator: &'a mut dyn Propagator,
    pub state: &'a mut AdapterState,
}

pub(crate) fn to_batsat(lit: Lit) -> BLit {
    BLit::new(
        BVar::unsafe_from_idx(lit.var().index() as u32),
        lit.is_positive(),
    )
}

pub(crate) fn from_batsat(lit: BLit) -> Lit {
    let n = lit.var().idx() as i32 + 1;
    Lit::from_dimacs(if lit.sign() { n } else { -n })
}

impl Adapter<'_> {
    /// Reports the new observed trail literals, then passes the propagator's conclusion on.
    fn check(&mut self, acts: &mut TheoryArg) {
        let st = &mut *self.state;
        let trail = acts.model();
        st.batch.clear();
        for &l in &trail[st.seen..] {
            if st.observed.get(l.var().idx() as usize) == Some(&true) {
                st.batch.push(from_batsat(l));
            }
        }
        st.seen = trail.len();
        if !st.batch.is_empty() {
            self.propagator.notify(&st.batch);
        }
        match self.propagator.propagate() {
            Propagation::Done => {}
            Propagation::Conflict(clause) => {
                let clause: Vec<BLit> = clause.into_iter().map(to_batsat).collect();
                acts.raise_conflict(&clause, false);
            }
            Propagation::Imply(lits) => {
                for l in lits {
                    if !acts.propagate(to_batsat(l)) {
                        break;
                    }
                }
            }
        }
    }
}

impl Theory for Adapter<'_> {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        let start = Instant::now();
        self.check(acts);
        if acts.is_ok() && self.state.seen == acts.model().len() {
            let value = |l: Lit| {
                let v = acts.value(BVar::unsafe_from_idx(l.var().index() as u32));
                (v == lbool::TRUE) == l.is_positive()
            };
            if let Some(lemma) = self.propagator.check_model(&value) {
                let lemma: Vec<BLit> = lemma.into_iter().map(to_batsat).collect();
                acts.raise_conflict(&lemma, true);
            }
        }
        self.state.time += start.elapsed();
    }

    fn create_level(&mut self) {
        self.state.level_seen.push(self.state.seen);
        self.propagator.new_level();
    }

    fn pop_levels(&mut self, n: usize) {
        let keep = self.state.level_seen.len() - n;
        self.state.seen = self.state.level_seen[keep];
        self.state.level_seen.truncate(keep);
        let start = Instant::now();
        self.propagator.backtrack(keep);
        self.state.time += start.elapsed();
    }

    fn n_levels(&self) -> usize {
        self.state.level_seen.len()
    }

    fn partial_check(&mut self, acts: &mut TheoryArg) {
        let start = Instant::now();
        self.check(acts);
        self.state.time += start.elapsed();
    }

    fn explain_propagation(&mut self, p: BLit) -> &[BLit] {
        let start = Instant::now();
        let reason = self.propagator.reason(from_batsat(p));
        self.state.reason.clear();
        self.state.reason.extend(reason.into_iter().map(to_batsat));
        self.state.time += start.elapsed();
        &self.state.reason
    }
}
