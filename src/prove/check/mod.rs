//! The certificate checker: the trust base of every proof. It decides the five checks of the
//! proof system (see the module doc of `prove`) bit-precisely, by compiling them into one
//! *sequential verification-condition program* ([`vc`]) and deciding that with the bounded
//! machinery (symbolic execution with unwinding assertions on, the equation's formula, and one
//! incremental SAT solve per check literal): the certificate passes when no assertion of the VC program can
//! fail and no other check of symbolic execution (unwinding, unsupported construct, invalid
//! memory access, over-approximation) can be reached. Any such check counts as a failure:
//! never as a pass.
//!
//! Every check is one branch of a nondet switch in the VC program's `main`; the checks go in
//! chunks of [`CHUNK`], one symbolic execution and one formula per chunk. A
//! branch havocs every variable it mentions (and, when it dereferences a pointer, every
//! variable whose address the VC program takes), establishes the pre-invariants, executes
//! the step and asserts the post-invariant. A variable the branch does not mention is read by
//! nothing in it, so its value does not matter.
//!
//! Which checks are left out, and why that is sound:
//! - a check whose pre-invariant is `unreachable` (false) holds vacuously;
//! - a stability check where the interfering step writes (syntactically, no write through a
//!   pointer, lock owners and ghost updates included) no variable the invariant reads:
//!   the invariant's facts read only the variables they name (facts that read memory through
//!   pointers are refused), so it keeps its value;
//! - a stability check of `(t, l)` against a step when the same step was already checked
//!   against `(t, l0)` with an invariant equal to `(t, l)`'s and counted by the same counter
//!   ghosts ([`same_invariant`]): a stability branch depends on the location only through
//!   its invariant and its counting facts (and the template's variables), so both checks
//!   compile to the same branch;
//! - stability of `(t, l)` against steps of the same instance: when `t` has one instance and
//!   `u = t`, the step is of the same instance (consecution covers it);
//! - main's locations and steps that no creation in main can precede (`main_mhp`): no other
//!   thread exists then (the proof system's MHP rule);
//! - locations inside atomic sections are not checked for stability (an instance there is
//!   not interrupted), and the instructions of a section do not interfere one by one: the
//!   whole section does, and so does every prefix of it that ends before an instruction that
//!   can block (an `assume`, a lock or a join), since symbolic execution lets other threads run
//!   after a thread blocked inside a section.

mod counters;
mod failures;
mod obligations;
mod vc;

#[cfg(test)]
mod tests;

pub use failures::{all_obligations, failing_facts, failing_facts_of, pre_locations};
pub use vc::FactAt;

use std::fmt;
use std::time::{Duration, Instant};

use cranelift_entity::EntityRef;

use super::{Certificate, Fact, Invariant, PtrTarget, TemplateId, Templates};
use crate::engine::{self, EngineOptions, EngineStats};
use crate::ir::{ExprKind, InstrId, PlaceBase, VarId};
use crate::sharing::Sharing;

/// Checks per VC program (one solve each). One: the solves of a chunk all run on its whole
/// formula, whose other branches the solver explores too, so a solve's cost grows with the
/// chunk and a chunk's cost about quadratically; compiling and executing one small VC program
/// per check costs far less (measured on the pthread-ext targets: 43_NetBSD_sysmon_power,
/// 6085 checks, over 60 s CPU with chunks of 400, 23.7 s with 50, 9.6 s with 10, 7.6 s with 1;
/// 41_FreeBSD_abd_kbd 32.6 s with 400, 1.8 s with 1; the phase-ghost proof of 33_double_lock_p1
/// 51 s with 400, 5 s with 16, 1.6 s with 1).
pub const CHUNK: usize = 1;

/// The unwinding bound for loops inside atomic sections (the only loops a VC program has);
/// a loop that may run longer fails its unwinding assertion and so the check.
pub const SECTION_UNWIND: u32 = 8;

/// The five checks of the proof system.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Initiation,
    Creation,
    Consecution,
    Stability,
    Safety,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Initiation => "initiation",
            Kind::Creation => "creation",
            Kind::Consecution => "consecution",
            Kind::Stability => "stability",
            Kind::Safety => "safety",
        }
    }
}

/// One check.
#[derive(Clone, Debug, PartialEq)]
pub struct Obligation {
    pub kind: Kind,
    /// The template and location whose invariant is established (or, for safety, used).
    pub template: TemplateId,
    pub at: InstrId,
    /// Consecution: the successor. Creation: the created template's entry.
    pub to: Option<InstrId>,
    /// Stability: the interfering template and the location of its step. Creation: the
    /// created template and the creating location.
    pub other: Option<(TemplateId, InstrId)>,
}

