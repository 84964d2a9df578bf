//! The prover as the pipeline runs it: templates, the analyser, then the checker; TRUE only
//! when the checker accepts the analyser's certificate.
//!
//! The analyses form a ladder: the plain one first, then, each time the checker rejects a
//! certificate (not a timeout), a finer and costlier one in what is left of the time — with
//! phase ghosts for the locks ([`analyze::analyze_phased`]), then with private keys
//! ([`analyze::private_keys`]), and last with counter ghosts ([`analyze::counters`], which
//! asks the checker for failed facts round after round). Every certificate is checked in
//! full; the first rejection is reported when no later attempt proves the program.

use std::time::{Duration, Instant};

use super::check::{self, CheckStats};
use super::{analyze, templates, Certificate, GiveUp, Templates};
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

/// One analysis of the ladder.
type Analysis = fn(&mut Templates) -> Result<Certificate, GiveUp>;

/// The analyses, in the order they are tried.
const LADDER: [Analysis; 3] = [
    analyze::analyze,
    |ts| analyze::analyze_phased(ts, analyze::Sabotage::default()),
    analyze::analyze_private,
];

/// Tries to prove `prog` correct within `timeout`; `Err` says why no proof was found.
pub fn prove(
    prog: &Program,
    sharing: &Sharing,
    timeout: Option<Duration>,
) -> Result<Proof, String> {
    let start = Instant::now();
    let base = templates::build(prog, sharing).map_err(|g| g.to_string())?;
    let mut first: Option<String> = None;
    let mut timed_out = false;
    for (n, analysis) in LADDER.iter().enumerate() {
        let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
        if n > 0 && left.is_some_and(|l| l.is_zero()) {
            break;
        }
        let mut ts = base.clone();
        let cert = match analysis(&mut ts) {
            Ok(c) => c,
            // The first analysis's reason is the answer; a later one that finds nothing
            // (no phase sites, say) leaves the ladder's next rung to try.
            Err(g) if n == 0 => return Err(g.to_string()),
            Err(_) => continue,
        };
        match check::check(&ts, &cert, left) {
            Ok(stats) => {
                return Ok(Proof {
                    method: cert.method.clone(),
                    templates: ts,
                    certificate: cert,
                    stats,
                })
            }
            Err(f) => {
                let timeout = f.obligation.is_none();
                first.get_or_insert_with(|| f.to_string());
                if timeout {
                    timed_out = true;
                    break;
                }
            }
        }
    }
    let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
    if !timed_out && !left.is_some_and(|l| l.is_zero()) {
        let mut ts = base;
        let r = analyze::counters::analyze_counting(&mut ts, left);
        if let Ok(cert) = r {
            let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
            match check::check(&ts, &cert, left) {
                Ok(stats) => {
                    return Ok(Proof {
                        method: cert.method.clone(),
                        templates: ts,
                        certificate: cert,
                        stats,
                    })
                }
                Err(f) => {
                    first.get_or_insert_with(|| f.to_string());
                }
            }
        }
    }
    Err(first.unwrap_or_else(|| "no certificate".into()))
}
