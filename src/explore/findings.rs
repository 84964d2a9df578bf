//! What an exploration found, and the verdict it supports: FALSE for a run that reached a
//! violation; TRUE only when the whole bounded state space was explored without a trap (an
//! unsupported construct), an asserted bound exceeded, a nondet input that could not be
//! enumerated, or the budget running out; otherwise UNKNOWN with the first such reason.

use crate::verdict::UnknownReason;
use std::time::{Duration, Instant};

use super::interp::{BoundHit, Bounds, Machine, RunEnd};
use crate::engine::{EngineStats, Outcome, Trace, Verdict};
use crate::ir::Loc;
use crate::symex::CheckKind;

/// Limits of one exploration.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Runs (complete or blocked) explored at most.
    pub max_executions: Option<u64>,
    pub deadline: Option<Instant>,
}

/// What an explorer counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExploreStats {
    /// Runs explored to their end (maximal executions, or runs ended by a violation, trap or
    /// bound).
    pub executions: u64,
    /// Runs cut because every enabled thread was asleep (redundant by the sleep sets).
    pub blocked: u64,
    /// Runs or instances refuted without being run (RVF-SMC: VerifySC found no witness).
    pub redundant: u64,
    /// Visible steps executed.
    pub steps: u64,
    /// Instances whose children were searched (RVF-SMC's inner recursion nodes).
    pub nodes: u64,
    /// Witness-prefix extensions a causal map cut (RVF-SMC).
    pub causal_cuts: u64,
    /// Races reversed (backtrack points added).
    pub races: u64,
    /// Races or sleep-set entries decided by independence constraints (cdpor).
    pub constrained: u64,
    /// Nodes that processed one settled read alone (rvf: no thread could write what it
    /// reads any more).
    pub settled: u64,
    /// Witness prefixes extended by one write whose cells' old and new values no event left
    /// needs, without trying the other extensions (rvf: VerifySC's greedy rule 1b).
    pub quiet_writes: u64,
    /// Child instances not explored because their new read stops its thread without an
    /// effect another thread sees (rvf: `rvf::stopping`).
    pub silent_stops: u64,
    /// Input paths (sets of decisions on symbolic inputs) of the runs explored to their end:
    /// the classes of inputs covered (1 without symbolic inputs).
    pub input_classes: u64,
    /// Outcomes of a step not explored because they stop their thread at an assumption that
    /// could have held, before it did anything visible (concolic dpor/cdpor,
    /// `concolic::stops`).
    pub pruned_stops: u64,
    /// Distinct paths (every thread's branch decisions) of the runs explored to their end.
    pub paths: u64,
    /// States stored (stateful search).
    pub states: u64,
    /// Stored states the partial-order reduction expanded by one thread alone.
    pub reduced_states: u64,
    /// The CPU time of the stateful search's certificate check.
    pub check_time: Duration,
    pub time: Duration,
}

/// The findings of one exploration.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    pub violation: Option<Trace>,
    /// The first reason a TRUE would not be sound.
    pub incomplete: Option<UnknownReason>,
    /// The first bound exceeded (an `unwind bound too small` reason).
    pub bound: Option<UnknownReason>,
    pub stats: ExploreStats,
    /// The paths of the runs explored to their end (see [`ExploreStats::paths`]).
    pub paths: std::collections::HashSet<u64>,
}

impl Findings {
    /// Records the end of a run; true when the exploration should stop (a violation).
    pub fn run_end(&mut self, m: &Machine, end: &RunEnd, at: Loc) -> bool {
        let prog = m.program();
        match end {
            RunEnd::Violation { .. } => return true,
            RunEnd::Trap { what, at: trapped } => {
                let what = what.strip_prefix("unsupported: ").unwrap_or(what);
                self.incomplete
                    .get_or_insert_with(|| UnknownReason::Unsupported {
                        what: what.to_string(),
                        at: Some(prog.loc_str(trapped.unwrap_or(at))),
                    });
            }
            RunEnd::Bound { hit, loc, .. } => {
                let kind = match hit {
                    BoundHit::Loop { func, lp } => CheckKind::Unwind {
                        func: *func,
                        lp: *lp,
                    },
                    BoundHit::Recursion(f) => CheckKind::Recursion(*f),
                };
                self.bound
                    .get_or_insert_with(|| crate::engine::check_reason(prog, &kind, *loc));
            }
            RunEnd::Finished | RunEnd::Deadlock => {}
        }
        false
    }

    pub fn give_up(&mut self, why: UnknownReason) {
        self.incomplete.get_or_insert(why);
    }

    /// The engine outcome.
    pub fn outcome(self, bounds: &Bounds) -> Outcome {
        let stats = EngineStats {
            total_time: self.stats.time,
            explore: Some(self.stats.clone()),
            ..Default::default()
        };
        let verdict = if let Some(trace) = self.violation {
            Verdict::False { trace }
        } else if let Some(why) = self.incomplete {
            Verdict::Unknown(why)
        } else if let Some(why) = self.bound {
            Verdict::Unknown(why)
        } else {
            Verdict::True {
                complete: bounds.assertions,
            }
        };
        Outcome::new(verdict, stats)
    }
}

/// `budget` exhausted: the reason, if so.
pub fn out_of_budget(budget: &Budget, stats: &ExploreStats) -> Option<UnknownReason> {
    let runs = stats.executions + stats.blocked;
    if budget.max_executions.is_some_and(|n| runs >= n) {
        return Some(UnknownReason::ExecutionBudget { runs });
    }
    if budget.deadline.is_some_and(|d| Instant::now() >= d) {
        return Some(UnknownReason::Timeout);
    }
    None
}

/// The reason for a nondet input the explorer cannot enumerate.
pub fn unenumerable(m: &Machine, loc: Loc) -> UnknownReason {
    UnknownReason::Unsupported {
        what: "nondet input with too many values to enumerate".into(),
        at: Some(m.program().loc_str(loc)),
    }
}
