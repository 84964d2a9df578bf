//! Source-DPOR with sleep sets (Abdulla, Aronis, Jonsson, Sagonas), and its constrained
//! variant (`cdpor`, Albert et al., CAV 2018): independence constraints checked for
//! transitive uniformity keep threads asleep longer (see `constraints`).
//!
//! A depth-first search over the runs of the bounded program, one node per prefix. From a
//! node, the threads of its backtrack set are explored; whenever a new event is made, each
//! earlier event of another thread it is in a reversible race with (`hb::races`) makes the
//! prefix before that event explore a thread that can start the reversed race
//! (`hb::initials`), unless one already does: backtrack sets are source sets, which is enough
//! to explore at least one run of every Mazurkiewicz trace (every class of runs equal up to
//! swapping adjacent independent steps). Sleep sets keep a thread asleep below a node as
//! long as the steps taken are independent of its next step: two complete runs explored are
//! never equivalent, and the runs cut short by them are counted as blocked.
//!
//! Events are the interpreter's visible steps; two steps are dependent when their logged
//! accesses conflict (see [`crate::explore::interp::Access::conflicts`]), which includes the
//! synchronisation: a mutex operation writes the mutex, a creation the thread table, a
//! thread's end its `done` flag that a join reads. A step's nondet values are choices of the
//! step: every choice is explored below the same node (each is a different event). In a
//! concolic exploration (`Options::concolic`) so is every decision the step makes on a
//! symbolic input that the path condition leaves open: its other way is explored below the
//! same node, with inputs solved for it, when it is satisfiable (see `concolic::search` for
//! why this covers every pair of a schedule class and an input path exactly once).
//!
//! # Condition variables
//!
//! The interpreter gives `pthread_cond_wait(c, m)` the semantics of the SAT path
//! (`symex::atomic`): POSIX allows spurious wake-ups, so a wait is `unlock(m); lock(m)`, and
//! `pthread_cond_signal`, `pthread_cond_broadcast`, `pthread_cond_init` and
//! `pthread_cond_destroy` change nothing. The wait is two visible steps: the release (the
//! thread's mutex is freed and the thread waits, `Step::release`) and the wake-up (enabled
//! only while the mutex is free; it takes it, `Step::acquire` as a blocking acquisition).
//! Both log a write of the mutex, like an unlock and a lock. So the runs the explorer can
//! make are exactly those of the program with every wait replaced by an unlock and a lock,
//! and no interleaving class is lost:
//! - the dependence of the two halves is that of an unlock and a lock of `m`: every other
//!   operation of `m` conflicts with them; the release followed by another thread's
//!   acquisition of `m` is ordered by the mutex (not a reversible race), and the wake-up, as
//!   an acquisition, races with the previous acquisition of `m` by another thread
//!   (`hb::races`), so the order in which a woken waiter and another locker get `m` is
//!   reversed like that of two lockers;
//! - a signal or broadcast is independent of every step, a wait on the same condition
//!   variable included: it has no effect, so a wake-up before the signal is as possible as
//!   one after it, and the runs differing only in where the signal sits reach the same
//!   states. (Making a wake-up wait for a signal would drop the spurious runs that the SAT
//!   engines explore, and the two could then disagree.) Its pointer argument is not even
//!   evaluated, on either path;
//! - a thread whose wake-up waits for a held mutex is disabled, exactly as a thread whose
//!   lock waits, so sleep sets and backtrack choices treat it as the lock;
//! - `constraints` never commutes a step that acquires or releases a mutex, and the static
//!   footprint of a wait writes synchronisation state, so the constrained variant adds no
//!   reduction around waits;
//! - the loop bound: a loop around a wait has a visible effect in every iteration (the two
//!   mutex writes), so the interpreter's effect-free-iteration rule never cuts it, as in
//!   symex. Symex additionally blocks the second pass of a wait whose segment only held the
//!   mutex (`symex::spin`): that cuts runs whose errors other runs within the same bound
//!   reach, so the explorers, which keep those runs, find the same errors.

pub mod constraints;
pub mod data_race;
pub mod hb;
mod inputs;

use std::collections::HashSet;
use std::rc::Rc;
use std::time::Instant;

use super::concolic::split::{Splitter, Values};
use super::concolic::stops;
use super::concolic::Decision;
use super::findings::{out_of_budget, unenumerable, Budget, Findings};
use super::interp::{Access, Bounds, Machine, RunEnd};
use super::sched::{self, Step};
use crate::ir::Program;
use crate::verdict::UnknownReason;
use hb::Event;
use inputs::{internal, rebase, Inputs};

