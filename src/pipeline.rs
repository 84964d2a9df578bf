//! `yogar::verify`: a task in, an [`Outcome`] out. The one pipeline the command line, the
//! bench and the tests run: load and validate the program, the sharing pass once, then per
//! unwind bound symbolic execution once and the chosen engine on its equation, deepening the
//! bound for `--unwind auto`; a counterexample comes back with its witness trace.

use std::collections::HashMap;
use std::fmt;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::budget::Budget;
use crate::engine::{self, Engine, EngineOptions, EngineStats};
use crate::exit;
use crate::frontend::{self, LoadError};
use crate::ir::{DataModel, Program};
use crate::prove::run::Proof;
use crate::resources;
use crate::sharing::Sharing;
use crate::status::{Phase, Status};
use crate::svcomp::{Property, Request};
use crate::symex::SymexOptions;
use crate::verdict::{UnknownReason, Verdict};
use crate::witness;

/// What to verify: a program or an SV-COMP task, resolved ([`Request::resolve`]).
pub type Task = Request;

/// The loop bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unwind {
    /// Deepen the bound (1, 2, 3, 4, 6, 8, 12, …) until a verdict or the time limit.
    Auto,
    Fixed(u32),
}

/// Bounds past this are not tried by [`Unwind::Auto`].
pub const MAX_AUTO_UNWIND: u32 = 1 << 20;

/// 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, ...: each step at most doubles the formula.
pub fn next_bound(b: u32) -> u32 {
    if b < 4 {
        b + 1
    } else if b.is_power_of_two() {
        b + b / 2
    } else {
        b + b / 3
    }
}

/// How to verify.
#[derive(Clone, Debug)]
pub struct Options {
    pub engine: Engine,
    pub unwind: Unwind,
    /// Per-loop bounds, keyed `FUNCTION.N`.
    pub unwindset: HashMap<String, u32>,
    /// Whether a loop that may run past its bound is a check (else TRUE holds within the bound
    /// only; needs a fixed bound).
    pub unwinding_assertions: bool,
    /// Cut waiting loops at iterations without a visible effect (see `symex::SymexOptions`).
    pub spin_reduction: bool,
    /// Overrides the task's data model; LP64 when neither says.
    pub data_model: Option<DataModel>,
    /// SAT back end name.
    pub solver: String,
    /// For all bounds together.
    pub timeout: Option<Duration>,
    pub check_refinements: bool,
    pub compare_size: bool,
    pub keep_eog: bool,
    /// Where to report progress, if anywhere.
    pub status: Option<Arc<Status>>,
    /// Explorers: give up (UNKNOWN) after this many runs.
    pub max_executions: Option<u64>,
    /// `stateful`: give up (UNKNOWN) once more states than this are stored.
    pub max_states: Option<u64>,
    /// The memory model (`--mm`): SC for every engine, POWER for `rsmc`; others give
    /// UNKNOWN.
    pub memory_model: crate::engine::MemoryModel,
    /// `rvf` only: use the paper's causal maps.
    pub causal_maps: bool,
    /// `-D`, `-I`, `--function`, `--error-label`.
    pub frontend: frontend::FrontendOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::NAMES[0].1,
            unwind: Unwind::Auto,
            unwindset: HashMap::new(),
            unwinding_assertions: true,
            spin_reduction: true,
            data_model: None,
            solver: Engine::NAMES[0].1.default_solver().to_string(),
            timeout: None,
            check_refinements: false,
            compare_size: false,
            keep_eog: false,
            status: None,
            max_executions: None,
            max_states: None,
            memory_model: crate::engine::MemoryModel::Sc,
            causal_maps: false,
            frontend: frontend::FrontendOptions::default(),
        }
    }
}