/// Why a certificate was rejected.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckFailure {
    /// The failed check, when one is to blame (none for a malformed certificate or a timeout).
    pub obligation: Option<Obligation>,
    /// `kind of TEMPLATE at FILE:LINE (location N)`, or what is wrong.
    pub what: String,
    pub detail: String,
}

impl CheckFailure {
    /// The checks ran out of time (no verdict on the certificate).
    pub fn is_timeout(&self) -> bool {
        self.obligation.is_none() && self.what == "timeout"
    }
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A timeout says nothing about the certificate: the user must not read it as a
        // rejection (a larger time limit may still prove the program).
        if self.is_timeout() {
            write!(f, "certificate check timed out: {}", self.detail)
        } else {
            write!(f, "certificate rejected: {}: {}", self.what, self.detail)
        }
    }
}

/// What checking cost.
#[derive(Clone, Debug, Default)]
pub struct CheckStats {
    pub checks: usize,
    /// Stability checks left out because the step writes nothing the invariant reads.
    pub skipped_stable: usize,
    /// Stability checks left out because the same check of an equal invariant is made.
    pub skipped_same: usize,
    pub chunks: usize,
    pub vc_instrs: usize,
    pub clauses: u64,
    /// Symbolic execution of the VC programs, and their solves.
    pub symex_time: Duration,
    pub solve_time: Duration,
    pub time: Duration,
}

/// Checks `cert` against `ts`; `Ok` only when every check holds.
pub fn check(
    ts: &Templates,
    cert: &Certificate,
    timeout: Option<Duration>,
) -> Result<CheckStats, CheckFailure> {
    let start = Instant::now();
    well_formed(ts, cert)?;
    let mut stats = CheckStats::default();
    let (obligations, skipped) = obligations::obligations(ts, cert);
    let all = obligations.len();
    let obligations = same_invariant(cert, obligations);
    stats.checks = obligations.len();
    stats.skipped_stable = skipped;
    stats.skipped_same = all - obligations.len();
    for chunk in obligations.chunks(CHUNK) {
        let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
        if left.is_some_and(|l| l.is_zero()) {
            return Err(timeout_failure());
        }
        let built = vc::build(ts, cert, chunk);
        stats.vc_instrs += built.program.funcs[built.main]
            .body
            .as_ref()
            .map_or(0, |b| b.instrs.len());
        stats.chunks += 1;
        decide(ts, &built, chunk, left, &mut stats)?;
    }
    stats.time = start.elapsed();
    Ok(stats)
}

/// `obligations` without the stability checks that repeat an earlier one: same template,
/// an equal invariant at the location (compared as written, fact by fact), the same counter
/// ghosts counting the location, the same interfering step. The stability branch of the VC
/// program reads the location only through its invariant ([`invariant`]) and through the
/// counting facts it assumes for the instance there ([`counters::counts`] of each counter);
/// the location itself names the check in messages. So the left-out check is the kept one.
fn same_invariant(cert: &Certificate, obligations: Vec<Obligation>) -> Vec<Obligation> {
    // Per template, the first location of each distinct invariant and counter membership
    // (compared with `==`, fact by fact: expressions have no hash), and each location's
    // representative once found.
    type Class<'c> = (&'c Invariant, Vec<bool>, InstrId);
    let mut classes: std::collections::HashMap<TemplateId, Vec<Class>> = Default::default();
    let mut reps: std::collections::HashMap<(TemplateId, InstrId), InstrId> = Default::default();
    let mut rep = |t: TemplateId, l: InstrId| -> InstrId {
        if let Some(&r) = reps.get(&(t, l)) {
            return r;
        }
        let inv = invariant(cert, t, l);
        let counted: Vec<bool> = cert
            .counters
            .iter()
            .map(|c| counters::counts(c, t, l))
            .collect();
        let class = classes.entry(t).or_default();
        let r = match class.iter().find(|(i, c, _)| *i == inv && *c == counted) {
            Some(&(_, _, r)) => r,
            None => {
                class.push((inv, counted, l));
                l
            }
        };
        reps.insert((t, l), r);
        r
    };
    let mut seen: std::collections::HashSet<(TemplateId, InstrId, TemplateId, InstrId)> =
        Default::default();
    obligations
        .into_iter()
        .filter(|o| match (o.kind, o.other) {
            (Kind::Stability, Some((u, s))) => {
                seen.insert((o.template, rep(o.template, o.at), u, s))
            }
            _ => true,
        })
        .collect()
}

fn timeout_failure() -> CheckFailure {
    CheckFailure {
        obligation: None,
        what: "timeout".into(),
        detail: "the checks did not finish in time".into(),
    }
}

