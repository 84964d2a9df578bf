//! The prover as the pipeline runs it: templates, the analyser, then the checker; TRUE only
//! when the checker accepts the analyser's certificate.
//!
//! The analyses form a ladder: the plain one first, then, each time the checker rejects a
//! certificate (not a timeout), a finer and costlier one in what is left of the time — with
//! phase ghosts for the locks ([`analyze::analyze_phased`]), then with private keys
//! ([`analyze::private_keys`]). The counting rung ([`analyze::counters`], a Houdini search
//! that asks the checker for failed facts round after round) is a stage of its own
//! ([`prove_counting`]): it can run until its whole share is spent, so inside `--unwind
//! auto` it comes last, after the stateful search, with its own share of the time
//! (`pipeline::deepen`); `--engine prove` runs both stages in turn ([`prove`]). Every
//! certificate is checked in full; the first rejection is reported when no later attempt
//! proves the program.

use std::time::Duration;

use super::check::{self, CheckStats};
use super::{analyze, templates, Certificate, GiveUp, Templates};
use crate::budget::Budget;
use crate::ir::Program;
use crate::sharing::Sharing;

/// A checked proof.
#[derive(Clone, Debug)]
pub struct Proof {
    /// How the invariants were found (the verdict line's `proved by:`).
    pub method: String,
    pub templates: Templates,
    pub certificate: Certificate,
    pub stats: CheckStats,
}

/// Why a stage found no proof.
#[derive(Clone, Debug)]
pub struct NoProof {
    /// The first rejection or give-up, for the user.
    pub reason: String,
    /// The stage ended because its time did (a later stage or a larger share may still
    /// prove the program); otherwise every rung gave up or was rejected, and running the
    /// stage again gives the same answer.
    pub timed_out: bool,
    /// The ladder's rung a later attempt should start from: the rung that timed out, or the
    /// one after the last rejected; [`LADDER_RUNGS`] when nothing is left to try (templates
    /// or the plain analysis gave up, which no finer rung mends).
    pub next_rung: usize,
}

/// How many rungs the first stage has.
pub const LADDER_RUNGS: usize = LADDER.len();

/// The rungs cheap enough to try before bound 2 (`pipeline::deepen`): the plain and the
/// phased analysis. The private-key analysis is left out: it runs unbounded before its check,
/// and a trial whose check then times out would pay for it twice.
pub const QUICK_RUNGS: usize = 2;

/// One analysis of the ladder.
type Analysis = fn(&mut Templates) -> Result<Certificate, GiveUp>;

/// The analyses of the first stage, in the order they are tried.
const LADDER: [Analysis; 3] = [
    analyze::analyze,
    |ts| analyze::analyze_phased(ts, analyze::Sabotage::default()),
    analyze::analyze_private,
];

/// Tries to prove `prog` correct within `timeout` (`--engine prove`): the ladder, then the
/// counting rung in what is left; `Err` says why no proof was found.
pub fn prove(
    prog: &Program,
    sharing: &Sharing,
    timeout: Option<Duration>,
) -> Result<Proof, String> {
    let budget = Budget::wall(timeout);
    let first = match prove_ladder(prog, sharing, &budget, 0..LADDER_RUNGS) {
        Ok(p) => return Ok(p),
        Err(e) if e.timed_out || budget.spent() => return Err(e.reason),
        Err(e) => e.reason,
    };
    prove_counting(prog, sharing, &budget).map_err(|_| first)
}

/// The ladder's rungs `rungs` (of the plain, phased and private-key ones) within `budget`:
/// each rung gets what is left of it, and a rung whose check times out ends the stage. Every
/// rung is deterministic, so a rung rejected once needs no second try, and a later attempt
/// may start at [`NoProof::next_rung`].
pub fn prove_ladder(
    prog: &Program,
    sharing: &Sharing,
    budget: &Budget,
    rungs: std::ops::Range<usize>,
) -> Result<Proof, NoProof> {
    let base = templates::build(prog, sharing).map_err(|g| NoProof {
        reason: g.to_string(),
        timed_out: false,
        next_rung: LADDER_RUNGS,
    })?;
    let end = rungs.end.min(LADDER_RUNGS);
    let mut first: Option<String> = None;
    for (n, analysis) in LADDER.iter().enumerate().take(end).skip(rungs.start) {
        if n > rungs.start && budget.spent() {
            return Err(NoProof {
                reason: first.unwrap_or_else(|| "timeout".into()),
                timed_out: true,
                next_rung: n,
            });
        }
        let mut ts = base.clone();
        let cert = match analysis(&mut ts) {
            Ok(c) => c,
            // The first analysis's reason is the answer; a later one that finds nothing
            // (no phase sites, say) leaves the ladder's next rung to try.
            Err(g) if n == 0 => {
                return Err(NoProof {
                    reason: g.to_string(),
                    timed_out: false,
                    next_rung: LADDER_RUNGS,
                })
            }
            Err(_) => continue,
        };
        match check_within(&ts, &cert, budget) {
            Ok(stats) => return Ok(proof(ts, cert, stats)),
            Err(f) => {
                // Only a timeout ends the ladder: a malformed certificate or verification
                // conditions that could not be built are a rejection, and the next rung
                // may still prove the program.
                let timeout = f.is_timeout();
                first.get_or_insert_with(|| f.to_string());
                if timeout {
                    return Err(NoProof {
                        reason: first.unwrap_or_default(),
                        timed_out: true,
                        next_rung: n,
                    });
                }
            }
        }
    }
    Err(NoProof {
        reason: first.unwrap_or_else(|| "no certificate".into()),
        timed_out: false,
        next_rung: end,
    })
}

/// The counting rung within `budget`: counter ghosts found by a Houdini search, then the
/// full check of the certificate it leaves.
pub fn prove_counting(
    prog: &Program,
    sharing: &Sharing,
    budget: &Budget,
) -> Result<Proof, NoProof> {
    let no = |reason: String| NoProof {
        reason,
        timed_out: budget.spent(),
        next_rung: LADDER_RUNGS,
    };
    let mut ts = templates::build(prog, sharing).map_err(|g| no(g.to_string()))?;
    let cert = analyze::counters::analyze_counting_within(&mut ts, budget)
        .map_err(|g| no(g.to_string()))?;
    match check_within(&ts, &cert, budget) {
        Ok(stats) => Ok(proof(ts, cert, stats)),
        Err(f) => Err(no(f.to_string())),
    }
}

/// The full check of `cert` within `budget`. The checker's deadline is wall-clock time; when
/// it passes before a CPU budget is spent (the machine got busier than the rate the budget
/// converted at), the check starts again with what is left.
fn check_within(
    ts: &Templates,
    cert: &Certificate,
    budget: &Budget,
) -> Result<CheckStats, check::CheckFailure> {
    loop {
        match check::check(ts, cert, budget.left()) {
            Err(f) if f.is_timeout() && !budget.spent() => continue,
            r => return r,
        }
    }
}

fn proof(templates: Templates, certificate: Certificate, stats: CheckStats) -> Proof {
    Proof {
        method: certificate.method.clone(),
        templates,
        certificate,
        stats,
    }
}
