//! Context-bounded random search for violations (`--engine cbs`): runs of the concrete
//! interpreter in which each thread runs on until it finishes or blocks, except at one or two
//! preemptions ([`MAX_PREEMPTIONS`]) placed at random steps, with a random thread chosen at
//! every switch. Most concurrency bugs need few preemptions (CHESS's observation, which its
//! iterative context bounding and randomized schedulers such as PCT build on), and among the
//! runs with few preemptions a random one meets a specific bug far more often than among all
//! interleavings: elimination_backoff_stack's ABA needs one preemption (a pop stopped between
//! reading the top and its compare-and-swap) and turns up about once in 50,000 runs, some
//! seconds of search, where the SAT search over all interleavings of its seven threads takes
//! minutes.
//!
//! It looks for violations only: it answers FALSE or UNKNOWN, never TRUE, so what it leaves
//! out costs completeness, never soundness. A FALSE is a run of the concrete interpreter, run
//! again step by step from the initial state before it is given
//! (`stateful::search::trace_of_path`), and comes with the explorers' trace and witness. What
//! it leaves out, each only ever a run it does not try:
//! - runs with more preemptions than [`MAX_PREEMPTIONS`], and all but the runs it draws;
//! - the values of a wide nondet input beyond its first [`SAMPLE`] (`sched::Domains::sample`);
//!   at a step that takes inputs, the values of its first input are tried in random order
//!   until one lets the thread go on (an input that an assumption narrows costs a few tries),
//!   and its later inputs take their first value.
//!
//! A run that meets a construct the interpreter cannot run exactly (a trap) ends there; when
//! no run violates, the search reports that construct (`UNKNOWN (unsupported: …)`) rather
//! than "no violation", since the runs past it were never tried.
//!
//! The generator (fastrand's, a well-kept small crate already in the build) is seeded with a
//! constant, so a search is repeatable: the same program and budget give the same runs.

use std::time::Instant;

use hashbrown::HashSet;

use super::interp::{Machine, RunEnd};
use super::sched::{run_bounded, Domains, Step, Unenumerable};
use super::stateful::search::trace_of_path;
use super::stateful::store::Edge;
use super::stateful::succ::ATOMIC_RUN;
use super::ExploreStats;
use crate::engine::{EngineOptions, EngineStats, Outcome, Verdict};
use crate::ir::{FuncId, InstrId, Program};
use crate::verdict::UnknownReason;

/// The most preemptions a run has; each run draws how many (1 up to this) and where.
pub const MAX_PREEMPTIONS: u32 = 2;

/// The values a wide nondet input takes: `0 .. SAMPLE` (small indices and counts, where
/// programs usually narrow their inputs to).
pub const SAMPLE: u64 = 8;

/// Inputs with at most this many values take any of them (`_Bool` and `char`).
pub const MAX_DOMAIN: u64 = 256;

/// Runs drawn when neither a time limit nor `--max-executions` bounds the search.
pub const DEFAULT_RUNS: u64 = 1_000_000;

/// The generator's seed.
pub const SEED: u64 = 0x5eed;

/// Limits of one search.
#[derive(Clone, Debug)]
pub struct Options {
    pub deadline: Option<Instant>,
    /// Runs drawn at most.
    pub max_runs: u64,
    pub max_preemptions: u32,
    pub seed: u64,
}

impl Options {
    /// The limits of the engine options: their time limit and `--max-executions` (else
    /// [`DEFAULT_RUNS`] when there is no time limit either).
    pub fn of(opts: &EngineOptions) -> Options {
        Options {
            deadline: opts.timeout.map(|t| Instant::now() + t),
            max_runs: opts.max_executions.unwrap_or(if opts.timeout.is_some() {
                u64::MAX
            } else {
                DEFAULT_RUNS
            }),
            max_preemptions: MAX_PREEMPTIONS,
            seed: SEED,
        }
    }
}

/// Verifies `prog` by context-bounded random search within the options' limits: FALSE or
/// UNKNOWN.
pub fn verify(prog: &Program, opts: &EngineOptions) -> Outcome {
    if opts.property != crate::svcomp::Property::UnreachCall {
        return Outcome::unknown(UnknownReason::UnsupportedProperty, EngineStats::default());
    }
    run(prog, &Options::of(opts))
}

/// The search: its FALSE, else UNKNOWN with why it stopped.
pub fn run(prog: &Program, opts: &Options) -> Outcome {
    let start = Instant::now();
    let mut stats = ExploreStats::default();
    let verdict = match search(prog, opts, &mut stats) {
        Ok(trace) => Verdict::False { trace },
        Err(why) => Verdict::Unknown(why),
    };
    stats.time = start.elapsed();
    Outcome {
        verdict,
        stats: EngineStats {
            total_time: stats.time,
            explore: Some(stats),
            ..EngineStats::default()
        },
        proved_by: None,
    }
}

