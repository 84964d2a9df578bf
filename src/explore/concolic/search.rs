//! Schedules × inputs: the schedule explorer run once per class of inputs, the classes found
//! by solving the decisions of the runs so far with one of them negated.
//!
//! # Why every behaviour within the bound is covered
//!
//! Fix the input values `v`. The schedule explorer (`dpor::explore`) on the concolic machine
//! is then a deterministic procedure, and call its whole exploration `E(v)`: every run, every
//! race, every backtrack and sleep-set decision. `E(v)` covers every schedule class of the
//! program for the inputs `v` (the explorer's own guarantee). Its dependence on `v` goes only
//! through the decisions the machine records: a value with no term is the same for every `v`
//! that makes the same decisions, one with a term is that term's value (the invariant of
//! `interp::shadow`), and every place where a concrete value steers the machine — a branch, an
//! assumption, an assertion, a trap of a division or a shift, an `?:` — either is a decision
//! on its term or ends the run as unsupported when it cannot be one. The concrete values of
//! accesses are not used for scheduling (dependence is by location). So if `v'` makes the
//! decisions `d_1 … d_n` of `E(v)` the same way, `E(v')` is `E(v)` step for step, with the same
//! verdicts; the inputs split into classes by the sequence of decision outcomes of the whole
//! exploration, a binary tree whose leaves are the classes.
//!
//! The search enumerates the leaves of that tree with generational search: a run with bound
//! `b` (the root has 0) asks the solver, for each position `k ≥ b` of its decisions, for
//! inputs that make `d_1 … d_{k-1}` the same and `d_k` the other way, and runs them with bound
//! `k + 1`. Each leaf is reached exactly once: by induction on the first position where a
//! leaf's outcome sequence leaves the current run's, the child for that position is the only
//! one below which it lies. A position the solver proves unsatisfiable has no inputs at all on
//! its other side. A condition met again in the same exploration is not a new position (one
//! term, one value). So within the bound every input class is explored with all its schedule
//! classes: the union is every behaviour of the bounded program. Each run checks that it made
//! the decisions it was solved for; if not (a bug in the shadow or the encoding), the answer
//! is UNKNOWN.
//!
//! A class of runs can be run again in several input classes when the runs before it in the
//! exploration differ: the search explores each (schedule class, input path) pair at least
//! once, and `--stats` shows how many distinct paths it covered.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::time::Instant;

use encoder::Encoder;
use solver_glue::{make_solver, SolveResult, DEFAULT_SOLVER};

use super::encode::Circuits;
use super::term::InputKey;
use super::{Concolic, Decision, Handle};
use crate::explore::dpor::{self, Report};
use crate::explore::findings::{out_of_budget, Findings};
use crate::ir::Program;
use crate::verdict::UnknownReason;

/// One exploration to run: its inputs, the first decision it may negate, and the decisions
/// it must make (those of its parent up to the negated one, negated).
struct Job {
    values: HashMap<InputKey, u64>,
    bound: usize,
    expect: Vec<Decision>,
}

/// Explores `prog` over schedules and inputs (`opts.concolic` is set here).
pub fn explore(prog: &Program, opts: &dpor::Options) -> Report {
    let start = Instant::now();
    let h: Handle = Rc::new(RefCell::new(Concolic::default()));
    let mut run_opts = opts.clone();
    run_opts.concolic = Some(h.clone());
    let mut total = Findings::default();
    let mut paths: HashSet<u64> = HashSet::new();
    let mut runs = Vec::new();
    let mut work = vec![Job {
        values: HashMap::new(),
        bound: 0,
        expect: Vec::new(),
    }];
    while let Some(job) = work.pop() {
        if let Some(why) = out_of_budget(&opts.budget, &total.stats) {
            total.give_up(why);
            break;
        }
        run_opts.budget.max_executions = opts
            .budget
            .max_executions
            .map(|n| n.saturating_sub(total.stats.executions + total.stats.blocked));
        h.borrow_mut().start_run(job.values.clone());
        let mut rep = dpor::explore(prog, &run_opts);
        let f = &rep.findings;
        let s = &mut total.stats;
        s.executions += f.stats.executions;
        s.blocked += f.stats.blocked;
        s.redundant += f.stats.redundant;
        s.steps += f.stats.steps;
        s.races += f.stats.races;
        s.constrained += f.stats.constrained;
        s.input_classes += 1;
        paths.extend(f.paths.iter().copied());
        runs.append(&mut rep.runs);
        if let Some(v) = rep.findings.violation {
            total.violation.get_or_insert(v);
            if !opts.all {
                break;
            }
        }
        if let Some(b) = rep.findings.bound {
            total.bound.get_or_insert(b);
        }
        let log = h.borrow().log.clone();
        if let Some(why) = rep.findings.incomplete {
            let stop = matches!(
                why,
                UnknownReason::Timeout | UnknownReason::ExecutionBudget { .. }
            );
            total.give_up(why);
            if stop {
                break;
            }
        }
        if h.borrow().mismatch {
            total.give_up(UnknownReason::unsupported(
                "the symbolic shadow disagreed with a run (internal error)",
            ));
            break;
        }
        if log.len() < job.expect.len() || log[..job.expect.len()] != job.expect[..] {
            total.give_up(UnknownReason::unsupported(
                "an input class did not follow the decisions it was solved for (internal error)",
            ));
            break;
        }
        if log.len() > job.bound {
            match children(&h, &job, &log, opts) {
                Ok(kids) => work.extend(kids),
                Err(why) => {
                    total.give_up(why);
                    break;
                }
            }
        }
    }
    total.stats.paths = paths.len() as u64;
    total.paths = paths;
    total.stats.time = start.elapsed();
    Report {
        findings: total,
        runs,
    }
}

/// The explorations below a run: for each decision from the bound on, inputs that keep the
/// ones before it and negate it, when there are such inputs.
fn children(
    h: &Handle,
    job: &Job,
    log: &[Decision],
    opts: &dpor::Options,
) -> Result<Vec<Job>, UnknownReason> {
    let k = h.borrow();
    let mut solver = make_solver(DEFAULT_SOLVER)
        .map_err(|e| UnknownReason::unsupported(format!("solver: {e}")))?;
    if let Some(d) = opts.budget.deadline {
        let left = d.saturating_duration_since(Instant::now());
        let _ = solver.set_budget(solver_glue::Budget {
            time: Some(left),
            conflicts: None,
        });
    }
    let mut enc = Encoder::new(&mut *solver);
    let mut c = Circuits::default();
    let lits: Vec<_> = log
        .iter()
        .map(|d| {
            let l = c.lit(&k.terms, &mut enc, d.cond);
            if d.taken {
                l
            } else {
                !l
            }
        })
        .collect();
    let mut kids = Vec::new();
    for pos in job.bound..log.len() {
        let mut assume: Vec<_> = lits[..pos].to_vec();
        assume.push(!lits[pos]);
        match enc.solver().solve(&assume) {
            SolveResult::Unsat => continue,
            SolveResult::Interrupted => return Err(UnknownReason::Timeout),
            SolveResult::Sat => {}
        }
        let mut values = job.values.clone();
        for (key, v) in &c.inputs {
            values.insert(*key, enc.bv_value_u64(v));
        }
        let mut expect = log[..pos].to_vec();
        expect.push(Decision {
            cond: log[pos].cond,
            taken: !log[pos].taken,
        });
        kids.push(Job {
            values,
            bound: pos + 1,
            expect,
        });
    }
    Ok(kids)
}
