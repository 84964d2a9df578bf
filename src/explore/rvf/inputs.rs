//! Symbolic inputs for RVF-SMC: the input space is split into *input classes* by the
//! decisions the whole exploration makes on symbolic inputs, and each class is explored by
//! one run of the RVF exploration (`explore_under`) under one input of the class.
//!
//! # What an instance is with symbolic inputs
//!
//! The machines run concolically (`concolic`, `interp::shadow`): a nondet input of more than
//! two values gets a term over the inputs beside its concrete bits, every value computed from
//! it carries its term, and every choice a step makes on such a value (a branch, an
//! assumption, an assertion, the cell an input-dependent index selects) is a decision,
//! checked against its term. A memory read observes a `Value`, whose equality compares the
//! term too (`Scalar::sym`): two observations are equal exactly when they have the same term
//! (and then the same bits under every input) or no term and the same bits. An RVF instance
//! is then a class of reads-from choices and values *as terms*, and its events' decisions
//! form its path condition; a witness is a run of the program under the input in force.
//!
//! # Why the exploration depends on the input only through its decisions
//!
//! Fix the inputs `v` and let `E(v)` be the exploration run under them. Every comparison
//! `E(v)` makes is independent of `v` except the decisions the interpreter records: the
//! interpreter's own choices on input-dependent values are decisions (the shadow's
//! invariant); observations, events, instances and machine states are compared with their
//! terms (equal terms give equal bits for every input, a value without a term has the same
//! bits for every input on the path), and hashes of concrete bits only choose a bucket; the
//! comparisons by concrete bytes outside the interpreter treat a value with a term as
//! unknown: the closure leaves a read of a symbolic value, or of a cell some event writes a
//! symbolic value to, to VerifySC (`closure::read_key`, `Ev::writes_symbolic`), and greedy
//! rule 1b takes no write of a cell whose old or new bytes have a term
//! (`Machine::global_summary`), nor one a later read of a symbolic value may need. The
//! settled reads and the causal maps are decided from the program and the instance's
//! shape. So `E(v)` is a deterministic computation whose control flow depends on `v` only
//! through the outcomes of the conditions it decides: if `v'` gives every condition that
//! `E(v)` decides the same outcome, in the order `E(v)` first meets them, then `E(v')` makes
//! the same steps in the same order and meets the same conditions with the same outcomes,
//! and it reaches a violation exactly where `E(v)` does (an assertion on a symbolic value is
//! a decision; on a value without a term it has the same outcome).
//!
//! # Why every input is covered (DART over the exploration)
//!
//! `E(v)` is complete for the input-free program `P_v` whose nondet inputs return `v`'s
//! values (the parent module's argument: with observations compared with their terms the
//! classes are finer, and the argument only needs a witness to observe what the instance
//! says, which the interpreter checks). The log of the symbolic state lists the decisions
//! `E(v)` made, each condition once, in the order first met (nothing truncates it during an
//! exploration). The driver below keeps a stack of (inputs, wanted prefix). After `E(v)` with
//! log `d_1..d_n` and wanted prefix of length `p`, for each `k` in `p..n` it asks the solver
//! for inputs that keep `d_1..d_{k-1}` and take `d_k` the other way (`Splitter::other_way`),
//! and pushes them with that prefix. Every input `u` within the bounds is covered: follow the
//! tree from the first exploration; at each exploration `E(v)`, either `u` agrees with every
//! decision of its log, and then `E(u)` is `E(v)` (previous section), which explores `P_u`
//! completely, or `u` first disagrees at some `d_k` with `k ≥ p` (it agrees with the wanted
//! prefix by induction), and then the solver found inputs `v'` for `d_1..d_{k-1}, ¬d_k`
//! (`u` is one) and `u` agrees with the prefix of `E(v')`. The wanted prefixes grow, so the
//! tree is finite (a condition's term is fixed, there are finitely many bounded runs).
//! Each exploration checks that its log starts with the prefix it was solved for (it must,
//! by determinism): otherwise the verdict is UNKNOWN, never a guess. A violation found
//! under any input is a real run (FALSE); TRUE needs every class explored with no reason
//! against it.
//!
//! An exploration covers a whole input class, not one input: the classes are as many as
//! the distinct decision sequences of the explorations, which grows with the product of the
//! threads' input paths (an exploration decides every thread's conditions); the budget's
//! deadline and execution count are shared by all of them. Measured on a generated program
//! with three workers (`yogar-bench explore-gen`, seed 3): 96 classes, as many as the input
//! classes dpor's concolic tree reaches, and 354 explored executions against dpor's 318, so
//! splitting inside the exploration (decisions as observations of the events, the search
//! of a node's candidates re-run under solved inputs) would explore about as many
//! (schedule, input path) pairs; the cost there is VerifySC's per instance (2.3 million
//! witness-search steps, 32 s against dpor's 1 s).
//!
//! Why a class starts from the root rather than from the node where its flipped decision was
//! first met (as dpor's concolic tree does, `dpor::rebase`): an exploration meets nearly all
//! of its decisions in its first depth-first descent, since each thread's own code decides on
//! its inputs whatever the schedule. Measured on the four generated programs with the most
//! classes (`explore-gen` seeds 2, 20, 43, 46; 15 s each), the witness-search steps an
//! exploration takes before first meeting the decision its class flips add up to 1.4 %,
//! 1.7 %, 0.3 % and 0.2 % of its steps. Restarting there would save no more, and it would
//! have to replay every stacked node's witness under the new inputs, since the machines hold
//! the concrete bits of the old ones. The cost is the number of classes times each
//! exploration's cost: on seed 43, the first 137 classes (115 s CPU, not all of them)
//! averaged 48 executions, 1,030 instances and 144,000 witness-search steps each (0.84 s
//! CPU), while dpor decides the whole program (480 input classes, 37,883 executions) in
//! 12.9 s CPU. Most of its reads only fed a local nothing used: the explorers now drop those
//! (`ir::faint`, under unreach-call), and rvf decides seed 43 in 0.9 s CPU.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use super::assume_stops::Cuts;
use super::{explore_under, Facts, Options, Report};
use crate::explore::concolic::split::{Splitter, Values};
use crate::explore::concolic::{Concolic, Decision, Handle};
use crate::explore::findings::{out_of_budget, Budget, Findings};
use crate::ir::Program;
use crate::verdict::UnknownReason;

