//! Verification engines over the symbolic execution's equation, and what they answer.
//!
//! [`Engine`] names them: `yogar` (the default: ordering consistency checked inside the SAT
//! search), `cegar` (the paper's loop: refine the abstraction from outside, one counterexample
//! at a time), `monolithic` (the exact scheduling constraint ξ and one solve, the CBMC-style
//! baseline), and the enumerative explorers `dpor`, `cdpor` and `rvf` (`crate::explore`, which run the
//! program concretely and share nothing with the SAT path but the frontend and the IR). The SAT
//! engines share [`Outcome`], [`EngineOptions`] and the trace builder, and decide on a
//! [`SymexOutput`] that symbolic execution made once ([`symbolic_execution`]).
//!
//! Adding an engine: a variant of [`Engine`], its names in [`Engine::NAMES`], and its arm in
//! [`Engine::decide`].

mod ask;
pub mod cegar;
pub mod eog;
pub mod monolithic;
pub mod null_solver;
pub mod race;
pub mod trace;
pub mod yogar;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::ir::Program;
use crate::sharing::Sharing;
use crate::status::{Phase, Status};
use crate::svcomp::Property;
use crate::symex::{CheckKind, SymexOptions, SymexOutput};

pub use crate::trace::{Trace, TraceEvent, TraceInput};
pub use ask::Checks;
pub(crate) use ask::{ask, blocking_check, Answer};

/// What the user asked of an engine.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub symex: SymexOptions,
    /// SAT back end name (see `solver_glue::solver_names`).
    pub solver: String,
    /// Give up after this long.
    pub timeout: Option<Duration>,
    /// Check every refinement clause against the exact order encoding (slow; for tests).
    pub check_refinements: bool,
    /// Yogar engine: also build the monolithic formula's ξ (on a solver that keeps nothing)
    /// to report its size next to the abstraction's.
    pub compare_size: bool,
    /// Yogar engine: the Graphviz text of the event order graph of the last counterexample
    /// refuted by a cycle is kept in [`EngineStats::last_refuted_eog`].
    pub keep_eog: bool,
    /// Where to report progress, if anywhere.
    pub status: Option<Arc<Status>>,
    /// Explorers: give up (UNKNOWN) after this many runs.
    pub max_executions: Option<u64>,
    /// `stateful`: give up (UNKNOWN) once more states than this are stored.
    pub max_states: Option<u64>,
    /// The memory model (`rsmc` only; every other engine is sequentially consistent).
    pub memory_model: MemoryModel,
    /// `rvf` only: the paper's causal maps (off by default: measured, they cut no explored
    /// instance the memo does not, see `explore::rvf`).
    pub causal_maps: bool,
    /// The property checked (one [`Engine::checks`]).
    pub property: Property,
}

impl EngineOptions {
    /// Options with the given bound and everything else at its default.
    pub fn with_unwind(unwind: u32) -> EngineOptions {
        EngineOptions {
            symex: SymexOptions {
                unwind,
                ..SymexOptions::default()
            },
            solver: solver_glue::DEFAULT_SOLVER.to_string(),
            timeout: None,
            check_refinements: false,
            compare_size: false,
            keep_eog: false,
            status: None,
            max_executions: None,
            max_states: None,
            memory_model: MemoryModel::Sc,
            causal_maps: false,
            property: Property::UnreachCall,
        }
    }

    /// Reports the phase, when progress is watched.
    pub fn phase(&self, phase: Phase) {
        if let Some(s) = &self.status {
            s.set_phase(phase);
        }
    }
}

/// The memory model a program is verified under (`--mm`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum MemoryModel {
    /// Sequential consistency: what every engine decides under.
    #[default]
    Sc,
    Tso,
    Pso,
    /// IBM POWER (the `rsmc` engine only).
    Power,
}

impl MemoryModel {
    pub const NAMES: &'static [(&'static str, MemoryModel)] = &[
        ("sc", MemoryModel::Sc),
        ("tso", MemoryModel::Tso),
        ("pso", MemoryModel::Pso),
        ("power", MemoryModel::Power),
    ];

    pub fn name(self) -> &'static str {
        MemoryModel::NAMES
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("?", |(n, _)| n)
    }

    /// Whether `engine` decides under this model.
    pub fn supported_by(self, engine: Engine) -> bool {
        match self {
            MemoryModel::Sc => true,
            MemoryModel::Power => engine == Engine::Rsmc,
            MemoryModel::Tso | MemoryModel::Pso => false,
        }
    }
}