/// How to explore.
#[derive(Clone, Debug)]
pub struct Options {
    pub bounds: Bounds,
    pub budget: Budget,
    /// Use independence constraints (cdpor).
    pub constrained: bool,
    /// Go on after a violation (to count the whole space).
    pub all: bool,
    /// Keep the events of every complete run (for counting equivalence classes).
    pub keep_runs: bool,
    /// Run concolically with this symbolic state: nondet inputs of more than two values are
    /// symbolic (see `explore::concolic`); without it they end the search as UNKNOWN.
    pub concolic: Option<crate::explore::concolic::Handle>,
    /// Check no-data-race: a data race (`data_race`) is the violation.
    pub data_races: bool,
}

/// The result: findings, and the complete runs when asked for.
pub struct Report {
    pub findings: Findings,
    pub runs: Vec<Vec<Step>>,
}

/// One outcome of a thread's step still to run from a node: the nondet choices it forces
/// and, in a concolic exploration, the inputs it runs with (none: the node's) and the
/// decisions of the step it must make first (the last of them is the one it flips, or the
/// ones before the choice it flips); the step's later choices and decisions are new.
#[derive(Default)]
struct Alt {
    choices: Vec<u64>,
    values: Option<Values>,
    expect: Vec<Decision>,
}

/// The thread being explored from a node: its outcomes still to run, and the union of the
/// accesses of its step's outcomes (its sleep-set entry afterwards).
struct Current {
    thread: usize,
    pending: Vec<Alt>,
    accesses: Vec<Access>,
}

struct Node<'p> {
    machine: Machine<'p>,
    /// The length of the path condition (the concolic log) at this node.
    pc: usize,
    enabled: Vec<usize>,
    backtrack: Vec<usize>,
    done: Vec<usize>,
    /// Asleep threads with their next step's accesses.
    sleep: Vec<(usize, Vec<Access>)>,
    current: Option<Current>,
}

impl Node<'_> {
    fn asleep(&self, t: usize) -> bool {
        self.sleep.iter().any(|(q, _)| *q == t)
    }
}

/// A run ended with threads waiting for a mutex another thread holds (it may have stopped
/// holding it, or be waiting itself): each waiting lock is a pending event in a reversible
/// race with the acquisition that holds the mutex, since taking the mutex first is another
/// trace the run never reached. The races are reversed as for executed events; without this,
/// the order where the waiting thread takes the mutex first would never be explored.
///
/// The pending lock's only access is its mutex: the IR reads a lock's operand before the lock
/// (see the invariants of `ir`), so the reads that choose the mutex are executed events of
/// the run whose races are reversed like any other.
fn blocked_lock_races(stack: &mut [Node], events: &[Event], m: &Machine) -> u64 {
    let mut added = 0;
    for q in 0..m.num_threads() {
        let Some(key) = m.blocked_on(q) else {
            continue;
        };
        let pending = Step {
            accesses: vec![Access {
                target: super::interp::Target::Mutex(key.0, key.1),
                write: true,
                value: 0,
            }],
            acquire: Some((key, true)),
            ..Step::at(m, q)
        };
        let n = hb::event(events, pending);
        for i in hb::races(events, &n) {
            let init = hb::initials(events, i, &n);
            let node = &mut stack[i];
            if init.iter().any(|t| node.backtrack.contains(t)) {
                continue;
            }
            let t = if init.contains(&q) { q } else { init[0] };
            node.backtrack.push(t);
            added += 1;
        }
    }
    added
}