/// An internal inconsistency of the symbolic layer: UNKNOWN, never a verdict.
fn internal(what: &str) -> UnknownReason {
    UnknownReason::unsupported(format!("{what} (internal error)"))
}

/// Explores `prog` over every input class (module doc).
pub(crate) fn explore(prog: &Program, facts: &Facts, opts: &Options) -> Report {
    let start = Instant::now();
    let mut total = Findings::default();
    let mut classes = opts.count_classes.then_some(0u64);
    let h: Handle = Rc::new(RefCell::new(Concolic::default()));
    let mut split = match Splitter::new(opts.budget.deadline) {
        Ok(s) => s,
        Err(why) => {
            total.give_up(why);
            return Report {
                findings: total,
                classes: None,
            };
        }
    };
    let mut pending: Vec<(Values, Vec<Decision>)> = vec![(Rc::new(HashMap::new()), Vec::new())];
    'classes: while let Some((values, wanted)) = pending.pop() {
        if let Some(why) = out_of_budget(&opts.budget, &total.stats) {
            total.give_up(why);
            break;
        }
        h.borrow_mut().start_run((*values).clone());
        let mut one = opts.clone();
        one.budget = Budget {
            max_executions: opts
                .budget
                .max_executions
                .map(|n| n.saturating_sub(total.stats.executions + total.stats.blocked)),
            deadline: opts.budget.deadline,
        };
        let cuts = Cuts {
            h: h.clone(),
            split: &mut split,
            values: values.clone(),
        };
        let rep = explore_under(prog, facts, &one, Some(cuts));
        classes = classes.zip(rep.classes).map(|(a, b)| a + b);
        merge(&mut total, rep.findings);
        total.stats.input_classes += 1;
        let (log, mismatch) = {
            let k = h.borrow();
            (k.log.clone(), k.mismatch)
        };
        if mismatch {
            total.give_up(internal("the symbolic shadow disagreed with a run"));
        }
        if !log.starts_with(&wanted) {
            total.give_up(internal(
                "an exploration under solved inputs made other decisions",
            ));
        }
        if (total.violation.is_some() && !opts.all) || mismatch || !log.starts_with(&wanted) {
            break;
        }
        for k in wanted.len()..log.len() {
            let other = {
                let kc = h.borrow();
                split.other_way(&kc.terms, &log[..k], log[k], &values)
            };
            match other {
                Ok(Some(v)) => {
                    let mut w = log[..k].to_vec();
                    w.push(Decision {
                        cond: log[k].cond,
                        taken: !log[k].taken,
                    });
                    pending.push((v, w));
                }
                Ok(None) => {}
                Err(why) => {
                    total.give_up(why);
                    break 'classes;
                }
            }
        }
    }
    total.stats.time = start.elapsed();
    Report {
        findings: total,
        classes,
    }
}

/// Adds the findings of one exploration to those of the others.
fn merge(total: &mut Findings, f: Findings) {
    if total.violation.is_none() {
        total.violation = f.violation;
    }
    if let Some(why) = f.incomplete {
        total.incomplete.get_or_insert(why);
    }
    if let Some(why) = f.bound {
        total.bound.get_or_insert(why);
    }
    let (t, s) = (&mut total.stats, f.stats);
    t.executions += s.executions;
    t.blocked += s.blocked;
    t.redundant += s.redundant;
    t.steps += s.steps;
    t.nodes += s.nodes;
    t.causal_cuts += s.causal_cuts;
    t.settled += s.settled;
    t.quiet_writes += s.quiet_writes;
    t.silent_stops += s.silent_stops;
    t.pruned_stops += s.pruned_stops;
    total.paths.extend(f.paths);
    total.stats.paths = total.paths.len() as u64;
}