/// Describes an obligation for a failure message.
pub fn describe(ts: &Templates, o: &Obligation) -> String {
    let name = |t: TemplateId| ts.program.funcs[ts.templates[t].entry].name.clone();
    let line = |t: TemplateId, l: InstrId| {
        let body = &ts.templates[t].body;
        body.instrs
            .get(l)
            .map_or("?".into(), |i| ts.program.loc_str(i.loc))
    };
    let mut s = format!(
        "{} of {} at {} (location {})",
        o.kind.name(),
        name(o.template),
        line(o.template, o.at),
        o.at.index()
    );
    if let Some(to) = o.to {
        s.push_str(&format!(" to location {}", to.index()));
    }
    if let Some((u, s2)) = o.other {
        s.push_str(&format!(
            ", against {} at {} (location {})",
            name(u),
            line(u, s2),
            s2.index()
        ));
    }
    s
}

/// Symbolic execution and one solve of a VC program: `Err` names the first failed check.
fn decide(
    ts: &Templates,
    built: &vc::Built,
    chunk: &[Obligation],
    timeout: Option<Duration>,
    stats: &mut CheckStats,
) -> Result<(), CheckFailure> {
    let prog = &built.program;
    let sharing = Sharing::analyse(prog);
    let mut opts = EngineOptions::with_unwind(SECTION_UNWIND);
    opts.symex.unwinding_assertions = true;
    opts.symex.spin_reduction = false;
    opts.timeout = timeout;
    opts.solver = solver_glue::DEFAULT_SOLVER.to_string();
    let mut es = EngineStats::default();
    let out =
        engine::symbolic_execution(prog, &sharing, &opts, &mut es).map_err(|why| CheckFailure {
            obligation: None,
            what: "verification conditions".into(),
            detail: format!("symbolic execution gave up: {why}"),
        })?;
    // One solve: can any check of the VC program fail?
    let mut failed: Option<Result<CheckFailure, ()>> = None;
    let outcome = engine::with_equation(&out, &opts, |enc, deadline, est| {
        if let Err(why) = engine::order_and_links(&out, enc, est, encoder::ValueEquality::Clauses) {
            failed = Some(Ok(CheckFailure {
                obligation: None,
                what: "verification conditions".into(),
                detail: why.to_string(),
            }));
            return engine::Verdict::Unknown(why);
        }
        // One solve per check literal: each refutes one branch's failure, which measured
        // far faster than one solve of their disjunction (the lock protocol test: 180
        // checks, 8.3 s in one solve).
        let mut result = solver_glue::SolveResult::Unsat;
        for c in &out.checks {
            result = engine::solve(enc, &[c.lit], deadline);
            if result != solver_glue::SolveResult::Unsat {
                break;
            }
        }
        match result {
            solver_glue::SolveResult::Unsat => {}
            solver_glue::SolveResult::Interrupted => failed = Some(Err(())),
            solver_glue::SolveResult::Sat => {
                let c = out
                    .checks
                    .iter()
                    .find(|c| enc.value(c.lit))
                    .expect("a check literal holds in the model");
                // The branch the model takes: the switch's choice is the first input.
                let branch = out
                    .nondets
                    .first()
                    .map(|n| enc.bv_value_u64(&n.value) as usize);
                let obligation = match &c.kind {
                    crate::symex::CheckKind::Property(p) => built.props.get(p).copied(),
                    _ => branch,
                }
                .and_then(|i| chunk.get(i).cloned());
                let detail = match &c.kind {
                    crate::symex::CheckKind::Property(p) => built
                        .reasons
                        .get(p)
                        .cloned()
                        .unwrap_or_else(|| "its assertion fails".into()),
                    k => format!(
                        "{} at {}",
                        engine::check_reason(prog, k, c.loc),
                        prog.loc_str(c.loc)
                    ),
                };
                failed = Some(Ok(CheckFailure {
                    what: obligation
                        .as_ref()
                        .map_or_else(|| "a check".into(), |o| describe(ts, o)),
                    obligation,
                    detail,
                }));
            }
        }
        engine::Verdict::True { complete: true }
    });
    stats.clauses += outcome.stats.clauses;
    stats.symex_time += es.symex_time;
    stats.solve_time += outcome.stats.sat_time;
    match failed {
        None => Ok(()),
        Some(Ok(f)) => Err(f),
        Some(Err(())) => Err(timeout_failure()),
    }
}