/// The result of [`verify`].
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The bound that decided; none when no engine ran (an unsupported property, a construct
    /// the frontend refused).
    pub bound: Option<u32>,
    pub data_model: DataModel,
    /// The program, once loaded.
    pub program: Option<Program>,
    /// The deciding bound's counts; times over all bounds.
    pub stats: EngineStats,
    /// On FALSE: the counterexample as the witness writer's trace.
    pub witness: Option<witness::Trace>,
    /// On a complete TRUE: how it was obtained (`unwinding assertions at bound 6`, or the
    /// prover's method).
    pub proved_by: Option<String>,
    /// On a TRUE the prover proved: the certificate's invariants at loop heads and thread
    /// entries, for the correctness witnesses.
    pub invariants: Vec<crate::prove::witness::WitnessInvariant>,
}

/// Why [`verify`] gave no outcome at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The program could not be loaded.
    Load(LoadError),
    /// Options that do not go together or name nothing known.
    Options(String),
    /// A panic in symbolic execution or an engine (a bug in yogar).
    Crashed,
}

impl VerifyError {
    /// The exit code of `yogar verify` for this error (see `crate::exit`).
    pub fn exit_code(&self) -> u8 {
        match self {
            VerifyError::Load(e) => e.exit_code(),
            VerifyError::Options(_) => exit::USAGE,
            VerifyError::Crashed => exit::INTERNAL,
        }
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Load(e) => write!(f, "{e}"),
            VerifyError::Options(m) => write!(f, "error: {m}"),
            VerifyError::Crashed => write!(f, "internal error during verification"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Verifies `task`.
///
/// The engine runs at the bound of `options` (or at deepening bounds); the options' own engine
/// decides, also an explorer (which needs no symbolic execution).
pub fn verify(task: &Task, options: &Options) -> Result<Outcome, VerifyError> {
    let started = Instant::now();
    if options.unwind == Unwind::Auto && !options.unwinding_assertions {
        return Err(VerifyError::Options(
            "--no-unwinding-assertions needs a fixed --unwind N (auto stops only when the \
             unwinding assertions hold)"
                .into(),
        ));
    }
    if !solver_glue::solver_names().contains(&options.solver.as_str()) {
        return Err(VerifyError::Options(
            solver_glue::UnknownSolver(options.solver.clone()).to_string(),
        ));
    }
    // The caller's data model wins, then the task's; LP64 for a plain program.
    let data_model = options
        .data_model
        .or(task.data_model)
        .unwrap_or(DataModel::Lp64);
    let early = |reason: UnknownReason| Outcome {
        verdict: Verdict::Unknown(reason),
        bound: None,
        data_model,
        program: None,
        stats: EngineStats::default(),
        witness: None,
        proved_by: None,
        invariants: Vec::new(),
    };
    if !options.memory_model.supported_by(options.engine) {
        return Ok(early(UnknownReason::UnsupportedMemoryModel {
            model: options.memory_model.name().into(),
            engine: options.engine.name().into(),
        }));
    }
    if !options.engine.checks(&task.property) {
        return Ok(early(UnknownReason::UnsupportedProperty));
    }
    if let Some(s) = &options.status {
        s.set_phase(Phase::Frontend);
    }
    let prog = match frontend::load_with(&task.program, data_model, &options.frontend) {
        Ok(p) => p,
        Err(LoadError::Frontend(e)) if e.is_unsupported() => return Ok(early(e.into())),
        Err(e) => return Err(VerifyError::Load(e)),
    };
    let frontend_time = started.elapsed();
    let deadline = options.timeout.map(|t| started + t);
    if options.engine == Engine::Prove {
        return Ok(prove_only(prog, options, data_model, started));
    }
    let (bound, mut outcome, proved) = deepen(&prog, options, &task.property, deadline, started)?;
    let mut stats = outcome.stats;
    stats.frontend_time = frontend_time;
    stats.total_time = started.elapsed();
    let witness = match &outcome.verdict {
        Verdict::False { trace } => Some(witness::from_engine_trace(&prog, trace, &task.program)),
        _ => None,
    };
    outcome.stats = stats;
    let (proved_by, invariants) = match (&outcome.verdict, proved) {
        (Verdict::True { complete: true }, Some((how, invs))) => (Some(how), invs),
        // An engine without a bound (the stateful explorer) names its own proof.
        (Verdict::True { complete: true }, None) => (
            Some(
                outcome
                    .proved_by
                    .clone()
                    .unwrap_or_else(|| format!("unwinding assertions at bound {bound}")),
            ),
            Vec::new(),
        ),
        _ => (None, Vec::new()),
    };
    Ok(Outcome {
        verdict: outcome.verdict,
        bound: Some(bound),
        data_model,
        program: Some(prog),
        stats: outcome.stats,
        witness,
        proved_by,
        invariants,
    })
}

/// `--engine prove`: the prover alone, TRUE only from a checked certificate.
fn prove_only(
    prog: Program,
    options: &Options,
    data_model: DataModel,
    started: Instant,
) -> Outcome {
    let sharing = Sharing::analyse(&prog);
    let (verdict, proved_by, invariants) =
        match crate::prove::run::prove(&prog, &sharing, options.timeout) {
            Ok(p) => (
                Verdict::True { complete: true },
                Some(p.method.clone()),
                crate::prove::witness::invariants(&p),
            ),
            Err(why) => (
                Verdict::Unknown(UnknownReason::Prover(why)),
                None,
                Vec::new(),
            ),
        };
    let stats = EngineStats {
        total_time: started.elapsed(),
        ..EngineStats::default()
    };
    Outcome {
        verdict,
        bound: Some(0),
        data_model,
        program: Some(prog),
        stats,
        witness: None,
        proved_by,
        invariants,
    }
}

/// The first bound after which `--unwind auto` tries the provers once (when the unwinding
/// assertions still fail there); past it they wait while the bounds stay quick (see
/// [`QUICK_BOUND`]).
pub const PROVE_AFTER_BOUND: u32 = 3;

/// From [`PROVE_AFTER_BOUND`] on, a bound that took less CPU time than this does not call the
/// provers yet: deepening goes on, each further bound first as a short trial
/// ([`QUICK_TRIAL`]), up to [`PROVE_BY_BOUND`]. A bound this quick costs little, and
/// a loop that needs tens of iterations to reach its error is found there long before the
/// provers and the stateful search have had their shares: pthread-demo-datarace-2 (two loops
/// of 20) took 11.7 s at bound 3 (the stateful search found it after the provers) against
/// 0.04 s for bound 24 alone. A TRUE task pays the quick bounds: each at most doubles the
/// formula, so together they cost a few times this.
pub const QUICK_BOUND: Duration = Duration::from_millis(100);

/// The trial a bound past [`PROVE_AFTER_BOUND`] gets before the provers when the bounds so far
/// were quick: twenty times the quick limit is no longer cheap, and the provers and the
/// stateful search then get their turn before the bound is tried again with all the time
/// left. Measured over the 281 shared tasks at 60 s (one run each, CPU s of the 268 tasks all
/// three decide): 217.0 when the provers came at bound 3 whatever the bounds cost; 187.9 with
/// the quick bounds and the full [`TRIAL_SHARE`] (6 s) as their trial, where TRUE tasks the
/// provers close at once paid it (pthread-demo-datarace-1 0.11 -> 8.97 s,
/// workstealqueue_mutex-2 7.71 -> 11.61); 199.9 with a 1 s trial, which cut barrier_3t's
/// bound 4 (1.4 s) short and left it at 19 s instead of 1.5; 185.9 with this 2 s trial (the
/// same 268 verdicts in all four runs).
pub const QUICK_TRIAL: Duration = Duration::from_secs(2);

/// The bound at which the provers run even if every bound so far was quick.
pub const PROVE_BY_BOUND: u32 = 64;

/// A bound whose run took longer than this tries the provers before [`PROVE_AFTER_BOUND`]:
/// the next bounds may well not fit in time or memory (divinefifo_1w1r needs 3.8 GB at bound
/// 2, and its state space is proved in 2 s).
pub const PROVE_EARLY_AFTER: Duration = Duration::from_secs(1);

/// The share of what is left of the run's limit that each bound from [`PROVE_AFTER_BOUND`] on
/// gets while the provers have not been tried (at least [`TRIAL_AT_LEAST`]; past
/// [`PROVE_AFTER_BOUND`] at most [`QUICK_TRIAL`]): when it does not finish within it, the
/// provers run first and the bound is then tried again with all the time left. A bound that
/// alone would eat the run (31_simple_loop5_vs needs 30 s at bound 3, its proof 0.4 s) must
/// not keep the provers from running. Nothing is lost: the interrupted bound is
/// decided afresh afterwards.
pub const TRIAL_SHARE: (u32, u32) = (1, 10);

/// The least time a bound gets before the provers (see [`TRIAL_SHARE`]).
pub const TRIAL_AT_LEAST: Duration = Duration::from_secs(2);

/// The time the shares of `--unwind auto` (prover, stateful search, bound trials) are taken of
/// when the run has no time limit: the prover then gets 60 s and the trial 12 s, as they
/// would under a 120 s limit, instead of every share being the same fixed time.
pub const NOMINAL_TIME_WITHOUT_LIMIT: Duration = Duration::from_secs(120);

/// States the stateful search may store inside `--unwind auto` (unless `--max-states` says):
/// enough for the finite-state tasks it proves, small enough to stay far below 4 GB.
pub const AUTO_MAX_STATES: u64 = 2_000_000;

/// Resident memory past which the stateful search inside `--unwind auto` gives up, so that
/// bounded checking keeps room under a 4 GB limit.
pub const AUTO_MAX_RESIDENT: u64 = 1 << 30;

/// The share of what is left of the run's limit that the thread-modular prover gets inside
/// `--unwind auto` when a bound took longer than [`PROVE_EARLY_AFTER`] before
/// [`PROVE_AFTER_BOUND`] (as a fraction: numerator, denominator). Deepening is then costly
/// (each bound at least doubles the formula), so the bounds it could still reach are few,
/// while a proof is the one way to TRUE: 41_FreeBSD_abd_kbd_sliced needs 20 s at bound 3
/// and the prover about 30 s.
pub const PROVE_EARLY_SHARE: (u32, u32) = (2, 3);

/// The share of what is left of the run's limit that the ladder's cheap rungs get once
/// before bound 2 (see `deepen`): 3 s of a 60 s run. Their rejection is usually a matter of
/// milliseconds; a proof found there spares bounds that can take most of the run.
pub const QUICK_LADDER_SHARE: (u32, u32) = (1, 20);

/// The prover's share when it is tried after [`PROVE_AFTER_BOUND`], the bounds so far quick.
pub const PROVE_SHARE: (u32, u32) = (1, 2);

/// The stateful search's share of what is left after the prover (it runs after it).
pub const STATEFUL_SHARE: (u32, u32) = (1, 3);

/// What is left of the run's time: until `deadline` (`--timeout`), else the CPU time left
/// under `RLIMIT_CPU` (as the regression runner and BenchExec set it), counted as CPU time
/// ([`Budget`]: on a loaded machine a second of CPU takes several of wall-clock time), else
/// no limit (whose shares are taken of [`NOMINAL_TIME_WITHOUT_LIMIT`]).
fn run_budget(deadline: Option<Instant>, started: Instant) -> Budget {
    if let Some(d) = deadline {
        return Budget::wall(Some(d.saturating_duration_since(Instant::now())));
    }
    match crate::budget::cpu_time_left() {
        Some(left) => Budget::cpu(left, started),
        None => Budget::unlimited(),
    }
}

/// `share` of what is left of the run's time (see [`run_budget`]).
fn run_share(deadline: Option<Instant>, started: Instant, share: (u32, u32)) -> Budget {
    run_budget(deadline, started).share(share, NOMINAL_TIME_WITHOUT_LIMIT)
}

/// The wall-clock time `share` of what is left of the run's time takes now.
fn prover_share(deadline: Option<Instant>, started: Instant, share: (u32, u32)) -> Duration {
    run_share(deadline, started, share)
        .left()
        .unwrap_or(Duration::ZERO)
}

/// The stateful search inside `--unwind auto`, with a prover's share of the time and a state
/// and memory budget: its outcome when it decided (TRUE from a checked closed state set, or
/// FALSE from an exact counterexample), else `None`.
fn stateful_in_auto(
    prog: &Program,
    options: &Options,
    deadline: Option<Instant>,
    started: Instant,
) -> Option<engine::Outcome> {
    use crate::explore::stateful;
    let opts = stateful::Options {
        max_states: Some(options.max_states.unwrap_or(AUTO_MAX_STATES)),
        max_resident: Some(AUTO_MAX_RESIDENT),
        deadline: Some(Instant::now() + prover_share(deadline, started, STATEFUL_SHARE)),
        max_domain: stateful::MAX_DOMAIN,
        drop_successor: None,
        por: true,
        por_fault: None,
    };
    let found = std::panic::catch_unwind(AssertUnwindSafe(|| stateful::run(prog, &opts))).ok()?;
    match found.verdict {
        Verdict::True { .. } | Verdict::False { .. } => Some(found),
        Verdict::Unknown(_) => None,
    }
}

/// The share of what is left of the run's limit that the first bound gets under `--unwind
/// auto` before the context-bounded random search (`explore::context_bounded`) has its turn:
/// a first bound that takes this long is one whose interleavings the SAT search finds hard
/// (elimination_backoff_stack: more than 500 s at bound 1, which is its whole program), where
/// a run with a preemption or two at the right places meets a bug in seconds. The bound is
/// then tried again with all the time left, after the search and the provers.
///
/// A sixth (10 s of a 60 s run) leaves the search most of the run even when the solver
/// overruns its trial, as it can by several seconds on a formula of millions of clauses
/// (elimination_backoff_stack: a 15 s trial has ended after 32 s of CPU).
pub const FIRST_TRIAL_SHARE: (u32, u32) = (1, 6);

/// The context-bounded random search's share of what is left after the first bound's trial:
/// most of it, since only a first bound the SAT search finds hard gets here, and the bound is
/// still tried again afterwards.
pub const SAMPLE_SHARE: (u32, u32) = (2, 3);

/// The context-bounded random search inside `--unwind auto`, with [`SAMPLE_SHARE`] of the time
/// left: its FALSE (a run of the interpreter, run again before it is given), else `None`.
fn sample_in_auto(
    prog: &Program,
    deadline: Option<Instant>,
    started: Instant,
) -> Option<engine::Outcome> {
    use crate::explore::context_bounded;
    let opts = context_bounded::Options {
        deadline: Some(Instant::now() + prover_share(deadline, started, SAMPLE_SHARE)),
        max_runs: u64::MAX,
        max_preemptions: context_bounded::MAX_PREEMPTIONS,
        seed: context_bounded::SEED,
    };
    let found =
        std::panic::catch_unwind(AssertUnwindSafe(|| context_bounded::run(prog, &opts))).ok()?;
    matches!(found.verdict, Verdict::False { .. }).then_some(found)
}

/// How the prover proved TRUE: its method and the invariants for the witnesses.
type Proved = (String, Vec<crate::prove::witness::WitnessInvariant>);

/// The engine at the bound `unwind` gives, or at deepening bounds for `auto`: the bound that
/// decided and its outcome, with the times of all bounds.
fn deepen(
    prog: &Program,
    options: &Options,
    property: &Property,
    deadline: Option<Instant>,
    started: Instant,
) -> Result<(u32, engine::Outcome, Option<Proved>), VerifyError> {
    let mut bound = match options.unwind {
        Unwind::Fixed(n) => n,
        Unwind::Auto => 1,
    };
    let mut times = EngineStats::default();
    if let Some(s) = &options.status {
        s.set_phase(Phase::Symex);
    }
    let start = Instant::now();
    let sharing = Sharing::analyse_with(prog, *property == Property::NoDataRace);
    times.symex_time += start.elapsed();
    let mut provers_tried = false;
    // Whether the context-bounded random search has had its turn (see FIRST_TRIAL_SHARE).
    let mut sampled = false;
    // The peak memory after the bound before the last (see `next_bound_fits`).
    let mut last_peak = None;
    // The ladder's first rung still to try: the rungs rejected before bound 2 are not tried
    // again (each is deterministic).
    let mut ladder_from = 0;
    loop {
        let mut opts = engine_options(options, bound);
        opts.property = property.clone();
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok((
                    bound,
                    engine::Outcome::unknown(UnknownReason::Timeout, times),
                    None,
                ));
            }
            opts.timeout = Some(left);
        }
        // Until the provers have run, a bound from theirs on is a trial with a share of the
        // time (see TRIAL_SHARE).
        let auto_reach = options.unwind == Unwind::Auto && *property == Property::UnreachCall;
        // The first bound's trial is for the SAT engines: an explorer runs the program itself
        // and has no formula to find hard.
        let first_trial =
            bound == 1 && !sampled && auto_reach && options.engine.explorer().is_none();
        let trial = first_trial || (bound >= PROVE_AFTER_BOUND && !provers_tried && auto_reach);
        if first_trial {
            let budget = prover_share(deadline, started, FIRST_TRIAL_SHARE).max(TRIAL_AT_LEAST);
            opts.timeout = Some(opts.timeout.map_or(budget, |t| t.min(budget)));
        } else if trial {
            let mut budget = prover_share(deadline, started, TRIAL_SHARE).max(TRIAL_AT_LEAST);
            if bound > PROVE_AFTER_BOUND {
                // The bounds before were quick: one that is not gets a short trial.
                budget = budget.min(QUICK_TRIAL);
            }
            opts.timeout = Some(opts.timeout.map_or(budget, |t| t.min(budget)));
        }
        if let Some(s) = &options.status {
            s.set_bound(bound);
            s.set_refinements(0);
        }
        let bound_started = Instant::now();
        let bound_cpu = crate::budget::cpu_time();
        let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
            if options.engine.explorer().is_some() {
                // The explorers run the program itself: no symbolic execution.
                return options.engine.verify(prog, &opts);
            }
            let mut stats = EngineStats::default();
            match engine::symbolic_execution(prog, &sharing, &opts, &mut stats) {
                Ok(out) => {
                    let mut o = options.engine.decide(prog, &out, &opts);
                    o.stats.symex_time = stats.symex_time;
                    o
                }
                Err(why) => engine::Outcome::unknown(why, stats),
            }
        }));
        let mut outcome = run.map_err(|_| VerifyError::Crashed)?;
        add_times(&mut times, &outcome.stats);
        let trial_ended =
            trial && matches!(&outcome.verdict, Verdict::Unknown(UnknownReason::Timeout));
        let deeper = trial_ended
            || matches!(
                &outcome.verdict,
                Verdict::Unknown(UnknownReason::BoundTooSmall { .. })
            );
        if options.unwind != Unwind::Auto || !deeper || bound >= MAX_AUTO_UNWIND {
            outcome.stats = with_times(std::mem::take(&mut outcome.stats), &times);
            return Ok((bound, outcome, None));
        }
        if first_trial {
            sampled = true;
        }
        if first_trial && trial_ended {
            // The first bound is hard for the SAT search: the context-bounded random search,
            // whose FALSE is a run of the interpreter.
            if let Some(mut found) = sample_in_auto(prog, deadline, started) {
                found.stats.symex_time = times.symex_time;
                found.stats.encode_time = times.encode_time;
                found.stats.sat_time = times.sat_time;
                return Ok((bound, found, None));
            }
        }
        // The prover proves unreach-call only.
        let proving = options.unwind == Unwind::Auto && *property == Property::UnreachCall;
        let proved = |outcome: &mut engine::Outcome, times: &EngineStats, p: Proof| {
            outcome.verdict = Verdict::True { complete: true };
            outcome.stats = with_times(std::mem::take(&mut outcome.stats), times);
            let invs = crate::prove::witness::invariants(&p);
            (p.method, invs)
        };
        if bound == 1 && proving && ladder_from == 0 {
            // The cheap rungs (plain and phased) once before bound 2, in a small share: a
            // bound can take most of the run (43_NetBSD_sysmon_power_sliced needs 34 s at
            // bound 2, its proof 1.1 s). A rejected rung is not tried again (the ladder is
            // deterministic); a timeout leaves that rung to the provers' turn with a full
            // share. The private-key rung is not tried here: its analysis is unbounded, and
            // a check timing out in the small share would make the provers' turn redo it.
            let budget = run_share(deadline, started, QUICK_LADDER_SHARE);
            let quick = 0..crate::prove::run::QUICK_RUNGS;
            match prove_stage(|| crate::prove::run::prove_ladder(prog, &sharing, &budget, quick)) {
                Ok(p) => {
                    let by = proved(&mut outcome, &times, p);
                    return Ok((bound, outcome, Some(by)));
                }
                Err(next) => ladder_from = next,
            }
        }
        let early = trial_ended
            || (bound < PROVE_AFTER_BOUND && bound_started.elapsed() > PROVE_EARLY_AFTER);
        // The last bound that fits in memory (see `next_bound_fits`), measured before the
        // provers use any: they still get their turn, since deepening ends here.
        let peak = (bound, resources::peak_resident_bytes().unwrap_or(0));
        let out_of_room = !trial_ended && !next_bound_fits(last_peak, peak, next_bound(bound));
        let quick = crate::budget::cpu_time().saturating_sub(bound_cpu) < QUICK_BOUND;
        let due = bound >= PROVE_AFTER_BOUND && (!quick || bound >= PROVE_BY_BOUND);
        let prove_now = due || early || out_of_room;
        if prove_now && !provers_tried && proving {
            provers_tried = true;
            // The bound keeps growing without closing: the provers, once each, each with a
            // share of the time left (a failing attempt must not starve bounded checking,
            // which goes on after them), cheap ones first: the ladder's rungs (half of it,
            // two thirds when deepening is already costly; unless they were rejected
            // before bound 2), the stateful search a third of what is left then, and last
            // the counting rung, whose Houdini search can use up any share, the ladder's
            // share of what is left then. A TRUE comes only from a checked certificate;
            // the stateful search's FALSE is an exact counterexample.
            let share = if early || out_of_room {
                PROVE_EARLY_SHARE
            } else {
                PROVE_SHARE
            };
            if ladder_from < crate::prove::run::LADDER_RUNGS {
                let budget = run_share(deadline, started, share);
                let rungs = ladder_from..crate::prove::run::LADDER_RUNGS;
                if let Ok(p) =
                    prove_stage(|| crate::prove::run::prove_ladder(prog, &sharing, &budget, rungs))
                {
                    let by = proved(&mut outcome, &times, p);
                    return Ok((bound, outcome, Some(by)));
                }
            }
            if let Some(found) = stateful_in_auto(prog, options, deadline, started) {
                let mut found = found;
                found.stats.symex_time = times.symex_time;
                found.stats.encode_time = times.encode_time;
                found.stats.sat_time = times.sat_time;
                return Ok((bound, found, None));
            }
            let budget = run_share(deadline, started, share);
            if let Ok(p) =
                prove_stage(|| crate::prove::run::prove_counting(prog, &sharing, &budget))
            {
                let by = proved(&mut outcome, &times, p);
                return Ok((bound, outcome, Some(by)));
            }
        }
        if trial_ended {
            // The trial of this bound ran out of its share: again, with all the time left.
            continue;
        }
        if out_of_room {
            outcome.stats = with_times(std::mem::take(&mut outcome.stats), &times);
            return Ok((bound, outcome, None));
        }
        last_peak = Some(peak);
        bound = next_bound(bound);
    }
}

