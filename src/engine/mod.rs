//! Verification engines over the symbolic execution's equation, and what they answer.
//!
//! `monolithic` adds the exact scheduling constraint ξ and solves once (the CBMC-style
//! baseline). Both engines share [`Outcome`], [`EngineOptions`] and the trace builder.

pub mod cegar;
pub mod eog;
pub mod monolithic;
pub mod null_solver;
pub mod trace;

use std::time::{Duration, Instant};

use crate::symex::{CheckKind, SymexOptions};

pub use trace::{Trace, TraceEvent, TraceInput};

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
        }
    }
}

pub use crate::verdict::{UnknownReason, Unwound, Verdict};

/// Sizes and times an engine measured.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    pub events: usize,
    pub threads: usize,
    pub vars: u64,
    pub clauses: u64,
    /// Clauses of ζ and ξ (ξ only in the monolithic engine).
    pub zeta_clauses: u64,
    pub xi_clauses: u64,
    pub solves: u64,
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
    pub sat_time: Duration,
    pub total_time: Duration,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: EngineStats,
}

impl Outcome {
    pub fn unknown(reason: UnknownReason, stats: EngineStats) -> Outcome {
        Outcome {
            verdict: Verdict::Unknown(reason),
            stats,
        }
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
    }
}

/// A deadline from an optional timeout.
pub(crate) struct Deadline(Option<Instant>);

impl Deadline {
    pub fn new(timeout: Option<Duration>) -> Deadline {
        Deadline(timeout.map(|t| Instant::now() + t))
    }
    /// Time left (None = unlimited); zero when passed.
    pub fn left(&self) -> Option<Duration> {
        self.0.map(|d| d.saturating_duration_since(Instant::now()))
    }
    pub fn passed(&self) -> bool {
        self.left().is_some_and(|l| l.is_zero())
    }
}

/// The disjunctions of the checks an engine asks about.
///
/// A counterexample is real only if it reaches a property violation without meeting an
/// unsupported construct anywhere (a value read through an unresolved pointer is arbitrary);
/// so engines first solve under `err ∧ ¬unsupported`, and only when that is impossible ask for
/// `other` (a loop past its bound, an unsupported construct), which makes TRUE an UNKNOWN.
pub struct Checks {
    pub err: solver_glue::Lit,
    pub unsupported: solver_glue::Lit,
    pub other: solver_glue::Lit,
}

impl Checks {
    pub fn new(out: &crate::symex::SymexOutput, enc: &mut encoder::Encoder) -> Checks {
        let lits = |f: &dyn Fn(&CheckKind) -> bool| -> Vec<solver_glue::Lit> {
            out.checks
                .iter()
                .filter(|c| f(&c.kind))
                .map(|c| c.lit)
                .collect()
        };
        let props = lits(&|k| matches!(k, CheckKind::Property(_)));
        let unsupp = lits(&|k| matches!(k, CheckKind::Unsupported(_)));
        let others = lits(&|k| !matches!(k, CheckKind::Property(_)));
        Checks {
            err: enc.or_all(&props),
            unsupported: enc.or_all(&unsupp),
            other: enc.or_all(&others),
        }
    }
}

/// Runs the sharing pass and symbolic execution once, then lets `decide` answer on an encoder
/// that holds the formula of the equation (φ without ζ and ξ) on a fresh solver.
pub(crate) fn with_equation(
    prog: &crate::ir::Program,
    opts: &EngineOptions,
    mut decide: impl FnMut(
        &crate::symex::SymexOutput,
        &mut encoder::Encoder,
        &Deadline,
        &mut EngineStats,
    ) -> Verdict,
) -> Outcome {
    let start = Instant::now();
    let deadline = Deadline::new(opts.timeout);
    let mut stats = EngineStats::default();
    // Symbolic execution of a large program can take long by itself: it watches the deadline.
    let mut opts = opts.clone();
    opts.symex.deadline = deadline.0;
    let sharing = crate::sharing::Sharing::analyse(prog);
    let out = match crate::symex::run(prog, &sharing, &opts.symex) {
        Ok(o) => o,
        Err(e) => return Outcome::unknown(e.into(), stats),
    };
    let mut solver = match solver_glue::make_solver(&opts.solver) {
        Ok(s) => s,
        Err(e) => return Outcome::unknown(UnknownReason::Internal(e.to_string()), stats),
    };
    let mut enc = out.formula.encoder(&mut *solver);
    let verdict = decide(&out, &mut enc, &deadline, &mut stats);
    let s = enc.solver_ref().stats();
    stats.vars = s.vars;
    stats.clauses = s.clauses;
    stats.solves = s.solves;
    stats.sat_time = s.solve_time;
    stats.total_time = start.elapsed();
    Outcome { verdict, stats }
}

/// What both engines encode first: the unconditional program order and ζ (every read takes
/// the value of one write of its location), with their sizes recorded in `stats`. `Err` is
/// the verdict's reason when the encoder cannot order the equation (unsupported).
pub(crate) fn order_and_links(
    out: &crate::symex::SymexOutput,
    enc: &mut encoder::Encoder,
    stats: &mut EngineStats,
) -> Result<(encoder::ProgramOrder, encoder::LinkTable), UnknownReason> {
    let eq = &out.equation;
    stats.events = eq.events.len();
    stats.threads = out.threads.len();
    let unsupported = |e: &dyn std::fmt::Display| UnknownReason::unsupported(e.to_string());
    let po = encoder::ProgramOrder::unconditional(eq).map_err(|e| unsupported(&e))?;
    let links = encoder::encode_links(eq, &po, enc).map_err(|e| unsupported(&e))?;
    stats.zeta_clauses = links.size().clauses;
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
    // Every back end enforces a time budget; only conflict budgets may be refused.
    let _ = enc.solver().set_budget(solver_glue::Budget {
        time: deadline.left(),
        conflicts: None,
    });
    enc.solver().solve(assume)
}
