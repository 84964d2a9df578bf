//! How the SAT engines turn a property's checks into solves, and what the solves establish.
//!
//! A counterexample is real only if it reaches a property violation without meeting an
//! unsupported construct anywhere (a value read through an unresolved pointer is arbitrary),
//! so FALSE needs a model of `err ∧ ¬unsupported`. TRUE needs that no execution reaches an
//! error, and that none reaches a *blocking* check (a loop past its bound, recursion past it,
//! an unsupported construct); an error together with an invalid read or an approximated
//! construct makes TRUE an UNKNOWN too (the error may hang on the arbitrary value). The
//! question is the same in the engines that solve once per question (the default and the
//! monolithic one; `cegar` asks the same two between its refinements); [`ask`] asks it.

use solver_glue::{Lit, SolveResult};

use super::{check_reason, solve, Deadline};
use crate::ir::Program;
use crate::symex::{Check, CheckKind, SymexOutput};
use crate::verdict::UnknownReason;

/// The disjunctions of the checks an engine asks about (module doc).
pub struct Checks {
    /// Some error (of the property checked) is reached.
    pub err: Lit,
    /// Some unsupported, approximated or invalid-read check is reached: a model with it is
    /// no counterexample.
    pub unsupported: Lit,
    /// Some blocking check is reached (a loop or recursion past its bound, an unsupported
    /// construct), or an error together with an invalid read or an approximated construct:
    /// everything that makes TRUE an UNKNOWN once `err ∧ ¬unsupported` is impossible.
    pub other: Lit,
}

impl Checks {
    /// The checks of unreach-call: the errors are the property checks (assertions,
    /// `reach_error`).
    pub fn new(out: &SymexOutput, enc: &mut encoder::Encoder) -> Checks {
        let props: Vec<Lit> = out.property_checks().map(|c| c.lit).collect();
        Checks::for_errors(out, enc, &props)
    }

    /// The checks with `props` as the errors (another property's violations, e.g. data
    /// races); the property checks of symbolic execution are then none.
    pub fn for_errors(out: &SymexOutput, enc: &mut encoder::Encoder, props: &[Lit]) -> Checks {
        let lits = |f: &dyn Fn(&CheckKind) -> bool| -> Vec<Lit> {
            out.checks
                .iter()
                .filter(|c| f(&c.kind))
                .map(|c| c.lit)
                .collect()
        };
        let approximated =
            |k: &CheckKind| matches!(k, CheckKind::InvalidRead | CheckKind::Approximate(_));
        let unsupp = lits(&|k| matches!(k, CheckKind::Unsupported(_)) || approximated(k));
        let approximations = lits(&approximated);
        let mut others = lits(&|k| !k.is_error() && !approximated(k));
        // An invalid read gives an arbitrary value, an over-approximation, and so does an
        // approximated construct (`CheckKind::Approximate`): it blocks a TRUE only in an
        // execution that also reaches an error (the error may hang on that value).
        let err = enc.or_all(props);
        let any_approximated = enc.or_all(&approximations);
        others.push(enc.and(err, any_approximated));
        Checks {
            err,
            unsupported: enc.or_all(&unsupp),
            other: enc.or_all(&others),
        }
    }
}

/// What [`ask`] established.
#[derive(Debug)]
pub(crate) enum Answer {
    /// The solver's current model reaches an error and no unsupported check: a
    /// counterexample, to be read off the solver before it solves again.
    Violation,
    /// No execution within the bounds reaches an error or a blocking check.
    Holds,
    /// Neither: why (a blocking check, an error only with an approximation, the deadline).
    Unknown(UnknownReason),
}

/// Decides the checks: first `err ∧ ¬unsupported` (a model is the counterexample), then,
/// when that is impossible, `other` (a model makes TRUE an UNKNOWN, naming its blocking check;
/// none is TRUE). The deadline's interruption is UNKNOWN (time-out) at either solve.
///
/// Two other orders were measured on the deep-bound set (`yogar-bench depth`) and lost, both
/// through CaDiCaL's search on the FALSE tasks, which changes a lot with the assumptions:
/// - one solve of `err ∨ other`: workstealqueue_mutex-2 at 9 went from 44,569 conflicts to
///   28,461, but bounded_buffer at 5 from 13,907 to 50,298 and triangular-longer-2 at 11
///   from 35,808 to 56,065;
/// - `err` alone first, then only the blocking checks (`other` without `err ∧ A`) if that is
///   impossible (`err ∧ A` is then impossible too): bounded_buffer 40,866 and triangular-longer-2 56,065, and nothing saved on
///   workstealqueue (44,650), whose second solve refutes its invalid *writes* (blocking,
///   unsupported), not an error with an invalid read.
pub(crate) fn ask(
    prog: &Program,
    out: &SymexOutput,
    enc: &mut encoder::Encoder,
    checks: &Checks,
    deadline: &Deadline,
) -> Answer {
    let timeout = || Answer::Unknown(UnknownReason::Timeout);
    match solve(enc, &[checks.err, !checks.unsupported], deadline) {
        SolveResult::Sat => Answer::Violation,
        SolveResult::Interrupted => timeout(),
        SolveResult::Unsat => match solve(enc, &[checks.other], deadline) {
            SolveResult::Sat => {
                let c = blocking_check(out, |l| enc.value(l));
                Answer::Unknown(check_reason(prog, &c.kind, c.loc))
            }
            SolveResult::Unsat => Answer::Holds,
            SolveResult::Interrupted => timeout(),
        },
    }
}

/// The check that makes a model of [`Checks::other`] an UNKNOWN (`holds`: its value in the
/// model): a loop or recursion bound when one fails in it, since a deeper bound may then decide
/// (under `--unwind auto`), else the first other check that fails.
pub(crate) fn blocking_check(out: &SymexOutput, holds: impl Fn(Lit) -> bool) -> &Check {
    let failing = || {
        out.checks
            .iter()
            .filter(|c| !c.kind.is_error() && holds(c.lit))
    };
    failing()
        .find(|c| matches!(c.kind, CheckKind::Unwind { .. } | CheckKind::Recursion(_)))
        .or_else(|| failing().next())
        .expect("a check literal holds in the model")
}
