//! Schedules × inputs in one exploration tree: the schedule explorer (`dpor::explore`) runs
//! concolically, and every decision a step makes on a symbolic input is a branching point of
//! the tree like the step's enumerated nondet choices. Its other way is explored below the
//! same node, with inputs the solver finds for the node's path condition, the step's earlier
//! decisions and the negated one (one incremental query, `split`), unless there are none.
//!
//! # The tree
//!
//! A node is a schedule prefix together with its path condition: the decisions its runs made
//! on conditions no earlier decision fixed (a condition met again has the same value, one
//! term and one input; see `Concolic::decide`). An event is a thread's step *with its
//! outcome*: its choices and its open decisions. Running a thread from a node explores every
//! outcome of its step that the node's path condition allows (each choice value, and each
//! decision both ways when satisfiable), as separate events below the node. The concrete
//! inputs only pick which outcome is run first: by the invariant of `interp::shadow`, all the
//! inputs on a path condition drive its prefix through the same steps with the same
//! accesses, and differ only in the concrete bits of values that carry a term. Every node of
//! the current prefix runs with one set of inputs: an outcome that needs other inputs first
//! replays the prefix under them (`dpor::rebase`; they keep its path condition, so the replay
//! must make the same decisions, checked, else UNKNOWN), so that a trace and its witness come
//! from one real run.
//!
//! # Why every (schedule class, input path) is covered
//!
//! Fix the complete inputs `v` (within the bounds), and let `P_v` be the program with those
//! inputs: an input-free program. Let `T_v` be the part of the tree whose path conditions `v`
//! satisfies. `T_v` is an exploration of `P_v` by source-DPOR with sleep sets, with backtrack
//! sets at least as large and sleep sets at most as large as the algorithm's own rules give:
//! * a node of `T_v` is a prefix of a run of `P_v`, and where a thread is run from it, the
//!   outcome `v` gives is among those explored (it is allowed by the path condition, which `v`
//!   satisfies with it), so the child of `P_v`'s step is in `T_v`;
//! * every step of `T_v` was executed by the explorer, under inputs `u` on the same path
//!   condition, with the same accesses as under `v`; race detection and initials depend on
//!   the accesses only (locations, not values), so every race between events of a prefix in
//!   `T_v` put an initial of its reversal into the backtrack set of its node, as source-DPOR
//!   requires, whichever input the run that found it had. A backtrack point's alternatives
//!   are explored under the inputs of the node (the path condition is part of the prefix),
//!   and from there all outcomes again, `v`'s among them. Races found in runs outside `T_v`
//!   only add threads;
//! * a sleep-set entry holds the union of the accesses of every outcome explored for the
//!   thread at its node, so `v`'s among them; it wakes up at the first conflict with that
//!   union, never later than for `v`'s outcome alone. The cdpor extension keeps an entry asleep
//!   only when its probes make no open decision (the outcome is the same for all inputs on
//!   the path condition) and the two orders end in the same state, terms included
//!   (`Machine::same_state` compares the shadows: same term, same value for every input).
//!
//! So `T_v` covers every Mazurkiewicz class of the runs of `P_v` (source-DPOR's guarantee,
//! which rests only on these closure properties), and over all `v` every (schedule class,
//! input path) pair is covered: every behaviour of the bounded program.
//!
//! # Why each is covered once
//!
//! Two complete runs explored differ first at some node. If there the same thread took two
//! outcomes, they differ in a choice or in a decision: different input paths (or choices), so
//! different pairs. If two threads, the first, `p`, was explored fully before the second and is
//! asleep below it with the union of its outcomes' accesses until a step conflicts with one;
//! a run below the second equivalent to one below the first would contain `p`'s event with
//! only independent events before it, so `p` never woke and the run was never taken (it is cut
//! as blocked). Swapping independent events keeps the set of decisions, so equivalent runs have
//! one input path: no pair is explored twice. `explored executions` is the number of pairs (and
//! blocked runs are counted apart); `input classes` is the number of distinct input paths of
//! the complete runs, `paths covered` of distinct per-thread branch paths. A decision splits
//! only the subtree below the step that makes it, so no schedule class is run again for an
//! input path that differs only elsewhere.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::{Concolic, Handle};
use crate::explore::dpor::{self, Report};
use crate::ir::Program;

/// Explores `prog` over schedules and inputs (`opts.concolic` is set here).
pub fn explore(prog: &Program, opts: &dpor::Options) -> Report {
    let h: Handle = Rc::new(RefCell::new(Concolic::default()));
    h.borrow_mut().start_run(HashMap::new());
    let mut run_opts = opts.clone();
    run_opts.concolic = Some(h);
    let mut rep = dpor::explore(prog, &run_opts);
    rep.findings.stats.paths = rep.findings.paths.len() as u64;
    rep
}
