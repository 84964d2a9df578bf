//! The witness-guided search: a depth-first search over interleavings (at the granularity of
//! [`Machine::step`]) that tries the witness's schedule first and takes its nondet inputs
//! from the witness only. A violation is confirmed only when a concrete run reaches it.

use std::time::{Duration, Instant};

use crate::explore::interp::{Machine, NondetRequest, RunEnd};

pub mod race;
pub mod witness_read;
pub mod witness_yaml;
use crate::ir::{InstrKind, Loc, Program};
use witness_read::WitnessEdge;

/// Bounds of one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Steps over all runs.
    pub max_steps: u64,
    /// Steps of one run (bounds non-terminating runs).
    pub max_run_steps: u64,
    pub timeout: Duration,
    /// The violation sought is a data race (a no-data-race witness): a state in which two
    /// threads' next steps race (`race::at`); failed assertions are then no violations.
    pub race: bool,
    /// The violation sought is a signed overflow (a no-overflow witness); failed assertions
    /// are then no violations.
    pub overflow: bool,
    /// The violation sought is one of valid-memsafety (see `interp::memsafety`); failed
    /// assertions are then no violations.
    pub memsafety: bool,
    /// Under `memsafety`, the kind the violation must be (the witness's subproperty); a
    /// violation of another kind ends its run unconfirmed. None: any of the three.
    pub mem_kind: Option<crate::violation::Violation>,
    /// (thread, line) the violation must be at (two: the racing accesses, in either order);
    /// a violation elsewhere ends its run unconfirmed. Empty: any violation confirms.
    pub targets: Vec<(usize, u32)>,
}

impl Limits {
    fn at_target(&self, thread: usize, loc: Loc) -> bool {
        self.targets.is_empty() || self.targets.contains(&(thread, loc.line))
    }

    /// Whether a memory-safety violation of kind `v` is the one sought.
    fn of_kind(&self, v: Option<crate::violation::Violation>) -> bool {
        !self.memsafety || self.mem_kind.is_none() || v == self.mem_kind
    }

    fn race_at_target(&self, r: &race::Race) -> bool {
        let [a, b] = [r.first, r.second].map(|(t, l)| (t, l.line));
        match self.targets.as_slice() {
            [] => true,
            [x, y] => (a, b) == (*x, *y) || (b, a) == (*x, *y),
            _ => false,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 100_000,
            max_run_steps: 20_000,
            timeout: Duration::from_secs(10),
            race: false,
            overflow: false,
            memsafety: false,
            mem_kind: None,
            targets: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayResult {
    /// A run reached the violation at `loc` in thread `thread`.
    /// A run reached the violation at `loc` in thread `thread`; `runs` runs ended before
    /// it (0: the first, witness-guided run) and `steps` steps were taken in all.
    Confirmed {
        thread: usize,
        loc: Loc,
        /// What the violation is (a failed assertion unless a memory-safety violation).
        violation: crate::verdict::Violation,
        runs: u64,
        steps: u64,
    },
    /// A state of a run has two threads whose next steps race.
    RaceConfirmed {
        race: race::Race,
        runs: u64,
        steps: u64,
    },
    NotConfirmed(String),
}

/// Steps the last thread may take while the witness's next thread cannot move.
const STALL_STEPS: u32 = 64;

/// A nondet input of the witness: the line it is read at (if known) and its value.
type Input = (Option<u32>, i128);

/// The nondet inputs of each witness thread, in witness order: assumptions on `\result`, and
/// assumptions on edges whose line reads a nondet value.
/// Also marks the edges that are inputs.
fn nondet_inputs(prog: &Program, edges: &[WitnessEdge], is_input: &mut [bool]) -> Vec<Vec<Input>> {
    let mut nondet_lines = std::collections::HashSet::new();
    for (_, _, b) in prog.defined_funcs() {
        for i in b.instrs.values() {
            if matches!(i.kind, InstrKind::Nondet { .. }) {
                nondet_lines.insert(i.loc.line);
            }
        }
    }
    // A witness that names results `\result` says which assumptions are inputs; otherwise an
    // assumption on a line that reads a nondet value is taken as that value.
    let is_result = |(l, _): &&(String, i128)| l == "\\result";
    let named = edges
        .iter()
        .any(|e| e.assumptions.iter().any(|a| is_result(&a)));
    let mut out: Vec<Vec<Input>> = Vec::new();
    for (k, e) in edges.iter().enumerate() {
        let t = e.thread as usize;
        let value = e.assumptions.iter().find(is_result).or_else(|| {
            e.line
                .filter(|l| !named && nondet_lines.contains(l))
                .and_then(|_| e.assumptions.first())
        });
        if let Some((_, v)) = value {
            if out.len() <= t {
                out.resize(t + 1, Vec::new());
            }
            out[t].push((e.line, *v));
            is_input[k] = true;
        }
    }
    out
}

/// A point of the search: the state, how far the witness has been followed, how many inputs
/// each thread consumed, and the threads still to try from here.
struct Node<'p> {
    m: Machine<'p>,
    guide: usize,
    /// Steps taken while the guiding edge's thread could not move.
    stall: u32,
    cursors: Vec<usize>,
    untried: Vec<usize>,
}

struct Search<'a> {
    edges: &'a [WitnessEdge],
    inputs: Vec<Vec<Input>>,
    /// Edges followed without matching an executed line: inputs, and edges without a line.
    free: Vec<bool>,
}

impl Search<'_> {
    /// The next witness edge's thread. When that thread cannot move, the thread it waits for
    /// (`Machine::waits_for`: the one it joins, or the holder of the mutex it takes), else the
    /// last one to move, goes on for up to [`STALL_STEPS`] steps without giving up the edge:
    /// the witness lists shared accesses only, so a thread may still have to leave an atomic
    /// section, unlock, or finish (for a join) before the witness's next thread can run. After
    /// that, or when neither can move, edges of threads that cannot move are skipped (they
    /// were done already, e.g. the equation reads a joined thread's id before the join waits).
    fn sync_guide(
        &self,
        m: &Machine,
        guide: &mut usize,
        stall: &mut u32,
        runnable: &[usize],
        last: Option<usize>,
    ) -> Option<usize> {
        while let Some(e) = self.edges.get(*guide) {
            // An edge no step matches (a thread's entry, an input) names no step to take:
            // followed, it would let its thread run ahead of the witness's next access.
            if self.free[*guide] {
                *guide += 1;
                continue;
            }
            let t = e.thread as usize;
            if runnable.contains(&t) {
                *stall = 0;
                return Some(t);
            }
            let helper = m
                .waits_for(t)
                .filter(|h| runnable.contains(h))
                .or(last.filter(|l| runnable.contains(l)));
            if let Some(h) = helper.filter(|_| *stall < STALL_STEPS) {
                *stall += 1;
                return Some(h);
            }
            *stall = 0;
            *guide += 1;
        }
        None
    }

