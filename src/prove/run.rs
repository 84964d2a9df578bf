//! The prover as the pipeline runs it: templates, the analyser, then the checker; TRUE only
//! when the checker accepts the analyser's certificate. When the checker rejects the plain
//! analysis's certificate, the analysis runs again with private keys
//! ([`super::analyze::private_keys`]), in what is left of the time: more precise, but on
//! some programs with many more partitions (and checks), so it is not the first attempt.

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
    let first = attempt(prog, sharing, timeout, false);
    let Err(Retry::Rejected(why)) = first else {
        return first.map_err(|r| r.to_string());
    };
    let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
    if left.is_some_and(|l| l.is_zero()) {
        return Err(why);
    }
    attempt(prog, sharing, left, true).map_err(|r| match r {
        Retry::Rejected(w2) => format!("{why}; with private keys: {w2}"),
        Retry::Final(w2) => format!("{why}; with private keys: {w2}"),
    })
}

/// Why an attempt found no proof: the checker rejected the certificate (another analysis
/// may do better), or anything else.
enum Retry {
    Rejected(String),
    Final(String),
}

impl std::fmt::Display for Retry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Retry::Rejected(w) | Retry::Final(w) => write!(f, "{w}"),
        }
    }
}

fn attempt(
    prog: &Program,
    sharing: &Sharing,
    timeout: Option<Duration>,
    private: bool,
) -> Result<Proof, Retry> {
    let mut ts = templates::build(prog, sharing).map_err(|g| Retry::Final(g.to_string()))?;
    let cert = if private {
        analyze::analyze_private(&mut ts)
    } else {
        analyze::analyze(&mut ts)
    }
    .map_err(|g| Retry::Final(g.to_string()))?;
    let stats = check::check(&ts, &cert, timeout).map_err(|f| {
        if f.obligation.is_some() {
            Retry::Rejected(f.to_string())
        } else {
            Retry::Final(f.to_string())
        }
    })?;
    Ok(Proof {
        method: cert.method.clone(),
        templates: ts,
        certificate: cert,
        stats,
    })
}