/// The engines that decide on the equation of symbolic execution.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// φ0 without the scheduling constraint, with ordering consistency checked inside the SAT
    /// search by the ordering theory.
    Yogar,
    /// Scheduling-constraint based abstraction refinement, the paper's loop.
    Cegar,
    /// The exact encoding with the scheduling constraint ξ, one solve.
    Monolithic,
    /// Enumerative: source-DPOR with sleep sets over the concrete interpreter.
    Dpor,
    /// Enumerative: constrained DPOR (independence constraints under transitive uniformity).
    Cdpor,
    /// Enumerative: the POWER explorer (stateless model checking for POWER; SC with
    /// `--mm sc`).
    Rsmc,
    /// Enumerative: RVF-SMC, one run per reads-value-from instance over the concrete
    /// interpreter.
    Rvf,
    /// No bound: the prover (`crate::prove`) alone, TRUE only from a checked certificate.
    Prove,
    /// Enumerative: stateful exploration of the interpreter with a visited set of canonical
    /// states, no bound; TRUE from a checked inductive state set.
    Stateful,
    /// Enumerative: context-bounded search of the interpreter's runs with few preemptions,
    /// for violations only (FALSE or UNKNOWN, never TRUE).
    Cbs,
}

impl Engine {
    /// The names `--engine` accepts and what they select; the first is the default.
    pub const NAMES: &'static [(&'static str, Engine)] = &[
        ("yogar", Engine::Yogar),
        ("cegar", Engine::Cegar),
        ("monolithic", Engine::Monolithic),
        ("dpor", Engine::Dpor),
        ("cdpor", Engine::Cdpor),
        ("rsmc", Engine::Rsmc),
        ("rvf", Engine::Rvf),
        ("prove", Engine::Prove),
        ("stateful", Engine::Stateful),
        ("cbs", Engine::Cbs),
    ];

    /// The engine called `name`.
    pub fn from_name(name: &str) -> Option<Engine> {
        Engine::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, e)| e)
    }

    /// Whether it works within an unwind bound. The prover and the stateful search explore
    /// without one, so no bound is reported for them.
    pub fn bounded(self) -> bool {
        !matches!(self, Engine::Prove | Engine::Stateful | Engine::Cbs)
    }

    /// Its canonical name.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Yogar => "yogar",
            Engine::Cegar => "cegar",
            Engine::Monolithic => "monolithic",
            Engine::Dpor => "dpor",
            Engine::Cdpor => "cdpor",
            Engine::Rsmc => "rsmc",
            Engine::Rvf => "rvf",
            Engine::Prove => "prove",
            Engine::Stateful => "stateful",
            Engine::Cbs => "cbs",
        }
    }

    /// The SAT back end this engine runs on unless `--solver` says otherwise. Chosen by
    /// measurement (`make bench`, shared tasks at unwind 2, CPU time): the ordering theory runs
    /// best inside CaDiCaL (median 0.04 s, 10.4 s in total on the 228 tasks every
    /// configuration finished, against batsat's 0.04 s and 17.2 s, and it finished one task
    /// more); the refinement loop's thousands of small incremental solves and the monolithic
    /// formula's many easy instances run best on batsat (see `solver_glue::DEFAULT_SOLVER`).
    pub fn default_solver(self) -> &'static str {
        match self {
            Engine::Yogar => "cadical",
            Engine::Cegar
            | Engine::Monolithic
            | Engine::Dpor
            | Engine::Cdpor
            | Engine::Rsmc
            | Engine::Rvf
            | Engine::Prove
            | Engine::Stateful
            | Engine::Cbs => solver_glue::DEFAULT_SOLVER,
        }
    }

    /// Whether this engine checks `property`: unreach-call all of them; no-data-race the
    /// default engine (race pairs in the ordering theory, `engine::race`) and dpor (a race is
    /// a reversible race of two data accesses, `explore::dpor::data_race`); no-overflow the
    /// same two (overflow checks of symbolic execution, and of the interpreter). cdpor is
    /// left out: its independence constraints commute conflicting accesses that write equal
    /// values, which keeps the reachable states but hides such races.
    pub fn checks(self, property: &Property) -> bool {
        match property {
            Property::UnreachCall => true,
            Property::NoDataRace | Property::NoOverflow | Property::ValidMemsafety => {
                matches!(self, Engine::Yogar | Engine::Dpor)
            }
            Property::Other(_) => false,
        }
    }

    /// The explorer this engine runs, for the enumerative engines (which need no symbolic
    /// execution).
    pub fn explorer(self) -> Option<crate::explore::Explorer> {
        match self {
            Engine::Dpor => Some(crate::explore::Explorer::Dpor),
            Engine::Cdpor => Some(crate::explore::Explorer::Cdpor),
            Engine::Rsmc => Some(crate::explore::Explorer::Rsmc),
            Engine::Rvf => Some(crate::explore::Explorer::Rvf),
            Engine::Stateful => Some(crate::explore::Explorer::Stateful),
            Engine::Cbs => Some(crate::explore::Explorer::ContextBounded),
            Engine::Yogar | Engine::Cegar | Engine::Monolithic | Engine::Prove => None,
        }
    }

    /// Decides the bounded problem of one equation (a SAT engine; an explorer runs the program
    /// itself and is called through [`Engine::verify`]).
    pub fn decide(self, prog: &Program, out: &SymexOutput, opts: &EngineOptions) -> Outcome {
        if !self.checks(&opts.property) {
            return Outcome::unknown(UnknownReason::UnsupportedProperty, EngineStats::default());
        }
        match self {
            Engine::Yogar => yogar::decide(prog, out, opts),
            Engine::Cegar => cegar::decide(prog, out, opts),
            Engine::Monolithic => monolithic::decide(prog, out, opts),
            Engine::Dpor
            | Engine::Cdpor
            | Engine::Rsmc
            | Engine::Rvf
            | Engine::Prove
            | Engine::Stateful
            | Engine::Cbs => Outcome::unknown(
                UnknownReason::Internal("an explorer has no equation to decide".into()),
                EngineStats::default(),
            ),
        }
    }

    /// The sharing pass, symbolic execution once, then the engine: for a caller that holds a
    /// program and one bound.
    pub fn verify(self, prog: &Program, opts: &EngineOptions) -> Outcome {
        if !self.checks(&opts.property) {
            return Outcome::unknown(UnknownReason::UnsupportedProperty, EngineStats::default());
        }
        if let Some(explorer) = self.explorer() {
            return crate::explore::verify(prog, opts, explorer, opts.max_executions);
        }
        let sharing = Sharing::analyse_with(prog, opts.property == Property::NoDataRace);
        let mut stats = EngineStats::default();
        match symbolic_execution(prog, &sharing, opts, &mut stats) {
            Ok(out) => {
                let mut outcome = self.decide(prog, &out, opts);
                outcome.stats.symex_time = stats.symex_time;
                outcome
            }
            Err(why) => Outcome::unknown(why, stats),
        }
    }
}