    /// Threads to try, best first: the witness's, then the last one to move, then the rest.
    fn order(
        &self,
        m: &Machine,
        guide: &mut usize,
        stall: &mut u32,
        last: Option<usize>,
    ) -> Vec<usize> {
        let runnable = m.runnable();
        let mut order = Vec::with_capacity(runnable.len());
        if let Some(t) = self.sync_guide(m, guide, stall, &runnable, last) {
            order.push(t);
        }
        if let Some(l) = last.filter(|l| runnable.contains(l) && !order.contains(l)) {
            order.push(l);
        }
        for t in runnable {
            if !order.contains(&t) {
                order.push(t);
            }
        }
        // Tried last-first from the end of the vector.
        order.reverse();
        order
    }

    /// Consume the witness edges thread `t` just went past: each shared access of the step
    /// consumes the first of the thread's next edges (up to the next edge of another thread)
    /// at the access's line; edges passed over on the way were accesses the run makes
    /// differently (e.g. the equation writes each element of a local array the run
    /// initialises at once).
    fn advance_guide(&self, m: &Machine, t: usize, guide: &mut usize) {
        let mine = |k: usize| self.edges.get(k).is_some_and(|e| e.thread as usize == t);
        // Edges that name no step (another thread's entry, an input) do not end the thread's
        // run of edges: a creation's handle write follows the new thread's entry edge.
        let skip = |k: usize| k < self.edges.len() && self.free[k];
        for &line in &m.last_shared {
            let mut k = *guide;
            while mine(k) || skip(k) {
                if !self.free[k] && self.edges[k].line == Some(line) {
                    *guide = k + 1;
                    break;
                }
                k += 1;
            }
        }
        while mine(*guide) && self.free[*guide] {
            *guide += 1;
        }
    }

    fn nondet(&self, cursors: &mut [usize], r: &NondetRequest) -> u64 {
        let Some(queue) = self.inputs.get(r.thread) else {
            return 0;
        };
        let from = cursors[r.thread];
        let hit = queue[from.min(queue.len())..]
            .iter()
            .position(|(line, _)| line.is_none_or(|l| l == r.loc.line));
        match hit {
            Some(k) => {
                cursors[r.thread] = from + k + 1;
                queue[from + k].1 as u64
            }
            None => 0,
        }
    }
}

