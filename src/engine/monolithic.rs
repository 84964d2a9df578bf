//! The monolithic engine: φ_init ∧ ρ ∧ ζ ∧ ξ ∧ φ_err in one solver, as CBMC does. It is the
//! baseline the Yogar engine is measured and cross-checked against.
//!
//! Real properties are decided first (a model there is a real counterexample: ξ is exact);
//! only when none can fail are the other checks asked for (a loop running past its bound, an
//! unsupported construct reached), which turn TRUE into UNKNOWN.

use std::time::Instant;

use encoder::{encode_links, Encoder, LiteralMode, ProgramOrder, ScheduleEncoding};
use solver_glue::{make_solver, Budget, Lit, SolveResult};

use super::null_solver::NullSolver;
use super::{check_reason, Checks, Deadline, EngineOptions, EngineStats, Outcome, Trace, Verdict};
use crate::ir::Program;
use crate::symex::{self, CheckKind, Knowledge, SymexOutput};

/// Runs of symbolic execution allowed to learn the objects pointers may designate.
pub const MAX_RUNS: usize = 4;

pub fn verify(prog: &Program, opts: &EngineOptions) -> Outcome {
    let start = Instant::now();
    let deadline = Deadline::new(opts.timeout);
    let mut stats = EngineStats::default();
    let mut knowledge = match learn(prog, opts) {
        Ok(k) => k,
        Err(reason) => return Outcome::unknown(reason, stats),
    };
    for _ in 0..MAX_RUNS {
        let mut solver = match make_solver(&opts.solver) {
            Ok(s) => s,
            Err(e) => return Outcome::unknown(e.to_string(), stats),
        };
        let mut enc = Encoder::new(&mut *solver);
        let out = match symex::run(prog, &opts.symex, &mut enc, &knowledge) {
            Ok(o) => o,
            Err(e) => return Outcome::unknown(e.to_string(), stats),
        };
        if out.rerun {
            knowledge = out.knowledge;
            continue;
        }
        let verdict = decide(prog, opts, &out, &mut enc, &deadline, &mut stats);
        let s = enc.solver_ref().stats();
        stats.vars = s.vars;
        stats.clauses = s.clauses;
        stats.solves = s.solves;
        stats.sat_time = s.solve_time;
        stats.total_time = start.elapsed();
        return Outcome { verdict, stats };
    }
    Outcome::unknown(
        "unsupported: pointers to objects made by threads executed later".into(),
        stats,
    )
}

/// A first run of symbolic execution on a solver that keeps nothing: which objects the
/// program makes and which are private to one thread. Pointers read from memory may designate
/// objects made by threads executed later, and private objects need no events.
pub(crate) fn learn(prog: &Program, opts: &EngineOptions) -> Result<Knowledge, String> {
    let mut null = NullSolver::default();
    let mut enc = Encoder::new(&mut null);
    match symex::run(prog, &opts.symex, &mut enc, &Knowledge::default()) {
        Ok(out) => Ok(out.knowledge),
        Err(e) => Err(e.to_string()),
    }
}

fn decide(
    prog: &Program,
    opts: &EngineOptions,
    out: &SymexOutput,
    enc: &mut Encoder,
    deadline: &Deadline,
    stats: &mut EngineStats,
) -> Verdict {
    let eq = &out.equation;
    stats.events = eq.events.len();
    stats.threads = out.threads.len();
    let po = match ProgramOrder::unconditional(eq) {
        Ok(p) => p,
        Err(e) => return Verdict::Unknown(format!("unsupported: {e}")),
    };
    let links = match encode_links(eq, &po, enc) {
        Ok(l) => l,
        Err(e) => return Verdict::Unknown(format!("unsupported: {e}")),
    };
    stats.zeta_clauses = links.size().clauses;
    let xi = match ScheduleEncoding::encode(eq, &po, &links, enc, LiteralMode::Shared) {
        Ok(x) => x,
        Err(e) => return Verdict::Unknown(format!("unsupported: {e}")),
    };
    stats.xi_clauses = xi.size().clauses;

    let checks = Checks::new(out, enc);
    match solve(enc, &[checks.err, !checks.unsupported], deadline) {
        SolveResult::Sat => {
            let failed = out
                .property_checks()
                .find(|c| enc.value(c.lit))
                .expect("a property literal holds in the model")
                .clone();
            let order = xi.order(eq, enc);
            let trace = Trace::build(prog, out, enc, &order, &failed);
            return Verdict::False { trace };
        }
        SolveResult::Interrupted => return Verdict::Unknown("timeout".into()),
        SolveResult::Unsat => {}
    }
    match solve(enc, &[checks.other], deadline) {
        SolveResult::Sat => {
            let c = out
                .checks
                .iter()
                .find(|c| !matches!(c.kind, CheckKind::Property(_)) && enc.value(c.lit))
                .expect("a check literal holds in the model");
            Verdict::Unknown(check_reason(prog, &c.kind, c.loc))
        }
        SolveResult::Interrupted => Verdict::Unknown("timeout".into()),
        SolveResult::Unsat => Verdict::True {
            complete: opts.symex.unwinding_assertions,
        },
    }
}

/// One solve under `assume`, within the deadline.
pub(crate) fn solve(enc: &mut Encoder, assume: &[Lit], deadline: &Deadline) -> SolveResult {
    if assume.iter().any(|&l| enc.const_value(l) == Some(false)) {
        return SolveResult::Unsat;
    }
    if deadline.passed() {
        return SolveResult::Interrupted;
    }
    // Every back end enforces a time budget; only conflict budgets may be refused.
    let _ = enc.solver().set_budget(Budget {
        time: deadline.left(),
        conflicts: None,
    });
    enc.solver().solve(assume)
}