/// Symbolic execution of `prog` at the bound of `opts` (within its timeout), its time added to
/// `stats`.
pub fn symbolic_execution(
    prog: &Program,
    sharing: &Sharing,
    opts: &EngineOptions,
    stats: &mut EngineStats,
) -> Result<SymexOutput, UnknownReason> {
    opts.phase(Phase::Symex);
    let start = Instant::now();
    let mut symex = opts.symex.clone();
    symex.overflow_checks = opts.property == Property::NoOverflow;
    symex.memsafety = opts.property == Property::ValidMemsafety;
    symex.free_writes = opts.property == Property::NoDataRace;
    // Symmetry breaking keeps every reachable check under sequential consistency; races and
    // memory safety see thread or object identities it moves (`symex::symmetry`).
    symex.symmetry = opts.memory_model == MemoryModel::Sc
        && matches!(opts.property, Property::UnreachCall | Property::NoOverflow);
    // Symbolic execution of a large program can take long by itself: it watches the deadline.
    if let Some(t) = opts.timeout {
        let d = start + t;
        symex.deadline = Some(symex.deadline.map_or(d, |e| e.min(d)));
    }
    let out = crate::symex::run(prog, sharing, &symex);
    stats.symex_time += start.elapsed();
    out.map_err(UnknownReason::from)
}

pub use crate::verdict::{UnknownReason, Unwound, Verdict};