/// Whether `--unwind auto` starts bound `next` after the peaks `earlier` and `last`: not when
/// the process runs under an address-space limit (`--memlimit`) and the peak extrapolated to
/// `next` would not fit under it. The provers then get their turn if they have not had it,
/// and the run ends with the last bound's UNKNOWN (its bound was too small), the answer it
/// would have given anyway, instead of running out of memory (an abort the regression runner
/// counts as out of memory): the equations of the loops that need thousands of iterations
/// (pthread-driver-races' nvram tasks) grow by gigabytes a bound. Nothing but an UNKNOWN can
/// come of it: a bound is given up, never a verdict made.
fn next_bound_fits(
    earlier: Option<resources::BoundPeak>,
    last: resources::BoundPeak,
    next: u32,
) -> bool {
    let projected = earlier.and_then(|e| resources::projected_peak(e, last, next));
    match (projected, resources::address_space_limit()) {
        (Some(p), Some(limit)) => resources::fits(p, limit),
        _ => true,
    }
}

/// The counts of the deciding bound's `counts` with the phase times summed over every bound.
fn with_times(counts: EngineStats, times: &EngineStats) -> EngineStats {
    EngineStats {
        symex_time: times.symex_time,
        encode_time: times.encode_time,
        sat_time: times.sat_time,
        graph_time: times.graph_time,
        exact_time: times.exact_time,
        ..counts
    }
}

