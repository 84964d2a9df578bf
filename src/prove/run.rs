//! The prover as the pipeline runs it: templates, the analyser, then the checker; TRUE only
//! when the checker accepts the analyser's certificate.

use std::time::{Duration, Instant};

use super::check::{self, CheckStats};
use super::{analyze, templates, Certificate, Templates};
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

/// Tries to prove `prog` correct within `timeout`; `Err` says why no proof was found.
pub fn prove(
    prog: &Program,
    sharing: &Sharing,
    timeout: Option<Duration>,
) -> Result<Proof, String> {
    let start = Instant::now();
    let base = templates::build(prog, sharing).map_err(|g| g.to_string())?;
    let mut ts = base.clone();
    let cert = analyze::analyze(&mut ts).map_err(|g| g.to_string())?;
    let first = match check::check(&ts, &cert, timeout) {
        Ok(stats) => {
            return Ok(Proof {
                method: cert.method.clone(),
                templates: ts,
                certificate: cert,
                stats,
            })
        }
        Err(f) => f,
    };
    // A rejected certificate (not a timeout): try again with phase ghosts for the locks, a
    // finer and costlier analysis (see `analyze::phases`). Either certificate is checked in
    // full; the first failure is reported when the second attempt has nothing to offer.
    if first.obligation.is_none() {
        return Err(first.to_string());
    }
    let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
    if left.is_some_and(|l| l.is_zero()) {
        return Err(first.to_string());
    }
    let mut ts = base;
    let Ok(cert) = analyze::analyze_phased(&mut ts, analyze::Sabotage::default()) else {
        return Err(first.to_string());
    };
    let stats = check::check(&ts, &cert, left).map_err(|f| f.to_string())?;
    Ok(Proof {
        method: cert.method.clone(),
        templates: ts,
        certificate: cert,
        stats,
    })
}