/// Refuses certificates the checks' argument does not cover: ghosts that are program
/// variables (an update would change the program), updates of lock owners or of variables
/// that are no ghosts, facts that read memory through pointers, facts of one template about
/// another template's private variables (which stand for every instance of that template),
/// and pointer targets that are another template's private variables.
fn well_formed(ts: &Templates, cert: &Certificate) -> Result<(), CheckFailure> {
    let bad = |detail: String| CheckFailure {
        obligation: None,
        what: "malformed certificate".into(),
        detail,
    };
    let mut owner_of: std::collections::HashMap<VarId, ()> = Default::default();
    for &o in ts.mutex_owners.values() {
        owner_of.insert(o, ());
    }
    // Thread-local variables are private to every template.
    let mut private_of: std::collections::HashMap<VarId, Vec<TemplateId>> = Default::default();
    for (t, tpl) in ts.templates.iter() {
        for &v in &tpl.locals {
            private_of.entry(v).or_default().push(t);
        }
    }
    let mentioned = program_vars(ts);
    for &g in &cert.ghosts {
        let v = ts
            .program
            .vars
            .get(g)
            .ok_or_else(|| bad(format!("ghost {g:?} unknown")))?;
        if !v.is_global() || v.thread_local || mentioned.contains(&g) || private_of.contains_key(&g)
        {
            return Err(bad(format!("ghost {} is a program variable", v.name)));
        }
        if owner_of.contains_key(&g) {
            return Err(bad(format!("ghost {} is a lock owner", v.name)));
        }
        // The type of `self`: a ghost holds 0 or some instance's `self` exactly.
        if *ts.program.types.get(v.ty)
            != (crate::ir::Type::Int {
                bits: 32,
                signed: false,
            })
        {
            return Err(bad(format!("ghost {} is not an unsigned int", v.name)));
        }
    }
    counters::well_formed(ts, cert, &mentioned, &private_of).map_err(bad)?;
    for u in &cert.updates {
        if !cert.ghosts.contains(&u.ghost) {
            return Err(bad(format!(
                "update of {}, which is no ghost",
                ts.program.vars[u.ghost].name
            )));
        }
        if ts.templates.get(u.template).is_none()
            || ts.templates[u.template].body.instrs.get(u.at).is_none()
        {
            return Err(bad("ghost update at an unknown location".into()));
        }
    }
    for (t, per) in cert.invariants.iter() {
        if ts.templates.get(t).is_none() {
            continue;
        }
        for (l, inv) in per.iter() {
            let at = || {
                format!(
                    "invariant of {} at location {}",
                    ts.program.funcs[ts.templates[t].entry].name,
                    l.index()
                )
            };
            // A fact names globals (ghosts and lock owners included) and `t`'s own private
            // variables only: another template's stand for all its instances, and a local of
            // the original program that no template uses is none of the program's state.
            let foreign = |v: VarId| {
                let d = &ts.program.vars[v];
                match private_of.get(&v) {
                    Some(owners) => !owners.contains(&t),
                    None => !d.is_global() || d.thread_local,
                }
            };
            for f in &inv.facts {
                match f {
                    Fact::Holds(e) => {
                        let mut deref = false;
                        let mut vars = Vec::new();
                        e.walk(&mut |x| {
                            if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &x.kind {
                                match &p.base {
                                    PlaceBase::Deref(_) => deref = true,
                                    PlaceBase::Var(v) => vars.push(*v),
                                }
                            }
                        });
                        if deref {
                            return Err(bad(format!("{} reads through a pointer", at())));
                        }
                        if !ts.program.types.is_scalar(e.ty) {
                            return Err(bad(format!("{} has a fact that is no scalar", at())));
                        }
                        if let Some(&v) = vars.iter().find(|&&v| foreign(v)) {
                            return Err(bad(format!(
                                "{} names {}, private to another template",
                                at(),
                                ts.program.vars[v].name
                            )));
                        }
                    }
                    Fact::PointsTo { var, targets } => {
                        let mut vs = vec![*var];
                        for tg in targets {
                            if let PtrTarget::Var(v) = tg {
                                vs.push(*v);
                            }
                        }
                        if let Some(&v) = vs.iter().find(|&&v| foreign(v)) {
                            return Err(bad(format!(
                                "{} names {}, private to another template",
                                at(),
                                ts.program.vars[v].name
                            )));
                        }
                        if targets.is_empty() {
                            return Err(bad(format!("{} has an empty points-to fact", at())));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Every variable the templates' code mentions.
fn program_vars(ts: &Templates) -> std::collections::HashSet<VarId> {
    let mut out = Vec::new();
    for t in ts.templates.values() {
        for i in t.body.instrs.values() {
            super::rename::instr_vars(&i.kind, &mut out);
        }
    }
    for f in [ts.program.init, ts.program.tls_init] {
        if let Some(b) = &ts.program.funcs[f].body {
            for i in b.instrs.values() {
                super::rename::instr_vars(&i.kind, &mut out);
            }
        }
    }
    out.into_iter().collect()
}

/// The invariant of `t` at `l` (true when the certificate gives none).
pub(crate) fn invariant(cert: &Certificate, t: TemplateId, l: InstrId) -> &Invariant {
    static TRUE: Invariant = Invariant {
        unreachable: false,
        facts: Vec::new(),
    };
    cert.invariants
        .get(t)
        .and_then(|per| per.get(l))
        .unwrap_or(&TRUE)
}