/// Explores `prog` within the bounds.
pub fn explore(prog: &Program, opts: &Options) -> Report {
    let start = Instant::now();
    let mut f = Findings::default();
    let mut runs = Vec::new();
    let mut m = match Machine::with_bounds(prog, Some(opts.bounds.clone())) {
        Ok(m) => m,
        Err(e) => {
            f.give_up(UnknownReason::unsupported(format!(
                "the program cannot start ({e:?})"
            )));
            return Report { findings: f, runs };
        }
    };
    let mut inputs = None;
    if let Some(h) = &opts.concolic {
        m.attach_concolic(h.clone());
        match Splitter::new(opts.budget.deadline) {
            Ok(split) => {
                let values = Rc::new(h.borrow().values().clone());
                h.borrow_mut().truncate(0);
                inputs = Some(Inputs {
                    h: h.clone(),
                    split,
                    values,
                    paths: HashSet::new(),
                })
            }
            Err(why) => {
                f.give_up(why);
                return Report { findings: f, runs };
            }
        }
    }
    let initial = m.clone();
    let enabled = m.runnable();
    let first = enabled.first().copied();
    let mut stack = vec![Node {
        machine: m,
        pc: 0,
        enabled,
        backtrack: first.into_iter().collect(),
        done: Vec::new(),
        sleep: Vec::new(),
        current: None,
    }];
    let mut events: Vec<Event> = Vec::new();
    let cx = constraints::Context::new(prog);
    'search: while let Some(top) = stack.last_mut() {
        // What to run next from the top node: another outcome of the current thread, or the
        // next thread of the backtrack set.
        let mut next = None;
        if let Some(cur) = &mut top.current {
            match cur.pending.pop() {
                Some(alt) => next = Some((cur.thread, alt)),
                None => {
                    let cur = top.current.take().expect("current");
                    top.sleep.push((cur.thread, cur.accesses));
                    top.done.push(cur.thread);
                }
            }
        }
        if next.is_none() {
            let pick = top
                .backtrack
                .iter()
                .copied()
                .find(|t| !top.done.contains(t) && !top.asleep(*t) && top.enabled.contains(t));
            match pick {
                Some(p) => {
                    top.current = Some(Current {
                        thread: p,
                        pending: Vec::new(),
                        accesses: Vec::new(),
                    });
                    next = Some((p, Alt::default()));
                }
                None => {
                    stack.pop();
                    events.pop();
                    continue;
                }
            }
        }
        let (p, alt) = next.expect("chosen");
        if let Some(why) = out_of_budget(&opts.budget, &f.stats) {
            f.give_up(why);
            break;
        }
        // The inputs of this outcome, and the path condition of the node.
        let mut at_step = 0;
        if let Some(inp) = &mut inputs {
            if let Some(v) = alt.values.as_ref().filter(|v| !Rc::ptr_eq(v, &inp.values)) {
                if let Err(why) = rebase(&initial, inp, &mut stack, &mut events, v) {
                    f.give_up(why);
                    break;
                }
            }
            let pc = stack.last().expect("top").pc;
            let mut k = inp.h.borrow_mut();
            k.truncate(pc);
            k.failed_assume = None;
            at_step = k.choices;
        }
        let top = stack.last_mut().expect("top");
        let mut m = top.machine.clone();
        let step = match sched::run_step(&mut m, p, &alt.choices) {
            Ok(s) => s,
            Err(sched::Unenumerable(loc)) => {
                f.give_up(unenumerable(&m, loc));
                break;
            }
        };
        f.stats.steps += 1;
        let cur = top.current.as_mut().expect("current");
        // The step's decisions (open ones only: the path condition fixes the others), and
        // how many of its choices came before each.
        let mut made: Vec<Decision> = Vec::new();
        let mut made_at: Vec<usize> = Vec::new();
        // The decision of an assumption on an input that failed and stopped the thread.
        let mut failed = None;
        // Whether the other way of the step's last decision is explored (solved for here).
        let mut last_flipped = false;
        if let Some(inp) = &inputs {
            let k = inp.h.borrow();
            failed = k.failed_assume.map(|cond| Decision { cond, taken: false });
            made = k.log[top.pc..].to_vec();
            made_at = k.at_choice[top.pc..]
                .iter()
                .map(|a| (a - at_step) as usize)
                .collect();
            if made.len() < alt.expect.len() || made[..alt.expect.len()] != alt.expect[..] {
                drop(k);
                f.give_up(internal(
                    "a step did not make the decisions its inputs were solved for",
                ));
                break;
            }
        }
        for (j, c) in step.choices.iter().enumerate().skip(alt.choices.len()) {
            // The decisions before this choice stay as they are: same inputs.
            let fixed = made_at.iter().filter(|&&a| a <= j).count();
            for v in (0..c.domain).filter(|&v| v != c.value) {
                let mut choices: Vec<u64> = step.choices[..j].iter().map(|c| c.value).collect();
                choices.push(v);
                cur.pending.push(Alt {
                    choices,
                    values: inputs.as_ref().map(|i| i.values.clone()),
                    expect: made[..fixed].to_vec(),
                });
            }
        }
        if let Some(inp) = &mut inputs {
            let k = inp.h.borrow();
            for d in alt.expect.len()..made.len() {
                let keep = &k.log[..top.pc + d];
                match inp.split.other_way(&k.terms, keep, made[d], &inp.values) {
                    Ok(Some(values)) => {
                        last_flipped |= d + 1 == made.len();
                        let mut expect = made[..d].to_vec();
                        expect.push(Decision {
                            cond: made[d].cond,
                            taken: !made[d].taken,
                        });
                        cur.pending.push(Alt {
                            choices: step.choices[..made_at[d]].iter().map(|c| c.value).collect(),
                            values: Some(values),
                            expect,
                        });
                    }
                    Ok(None) => {}
                    Err(why) => {
                        drop(k);
                        f.give_up(why);
                        break 'search;
                    }
                }
            }
        }
        let pc = top.pc + made.len();
        cur.accesses.extend(step.accesses.iter().copied());
        // An outcome whose thread stops at a failed assumption that could have held, with
        // nothing the thread did visible to the others: its subtree adds nothing to that of
        // the outcome where it holds (see `concolic::stops`).
        if inputs.is_some()
            && step.end.is_none()
            && m.is_stopped(p)
            && stops::silent(&step)
            && events
                .iter()
                .filter(|e| e.thread() == p)
                .all(|e| stops::silent(&e.step))
            && failed.is_some()
            && failed == made.last().copied()
            && (last_flipped || made.len() == alt.expect.len())
        {
            f.stats.pruned_stops += 1;
            continue;
        }
        let n = hb::event(&events, step);
        if opts.data_races {
            match data_race::find(&events, &n) {
                data_race::Found::None => {}
                data_race::Found::Undecided => {
                    f.give_up(UnknownReason::unsupported(
                        "a data race with an access to unknown memory",
                    ));
                    break;
                }
                data_race::Found::Race { i, first, second } => {
                    let steps = data_race::run(&events, i, &n);
                    let at = |k: usize| steps[..k].iter().map(|s| s.items.len()).sum::<usize>();
                    let race = [at(steps.len() - 2) + first, at(steps.len() - 1) + second];
                    let loc = n.step.items.get(second).map_or(n.step.loc, |it| it.loc);
                    let mut trace = super::trace::build(&m, &steps, p, loc);
                    trace.violation = crate::verdict::Violation::DataRace;
                    trace.race = Some(race);
                    f.violation = Some(trace);
                    f.stats.executions += 1;
                    break;
                }
            }
        }
        // Race detection: reversals go into the backtrack sets of the earlier nodes.
        for i in hb::races(&events, &n) {
            let init = hb::initials(&events, i, &n);
            let node = &mut stack[i];
            if init.iter().any(|q| node.backtrack.contains(q)) {
                continue;
            }
            let q = if init.contains(&p) { p } else { init[0] };
            node.backtrack.push(q);
            f.stats.races += 1;
        }
        if n.step.end.is_some() {
            f.stats.executions += 1;
            f.paths.insert(m.path_id());
            if let Some(inp) = &mut inputs {
                let path = inp.path();
                inp.paths.insert(path);
            }
            let n = if let Some(RunEnd::Violation { thread, loc }) = &n.step.end {
                if f.violation.is_none() {
                    let steps: Vec<&Step> = events
                        .iter()
                        .map(|e| &e.step)
                        .chain(std::iter::once(&n.step))
                        .collect();
                    f.violation = Some(super::trace::build(&m, &steps, *thread, *loc));
                }
                n
            } else {
                events.push(n);
                f.stats.races += blocked_lock_races(&mut stack, &events, &m);
                events.pop().expect("pushed")
            };
            let end = n.step.end.as_ref().expect("an end");
            let stop = f.run_end(&m, end, n.step.loc) && !opts.all;
            if opts.keep_runs && !stop {
                let mut run: Vec<Step> = events.iter().map(|e| e.step.clone()).collect();
                run.push(n.step.clone());
                runs.push(run);
            }
            if stop {
                break 'search;
            }
            continue;
        }
        let top = stack.last().expect("top");
        let mut sleep: Vec<(usize, Vec<Access>)> = top
            .sleep
            .iter()
            .filter(|(_, acc)| !sched::conflict(acc, &n.step.accesses))
            .cloned()
            .collect();
        if opts.constrained {
            cx.extend_sleep(&top.machine, top, &n, &mut sleep, &mut f.stats);
        }
        let enabled = m.runnable();
        let Some(first) = enabled
            .iter()
            .copied()
            .find(|t| !sleep.iter().any(|(q, _)| q == t))
        else {
            f.stats.blocked += 1;
            continue;
        };
        events.push(n);
        stack.push(Node {
            machine: m,
            pc,
            enabled,
            backtrack: vec![first],
            done: Vec::new(),
            sleep,
            current: None,
        });
    }
    f.stats.input_classes = 1;
    if let Some(inp) = &inputs {
        f.stats.input_classes = inp.paths.len().max(1) as u64;
        if inp.h.borrow().mismatch {
            f.give_up(internal("the symbolic shadow disagreed with a run"));
        }
    }
    f.stats.time = start.elapsed();
    Report { findings: f, runs }
}
