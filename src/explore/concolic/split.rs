//! The solver side of input branching: inputs that keep a path condition and take one more
//! decision the other way, from one incremental solver for a whole exploration.
//!
//! Each condition's circuit is built once (terms are hash-consed, so a condition met again
//! in another run is the same circuit) and a query only assumes the literals of the decisions
//! it keeps and the negation of the one it flips. Queries repeat across the schedule tree (the
//! same step with the same path condition below different schedule prefixes), so their
//! answers are kept by the set of decisions asked for. A query over inputs of small ranges is
//! decided by enumeration first (`enumerate`: exact, and cheaper than a solve, which must
//! assign every circuit built so far); only the others reach the solver.

use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use encoder::{Encoder, EncoderState};
use solver_glue::{make_solver, SatSolver, SolveResult, DEFAULT_SOLVER};

use super::encode::Circuits;
use super::enumerate::{self, Answer};
use super::term::{InputKey, Terms};
use super::Decision;
use crate::verdict::UnknownReason;

/// Input values of a run (an input not listed is 0), shared by the alternatives that use them.
pub type Values = Rc<HashMap<InputKey, u64>>;

/// The inputs a solved query gives to the inputs it mentions.
type Model = Vec<(InputKey, u64)>;

/// One incremental solver over the decisions of an exploration.
pub struct Splitter {
    solver: Box<dyn SatSolver>,
    state: Option<EncoderState>,
    circuits: Circuits,
    deadline: Option<Instant>,
    memo: HashMap<Vec<Decision>, Option<Model>>,
    /// The solver's answers to the components enumeration left open.
    parts: HashMap<Vec<Decision>, Option<Model>>,
    /// Queries the solver answered (the others came from the memo).
    pub solves: u64,
}

impl Splitter {
    pub fn new(deadline: Option<Instant>) -> Result<Splitter, UnknownReason> {
        let mut solver = make_solver(DEFAULT_SOLVER)
            .map_err(|e| UnknownReason::unsupported(format!("solver: {e}")))?;
        let state = Encoder::new(&mut *solver).into_state();
        Ok(Splitter {
            solver,
            state: Some(state),
            circuits: Circuits::default(),
            deadline,
            memo: HashMap::new(),
            parts: HashMap::new(),
            solves: 0,
        })
    }

    /// Inputs that make every decision of `keep` the same way and `flip` the other way: the
    /// model's values for every input encoded so far (those the decisions do not constrain
    /// take whatever value the model gives), `base`'s for inputs not yet encoded. None when
    /// there are no such inputs. The replay under them checks the decisions it was solved for.
    pub fn other_way(
        &mut self,
        terms: &Terms,
        keep: &[Decision],
        flip: Decision,
        base: &Values,
    ) -> Result<Option<Values>, UnknownReason> {
        let mut key: Vec<Decision> = keep.to_vec();
        key.push(Decision {
            cond: flip.cond,
            taken: !flip.taken,
        });
        key.sort_unstable_by_key(|d| (d.cond, d.taken));
        key.dedup();
        if !self.memo.contains_key(&key) {
            let model = self.decide(terms, &key)?;
            self.memo.insert(key.clone(), model);
        }
        Ok(self.memo[&key].as_ref().map(|model| {
            let mut values = (**base).clone();
            values.extend(model.iter().copied());
            Rc::new(values)
        }))
    }

    /// A model of `want`, component by component (`enumerate`): the small ones enumerated,
    /// the others solved (each component's answer kept, as queries share components).
    fn decide(&mut self, terms: &Terms, want: &[Decision]) -> Result<Option<Model>, UnknownReason> {
        let parts = enumerate::components(terms, want);
        if parts.iter().any(|c| c.answer == Answer::Unsat) {
            return Ok(None);
        }
        let mut model = Vec::new();
        for c in parts {
            match c.answer {
                Answer::Sat(m) => model.extend(m),
                Answer::Unsat => return Ok(None),
                Answer::Unknown => {
                    if !self.parts.contains_key(&c.decisions) {
                        // The solver's model for this component's inputs only: the other
                        // components' inputs take their own components' values.
                        let m = self.solve(terms, &c.decisions)?.map(|m| {
                            m.into_iter()
                                .filter(|(k, _)| c.inputs.contains(k))
                                .collect::<Model>()
                        });
                        self.parts.insert(c.decisions.clone(), m);
                    }
                    match &self.parts[&c.decisions] {
                        Some(m) => model.extend(m.iter().copied()),
                        None => return Ok(None),
                    }
                }
            }
        }
        Ok(Some(model))
    }

    fn solve(&mut self, terms: &Terms, want: &[Decision]) -> Result<Option<Model>, UnknownReason> {
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(UnknownReason::Timeout);
            }
            let _ = self.solver.set_budget(solver_glue::Budget {
                time: Some(left),
                conflicts: None,
            });
        }
        self.solves += 1;
        let state = self.state.take().expect("encoder state");
        let mut enc = Encoder::resume(&mut *self.solver, state);
        let assume: Vec<_> = want
            .iter()
            .map(|d| {
                let l = self.circuits.lit(terms, &mut enc, d.cond);
                if d.taken {
                    l
                } else {
                    !l
                }
            })
            .collect();
        let r = enc.solver().solve(&assume);
        let model = match r {
            SolveResult::Sat => Ok(Some(
                self.circuits
                    .inputs
                    .iter()
                    .map(|(k, v)| (*k, enc.bv_value_u64(v)))
                    .collect(),
            )),
            SolveResult::Unsat => Ok(None),
            SolveResult::Interrupted => Err(UnknownReason::Timeout),
        };
        self.state = Some(enc.into_state());
        model
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::concolic::term::CmpOp;

    /// A flip is found when the kept decisions allow it, refused when they exclude it, and
    /// the values it gives satisfy every decision asked for.
    #[test]
    fn flips_respect_the_kept_decisions() {
        let mut terms = Terms::default();
        let k = InputKey {
            thread: 0,
            index: 0,
        };
        let x = terms.input(k, 8);
        let five = terms.constant(8, 5);
        let three = terms.constant(8, 3);
        let gt5 = terms.cmp(CmpOp::Ult, five, x);
        let gt3 = terms.cmp(CmpOp::Ult, three, x);
        let mut s = Splitter::new(None).unwrap();
        let base: Values = Rc::new(HashMap::new());
        let keep = [Decision {
            cond: gt5,
            taken: true,
        }];
        // x > 5 and not x > 3: none.
        let f = Decision {
            cond: gt3,
            taken: true,
        };
        assert!(s.other_way(&terms, &keep, f, &base).unwrap().is_none());
        // not x > 5 and x > 3: x in 4..=5.
        let v = s
            .other_way(&terms, &[f], keep[0], &base)
            .unwrap()
            .expect("x = 4 or 5");
        assert!((4..=5).contains(&(v[&k] & 0xff)), "{v:?}");
        // The same question again is answered from the memo.
        let n = s.solves;
        assert!(s.other_way(&terms, &[f], keep[0], &base).unwrap().is_some());
        assert_eq!(s.solves, n);
    }
}
