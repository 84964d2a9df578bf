//! Every failed fact of a certificate, not only the first: what an analysis that weakens
//! its candidate invariants until they hold (Houdini) needs from the checker. Nothing here
//! decides a proof: the certificate that comes out of such a search is checked by
//! [`super::check`] like any other.

use std::time::{Duration, Instant};

use super::vc::{self, FactAt};
use super::{
    describe, obligations, timeout_failure, well_formed, CheckFailure, Kind, Obligation,
    SECTION_UNWIND,
};
use crate::engine::{self, EngineOptions, EngineStats};
use crate::ir::InstrId;
use crate::prove::{Certificate, TemplateId, Templates};
use crate::sharing::Sharing;

/// Every check of `cert` (after its well-formedness).
pub fn all_obligations(
    ts: &Templates,
    cert: &Certificate,
) -> Result<Vec<Obligation>, CheckFailure> {
    well_formed(ts, cert)?;
    Ok(obligations::obligations(ts, cert).0)
}

/// The locations whose invariants a check assumes.
pub fn pre_locations(o: &Obligation) -> Vec<(TemplateId, InstrId)> {
    match o.kind {
        Kind::Initiation => vec![],
        Kind::Consecution | Kind::Safety => vec![(o.template, o.at)],
        Kind::Creation => o.other.into_iter().collect(),
        Kind::Stability => std::iter::once((o.template, o.at)).chain(o.other).collect(),
    }
}

/// The facts (and `unreachable` flags) of `cert` that the checks fail to establish; `Err`
/// when a check fails for another reason (a safety check, an unwinding or unsupported
/// construct in a VC program), when the certificate is malformed, or on timeout.
pub fn failing_facts(
    ts: &Templates,
    cert: &Certificate,
    timeout: Option<Duration>,
) -> Result<Vec<FactAt>, CheckFailure> {
    let start = Instant::now();
    let mut out = Vec::new();
    for o in &all_obligations(ts, cert)? {
        let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
        out.extend(failing_facts_of(ts, cert, o, left)?);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// [`failing_facts`] of one check (of a well-formed certificate).
pub fn failing_facts_of(
    ts: &Templates,
    cert: &Certificate,
    o: &Obligation,
    timeout: Option<Duration>,
) -> Result<Vec<FactAt>, CheckFailure> {
    let mut out = Vec::new();
    {
        let left = timeout;
        if left.is_some_and(|l| l.is_zero()) {
            return Err(timeout_failure());
        }
        let built = vc::build(ts, cert, std::slice::from_ref(o));
        let prog = &built.program;
        let sharing = Sharing::analyse(prog);
        let mut opts = EngineOptions::with_unwind(SECTION_UNWIND);
        opts.symex.unwinding_assertions = true;
        opts.symex.spin_reduction = false;
        opts.timeout = left;
        opts.solver = solver_glue::DEFAULT_SOLVER.to_string();
        let mut es = EngineStats::default();
        let other = |detail: String| CheckFailure {
            obligation: Some(o.clone()),
            what: describe(ts, o),
            detail,
        };
        let symex = engine::symbolic_execution(prog, &sharing, &opts, &mut es)
            .map_err(|why| other(format!("symbolic execution gave up: {why}")))?;
        let mut result: Result<(), CheckFailure> = Ok(());
        engine::with_equation(&symex, &opts, |enc, deadline, est| {
            if let Err(why) =
                engine::order_and_links(&symex, enc, est, encoder::ValueEquality::Clauses)
            {
                result = Err(other(why.to_string()));
                return engine::Verdict::Unknown(why);
            }
            for c in &symex.checks {
                match engine::solve(enc, &[c.lit], deadline) {
                    solver_glue::SolveResult::Unsat => {}
                    solver_glue::SolveResult::Interrupted => {
                        result = Err(timeout_failure());
                        break;
                    }
                    solver_glue::SolveResult::Sat => {
                        let fact = match &c.kind {
                            crate::symex::CheckKind::Property(p) => built.fact_props.get(p),
                            _ => None,
                        };
                        match fact {
                            Some(f) => out.push(*f),
                            None => {
                                let detail = match &c.kind {
                                    crate::symex::CheckKind::Property(p) => built
                                        .reasons
                                        .get(p)
                                        .cloned()
                                        .unwrap_or_else(|| "its assertion fails".into()),
                                    k => engine::check_reason(prog, k, c.loc).to_string(),
                                };
                                result = Err(other(detail));
                                break;
                            }
                        }
                    }
                }
            }
            engine::Verdict::True { complete: true }
        });
        result?;
    }
    out.sort();
    out.dedup();
    Ok(out)
}