/// Sizes and times an engine measured.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    /// Loops and waits the spin reduction cut (symbolic execution).
    pub spin: crate::symex::SpinStats,
    pub events: usize,
    /// Orders between identical threads' first events (symmetry breaking).
    pub search_orders: usize,
    pub threads: usize,
    pub vars: u64,
    pub clauses: u64,
    /// Clauses of ζ and ξ (ξ only in the monolithic engine).
    pub zeta_clauses: u64,
    /// ζ's value clauses of three literals left to the ordering theory instead
    /// ([`encoder::ValueEquality`]; 0 when they are all clauses).
    pub zeta_clauses_in_theory: u64,
    pub xi_clauses: u64,
    pub solves: u64,
    /// Conflicts of the SAT solver (including the theory's), when the back end counts them.
    pub conflicts: Option<u64>,
    pub decisions: Option<u64>,
    /// Refinement rounds, and how they were decided.
    pub refinements: u64,
    pub graph_refinements: u64,
    pub exact_checks: u64,
    pub exact_refinements: u64,
    /// Clauses added by refinement and their literals.
    pub refinement_clauses: u64,
    pub refinement_literals: u64,
    pub graph_time: Duration,
    pub exact_time: Duration,
    /// Clauses of the abstraction φ0 (before any refinement), for the Yogar engine.
    pub phi0_clauses: u64,
    /// Clauses ξ would add (Yogar engine with `compare_size`).
    pub monolithic_xi_clauses: Option<u64>,
    /// Graphviz text of the last event order graph refuted by a cycle (with `keep_eog`).
    pub last_refuted_eog: Option<String>,
    /// Coherence variables and the ordering theory's work (Yogar engine).
    pub coherence_vars: u64,
    pub theory_conflicts: u64,
    pub theory_conflict_literals: u64,
    pub theory_propagations: u64,
    pub theory_reason_literals: u64,
    pub theory_edges: u64,
    /// Solver time (including the theory's), and the part spent in the theory.
    pub sat_time: Duration,
    pub theory_time: Duration,
    /// Preprocessing, parsing, lowering (set by the pipeline).
    pub frontend_time: Duration,
    /// Sharing pass and symbolic execution.
    pub symex_time: Duration,
    /// The equation's formula, ζ and ξ to the solver.
    pub encode_time: Duration,
    pub total_time: Duration,
    /// What an enumerative explorer counted (explorer engines only).
    pub explore: Option<crate::explore::ExploreStats>,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: EngineStats,
    /// How an engine without a bound proved a TRUE (the stateful search names its checked
    /// state set); `None` for a TRUE from closed unwinding, which the pipeline names by its
    /// bound, and for every other verdict. A verdict property, not a count: it lives here
    /// rather than in [`EngineStats`].
    pub proved_by: Option<String>,
}

impl Outcome {
    /// An outcome of a bounded engine (no proof of its own to name).
    pub fn new(verdict: Verdict, stats: EngineStats) -> Outcome {
        Outcome {
            verdict,
            stats,
            proved_by: None,
        }
    }

    pub fn unknown(reason: UnknownReason, stats: EngineStats) -> Outcome {
        Outcome::new(Verdict::Unknown(reason), stats)
    }
}

/// The reason of an UNKNOWN caused by a failing non-property check.
pub fn check_reason(
    prog: &crate::ir::Program,
    kind: &CheckKind,
    loc: crate::ir::Loc,
) -> UnknownReason {
    let at = prog.loc_str(loc);
    match kind {
        CheckKind::Property(_) => {
            UnknownReason::Internal(format!("a property check at {at} taken for another check"))
        }
        CheckKind::Unwind { func, lp } => UnknownReason::BoundTooSmall {
            what: Unwound::Loop {
                func: prog.funcs[*func].name.clone(),
                index: lp.as_u32(),
            },
            at,
        },
        CheckKind::Recursion(f) => UnknownReason::BoundTooSmall {
            what: Unwound::Recursion {
                func: prog.funcs[*f].name.clone(),
            },
            at,
        },
        CheckKind::Unsupported(what) => UnknownReason::Unsupported {
            what: what.clone(),
            at: Some(at),
        },
        CheckKind::Overflow | CheckKind::Memory(_) => {
            UnknownReason::Internal(format!("a property check at {at} taken for another check"))
        }
        CheckKind::InvalidRead => UnknownReason::Unsupported {
            what: crate::symex::INVALID_READ.into(),
            at: Some(at),
        },
        CheckKind::Approximate(a) => UnknownReason::Unsupported {
            what: format!("{}, over-approximated", a.describe()),
            at: Some(at),
        },
    }
}