/// Search for a run of `prog` reaching a violation, guided by the witness `edges`.
pub fn replay(prog: &Program, edges: &[WitnessEdge], limits: &Limits) -> ReplayResult {
    let start = Instant::now();
    let mut free: Vec<bool> = edges.iter().map(|e| e.line.is_none()).collect();
    let inputs = nondet_inputs(prog, edges, &mut free);
    let search = Search {
        edges,
        inputs,
        free,
    };
    let n_threads = search.inputs.len().max(1);
    let m = match Machine::new(prog) {
        Ok(mut m) => {
            m.set_overflow_checks(limits.overflow);
            m.set_memsafety(limits.memsafety);
            m
        }
        Err(e) => return ReplayResult::NotConfirmed(format!("cannot start the program: {e:?}")),
    };
    let mut guide = 0;
    let mut stall = 0;
    let accept = |r: &race::Race| limits.race_at_target(r);
    if limits.race {
        if let Some(race) = race::at_matching(&m, &accept) {
            return ReplayResult::RaceConfirmed {
                race,
                runs: 0,
                steps: 0,
            };
        }
    }
    let untried = search.order(&m, &mut guide, &mut stall, None);
    let mut stack = vec![Node {
        m,
        guide,
        stall,
        cursors: vec![0; n_threads.max(64)],
        untried,
    }];
    let (mut steps, mut runs, mut discarded, mut traps, mut cut) = (0u64, 0u64, 0u64, 0u64, 0u64);
    // Violations reached elsewhere than the witness's target.
    let (mut elsewhere, mut first_elsewhere) = (0u64, None::<(usize, Loc)>);
    // Memory-safety violations of another kind than the witness's.
    let (mut other_kind, mut first_other_kind) = (0u64, None);
    let mut first_trap: Option<String> = None;
    while let Some(top) = stack.last_mut() {
        let Some(t) = top.untried.pop() else {
            stack.pop();
            continue;
        };
        if steps >= limits.max_steps || start.elapsed() >= limits.timeout {
            return ReplayResult::NotConfirmed(format!(
                "bound hit ({steps} steps, {runs} runs explored)"
            ));
        }
        // The last alternative of a node needs no copy of it.
        let mut node = if top.untried.is_empty() {
            let n = stack.pop().expect("non-empty");
            Node {
                untried: Vec::new(),
                ..n
            }
        } else {
            Node {
                m: top.m.clone(),
                guide: top.guide,
                stall: top.stall,
                cursors: top.cursors.clone(),
                untried: Vec::new(),
            }
        };
        steps += 1;
        let r = {
            let cursors = &mut node.cursors;
            node.m.step(t, &mut |req| search.nondet(cursors, req))
        };
        let end = match r {
            Ok(()) if node.m.steps >= limits.max_run_steps => {
                cut += 1;
                Some(())
            }
            Ok(()) => {
                if limits.race {
                    if let Some(race) = race::at_matching(&node.m, &accept) {
                        return ReplayResult::RaceConfirmed { race, runs, steps };
                    }
                }
                search.advance_guide(&node.m, t, &mut node.guide);
                node.untried = search.order(&node.m, &mut node.guide, &mut node.stall, Some(t));
                if node.untried.is_empty() {
                    // Deadlock: no thread can move.
                    Some(())
                } else {
                    stack.push(node);
                    None
                }
            }
            // Under no-data-race a failed assertion is no violation: the run ends there.
            Err(RunEnd::Violation { .. }) if limits.race => Some(()),
            Err(RunEnd::Violation { thread, loc }) if !limits.at_target(thread, loc) => {
                elsewhere += 1;
                first_elsewhere.get_or_insert((thread, loc));
                Some(())
            }
            Err(RunEnd::Violation { thread, loc }) if !limits.of_kind(node.m.mem_violation) => {
                other_kind += 1;
                first_other_kind.get_or_insert((thread, loc, node.m.mem_violation));
                Some(())
            }
            Err(RunEnd::Violation { thread, loc }) => {
                return ReplayResult::Confirmed {
                    thread,
                    loc,
                    violation: node.m.mem_violation.unwrap_or_default(),
                    runs,
                    steps,
                };
            }
            Err(RunEnd::Bound { .. }) => {
                discarded += 1;
                Some(())
            }
            Err(RunEnd::Trap { what: msg, .. }) => {
                traps += 1;
                first_trap.get_or_insert(msg);
                Some(())
            }
            Err(RunEnd::Finished) | Err(RunEnd::Deadlock) => Some(()),
        };
        if end.is_some() {
            runs += 1;
        }
    }
    let mut why = format!(
        "search exhausted, no violation ({runs} runs, {steps} steps; {discarded} past a bound"
    );
    if cut > 0 {
        why.push_str(&format!(", {cut} cut at {} steps", limits.max_run_steps));
    }
    if traps > 0 {
        why.push_str(&format!(
            ", {traps} stopped: {}",
            first_trap.unwrap_or_default()
        ));
    }
    if let Some((t, loc)) = first_elsewhere {
        why.push_str(&format!(
            ", {elsewhere} reached a violation elsewhere than the target (first: thread {t} at \
             line {})",
            loc.line
        ));
    }
    if let Some((t, loc, v)) = first_other_kind {
        why.push_str(&format!(
            ", {other_kind} reached a memory-safety violation of another kind than the \
             witness's {} (first: {} in thread {t} at line {})",
            limits.mem_kind.map_or("", |k| k.name()),
            v.map_or("unknown", |k| k.name()),
            loc.line
        ));
    }
    why.push(')');
    ReplayResult::NotConfirmed(why)
}