/// One step of a run: one visible step of the thread, an atomic section whole.
fn step(m: &mut Machine, t: usize, forced: &[u64], domains: Domains) -> Result<Step, Unenumerable> {
    run_bounded(m, t, forced, domains, ATOMIC_RUN)
}

/// The domains of the inputs: small ones in full, wide ones sampled.
const DOMAINS: Domains = Domains {
    max: MAX_DOMAIN,
    sample: Some(SAMPLE),
};

/// Draws runs until one violates (its trace) or the limits end the search (why).
fn search(
    prog: &Program,
    opts: &Options,
    stats: &mut ExploreStats,
) -> Result<crate::trace::Trace, UnknownReason> {
    let init = super::stateful::initial(prog)
        .map_err(|e| super::stateful::search::start_failure(prog, e))?;
    let mut rng = fastrand::Rng::with_seed(opts.seed);
    // The longest run so far (in steps): preemption points are drawn below it.
    let mut longest = 16usize;
    // The instructions where a step took nondet inputs: the state before a step from one of
    // them is kept, so that its values can be tried (a step that takes one unforeseen runs
    // with the first values: still a run, only not a drawn one).
    let mut input_at: HashSet<Option<(FuncId, InstrId)>> = HashSet::new();
    let violation = |path: &[Edge], end: &Option<RunEnd>| {
        let Some(RunEnd::Violation { thread, loc }) = end else {
            unreachable!("called on violations only");
        };
        trace_of_path(prog, path, *thread, *loc, DOMAINS, step).map_err(UnknownReason::Internal)
    };
    // The first construct a run could not go on exactly from (a trap): what the search
    // reports when it finds no violation, since the runs past it were never tried.
    let mut trapped: Option<UnknownReason> = None;
    while stats.executions < opts.max_runs {
        if opts.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(trapped.unwrap_or(UnknownReason::Timeout));
        }
        let n = 1 + rng.usize(..opts.max_preemptions.max(1) as usize);
        let mut points: Vec<usize> = (0..n).map(|_| rng.usize(..longest)).collect();
        points.sort_unstable();
        let mut m = init.clone();
        let mut last = usize::MAX;
        let mut path: Vec<Edge> = Vec::new();
        stats.executions += 1;
        loop {
            let runnable = m.runnable();
            if runnable.is_empty() {
                break;
            }
            let goes_on = runnable.contains(&last);
            let preempt =
                goes_on && runnable.len() > 1 && points.binary_search(&path.len()).is_ok();
            let t = if goes_on && !preempt {
                last
            } else {
                let others: Vec<usize> = runnable.iter().copied().filter(|&o| o != last).collect();
                others[rng.usize(..others.len())]
            };
            last = t;
            stats.steps += 1;
            let pc = m.next_instr(t);
            let before = input_at.contains(&pc).then(|| m.clone());
            let Ok(first) = step(&mut m, t, &[], DOMAINS) else {
                break;
            };
            if !first.choices.is_empty() {
                input_at.insert(pc);
            }
            let (taken, next) = match before.filter(|_| !first.choices.is_empty()) {
                None => (first, m),
                Some(before) => match try_values(&before, t, first, m, &mut rng, stats) {
                    Some(found) => found,
                    None => break,
                },
            };
            path.push(Edge {
                from: 0,
                thread: t as u32,
                choices: taken.choices.iter().map(|c| c.value).collect(),
            });
            match &taken.end {
                None => m = next,
                Some(RunEnd::Violation { .. }) => return violation(&path, &taken.end),
                Some(RunEnd::Trap { .. }) => {
                    let end = taken.end.clone().expect("a trap");
                    trapped
                        .get_or_insert_with(|| super::stateful::search::start_failure(prog, end));
                    break;
                }
                Some(_) => break,
            }
        }
        longest = longest.max(path.len());
    }
    Err(trapped.unwrap_or(UnknownReason::NoViolationFound {
        preemptions: opts.max_preemptions,
    }))
}

/// The values of a step's first input in random order, from the state `before` the step,
/// until one violates or lets the thread go on: that step and the state after it. `first`
/// and `after` are the step already run with the first value (0).
fn try_values<'p>(
    before: &Machine<'p>,
    t: usize,
    first: Step,
    after: Machine<'p>,
    rng: &mut fastrand::Rng,
    stats: &mut ExploreStats,
) -> Option<(Step, Machine<'p>)> {
    let domain = first.choices[0].domain;
    let mut order: Vec<u64> = (0..domain).collect();
    rng.shuffle(&mut order);
    let mut ran = Some((first, after));
    for v in order {
        let (s, next) = match ran.take().filter(|_| v == 0) {
            Some(done) => done,
            None => {
                let mut next = before.clone();
                let Ok(s) = step(&mut next, t, &[v], DOMAINS) else {
                    continue;
                };
                stats.steps += 1;
                (s, next)
            }
        };
        let violates = matches!(s.end, Some(RunEnd::Violation { .. }));
        if violates || (s.end.is_none() && !next.is_stopped(t)) {
            return Some((s, next));
        }
    }
    None
}