/// A deadline from an optional timeout, and where solves report that they run.
pub(crate) struct Deadline(Option<Instant>, Option<Arc<Status>>);

impl Deadline {
    /// The deadline of `opts`, reporting to its status.
    pub fn of(opts: &EngineOptions) -> Deadline {
        Deadline(
            opts.timeout.map(|t| Instant::now() + t),
            opts.status.clone(),
        )
    }
    /// Time left (None = unlimited); zero when passed.
    pub fn left(&self) -> Option<Duration> {
        self.0.map(|d| d.saturating_duration_since(Instant::now()))
    }
    pub fn passed(&self) -> bool {
        self.left().is_some_and(|l| l.is_zero())
    }
}

/// Lets `decide` answer on an encoder that holds the formula of the equation (φ without ζ and
/// ξ) on a fresh solver of the back end `opts` names.
pub(crate) fn with_equation(
    out: &SymexOutput,
    opts: &EngineOptions,
    mut decide: impl FnMut(&mut encoder::Encoder, &Deadline, &mut EngineStats) -> Verdict,
) -> Outcome {
    let start = Instant::now();
    let deadline = Deadline::of(opts);
    let mut stats = EngineStats {
        spin: out.spin.clone(),
        ..EngineStats::default()
    };
    let mut solver = match solver_glue::make_solver(&opts.solver) {
        Ok(s) => s,
        Err(e) => return Outcome::unknown(UnknownReason::Internal(e.to_string()), stats),
    };
    opts.phase(Phase::Encoding);
    let mut enc = out.formula.encoder(&mut *solver);
    stats.encode_time += start.elapsed();
    let verdict = decide(&mut enc, &deadline, &mut stats);
    let s = enc.solver_ref().stats();
    stats.vars = s.vars;
    stats.clauses = s.clauses;
    stats.solves = s.solves;
    stats.conflicts = s.conflicts;
    stats.decisions = s.decisions;
    stats.sat_time = s.solve_time;
    stats.theory_time = s.theory_time;
    stats.total_time = start.elapsed();
    Outcome::new(verdict, stats)
}

/// What both engines encode first: the unconditional program order and ζ (every read takes
/// the value of one write of its location), with their sizes recorded in `stats`. `Err` is
/// the verdict's reason when the encoder cannot order the equation (unsupported).
pub(crate) fn order_and_links(
    out: &crate::symex::SymexOutput,
    enc: &mut encoder::Encoder,
    stats: &mut EngineStats,
    values: encoder::ValueEquality,
) -> Result<(encoder::ProgramOrder, encoder::LinkTable), UnknownReason> {
    let start = Instant::now();
    let eq = &out.equation;
    stats.events = eq.events.len();
    stats.search_orders = eq.search_orders.len();
    stats.threads = out.threads.len();
    let unsupported = |e: &dyn std::fmt::Display| UnknownReason::unsupported(e.to_string());
    let po = encoder::ProgramOrder::unconditional(eq).map_err(|e| unsupported(&e))?;
    let links = encoder::encode_links_with(eq, &po, enc, values).map_err(|e| unsupported(&e))?;
    stats.zeta_clauses = links.size().clauses;
    if links.values_in_theory() {
        stats.zeta_clauses_in_theory = links.value_clauses();
    }
    stats.encode_time += start.elapsed();
    Ok((po, links))
}

/// One solve under `assume`, within the deadline.
pub(crate) fn solve(
    enc: &mut encoder::Encoder,
    assume: &[solver_glue::Lit],
    deadline: &Deadline,
) -> solver_glue::SolveResult {
    if assume.iter().any(|&l| enc.const_value(l) == Some(false)) {
        return solver_glue::SolveResult::Unsat;
    }
    if deadline.passed() {
        return solver_glue::SolveResult::Interrupted;
    }
    if let Some(s) = &deadline.1 {
        s.set_phase(Phase::Solving);
    }
    // Every back end enforces a time budget; only conflict budgets may be refused.
    let _ = enc.solver().set_budget(solver_glue::Budget {
        time: deadline.left(),
        conflicts: None,
    });
    enc.solver().solve(assume)
}
