//! The prover as the pipeline runs it: templates, the analyser, then the checker; TRUE only
//! when the checker accepts the analyser's certificate.

use std::time::Duration;

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
    let ts = templates::build(prog, sharing).map_err(|g| g.to_string())?;
    let cert = analyze::analyze(&ts).map_err(|g| g.to_string())?;
    let stats = check::check(&ts, &cert, timeout).map_err(|f| f.to_string())?;
    Ok(Proof {
        method: cert.method.clone(),
        templates: ts,
        certificate: cert,
        stats,
    })
}