/// A prover stage inside `--unwind auto`: its proof, else the ladder's rung a later attempt
/// starts from (a panic counts as a rejection of everything: the stage is not tried again).
fn prove_stage(
    stage: impl FnOnce() -> Result<Proof, crate::prove::run::NoProof>,
) -> Result<Proof, usize> {
    match std::panic::catch_unwind(AssertUnwindSafe(stage)) {
        Ok(Ok(p)) => Ok(p),
        Ok(Err(no)) => Err(no.next_rung),
        Err(_) => Err(crate::prove::run::LADDER_RUNGS),
    }
}

/// The times of one bound, added to those of the bounds before.
fn add_times(total: &mut EngineStats, s: &EngineStats) {
    total.symex_time += s.symex_time;
    total.encode_time += s.encode_time;
    total.sat_time += s.sat_time;
    total.theory_time += s.theory_time;
    total.graph_time += s.graph_time;
    total.exact_time += s.exact_time;
}

/// The engine's options at one bound.
fn engine_options(options: &Options, bound: u32) -> EngineOptions {
    EngineOptions {
        symex: SymexOptions {
            unwind: bound,
            unwindset: options.unwindset.clone(),
            unwinding_assertions: options.unwinding_assertions,
            spin_reduction: options.spin_reduction,
            ..SymexOptions::default()
        },
        solver: options.solver.clone(),
        timeout: options.timeout,
        check_refinements: options.check_refinements,
        compare_size: options.compare_size,
        keep_eog: options.keep_eog,
        status: options.status.clone(),
        max_executions: options.max_executions,
        max_states: options.max_states,
        memory_model: options.memory_model,
        causal_maps: options.causal_maps,
        property: Property::UnreachCall,
    }
}

/// The equation of `prog` at bound `unwind` (with unwinding assertions): the sharing pass and
/// one symbolic execution, as every SAT engine gets it (`yogar show-equation` prints it).
pub fn equation(prog: &Program, unwind: u32) -> Result<crate::symex::SymexOutput, UnknownReason> {
    let sharing = Sharing::analyse(prog);
    let opts = engine_options(
        &Options {
            unwind: Unwind::Fixed(unwind),
            ..Options::default()
        },
        unwind,
    );
    engine::symbolic_execution(prog, &sharing, &opts, &mut EngineStats::default())
}

/// The task of a plain program file (unreach-call, no data model of its own).
pub fn program_task(file: &Path) -> Task {
    Request {
        program: file.to_path_buf(),
        property: Property::UnreachCall,
        data_model: None,
        expected_verdict: None,
    }
}
