//! The answer of a verification and why there is none: [`Verdict`] and [`UnknownReason`].
//!
//! The last line of `yogar verify` is the [`Display`](fmt::Display) of a verdict: `TRUE`,
//! `FALSE(<violation>)` (`unreach-call`, `no-data-race`, `valid-deref`, `valid-free`,
//! `valid-memtrack`, `no-overflow`: see [`Violation`]) or `UNKNOWN (<reason>)`. Scripts read that line (the bench, BenchExec's
//! tool-info module `sv-comp/tools/yogar.py`), so its text is an interface: [`VerdictLine`]
//! reads it back, and its tests check that every reason survives the round trip.

use std::fmt;

use crate::frontend::FrontendError;
use crate::trace::Trace;
pub use crate::violation::Violation;

impl From<FrontendError> for UnknownReason {
    /// A refusal of the frontend as a reason (bodyless calls keep their own variant).
    fn from(e: FrontendError) -> Self {
        match e {
            FrontendError::BodylessCall { name, at } => UnknownReason::BodylessCall { name, at },
            e => UnknownReason::Frontend(e),
        }
    }
}

/// The answer.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No reachable error within the bound. `complete` is false when unwinding assertions were
    /// turned into assumptions (TRUE then holds only within the bound).
    True { complete: bool },
    /// An error is reachable: the interleaving reaching it, which names the violation
    /// (`Trace::violation`).
    False { trace: Trace },
    /// No verdict, and why.
    Unknown(UnknownReason),
}

/// Why there is no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// A construct that cannot be modelled exactly was reached: `unsupported: WHAT`, followed
    /// by ` at FILE:LINE` where it is known.
    Unsupported { what: String, at: Option<String> },
    /// The frontend refused a construct outside the supported C subset (its own line,
    /// `FILE:LINE: unsupported: WHAT`).
    Frontend(FrontendError),
    /// A reachable function without a body receives a pointer and is not known to only read
    /// through it: what it writes cannot be modelled.
    BodylessCall { name: String, at: String },
    /// The time limit passed.
    Timeout,
    /// The memory limit (`--memlimit`) was reached.
    OutOfMemory,
    /// A loop or a recursion may run past the unwind bound (unwinding assertion).
    BoundTooSmall { what: Unwound, at: String },
    /// The property is not one the engine checks.
    UnsupportedProperty,
    /// Something that must not happen (a bug in yogar), reported rather than guessed.
    Internal(String),
    /// An explorer ran the number of executions it was allowed (`--max-executions`).
    ExecutionBudget { runs: u64 },
    /// The stateful search stored the number of states it was allowed (`--max-states`).
    StateBudget { states: u64 },
    /// The memory model asked for (`--mm`) is not one the engine decides under.
    UnsupportedMemoryModel { model: String, engine: String },
    /// `--engine prove` found no checked proof (why: the program is outside the prover's
    /// model, no certificate was found, or the checker rejected it).
    Prover(String),
    /// The context-bounded search (`--engine cbs`), which looks for violations only, met
    /// none in the runs with at most this many preemptions.
    NoViolationFound { preemptions: u32 },
}

/// What runs past the unwind bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unwound {
    /// Loop number `index` (counted from 0) of function `func`: `--unwindset func.index:N`.
    Loop { func: String, index: u32 },
    /// Recursion of `func`.
    Recursion { func: String },
}

impl UnknownReason {
    /// An unsupported construct without a known place.
    pub fn unsupported(what: impl Into<String>) -> UnknownReason {
        UnknownReason::Unsupported {
            what: what.into(),
            at: None,
        }
    }

    /// The kind of reason, as scripts see it.
    pub fn class(&self) -> ReasonClass {
        match self {
            UnknownReason::Unsupported { .. }
            | UnknownReason::Frontend(_)
            | UnknownReason::BodylessCall { .. }
            | UnknownReason::UnsupportedMemoryModel { .. } => ReasonClass::Unsupported,
            UnknownReason::Timeout
            | UnknownReason::ExecutionBudget { .. }
            | UnknownReason::StateBudget { .. } => ReasonClass::Timeout,
            UnknownReason::OutOfMemory => ReasonClass::OutOfMemory,
            UnknownReason::BoundTooSmall { .. } => ReasonClass::BoundTooSmall,
            UnknownReason::UnsupportedProperty => ReasonClass::UnsupportedProperty,
            UnknownReason::Internal(_) => ReasonClass::Internal,
            UnknownReason::Prover(_) | UnknownReason::NoViolationFound { .. } => ReasonClass::Other,
        }
    }
}

impl fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownReason::Unsupported { what, at: None } => write!(f, "unsupported: {what}"),
            UnknownReason::Unsupported { what, at: Some(at) } => {
                write!(f, "unsupported: {what} at {at}")
            }
            UnknownReason::Frontend(e) => write!(f, "{e}"),
            UnknownReason::BodylessCall { name, at } => write!(
                f,
                "unsupported: call of {name}, which has no body and may write through its arguments at {at}"
            ),
            UnknownReason::Timeout => write!(f, "timeout"),
            UnknownReason::OutOfMemory => write!(f, "out of memory"),
            UnknownReason::BoundTooSmall { what, at } => match what {
                Unwound::Loop { func, index } => {
                    write!(f, "unwind bound too small: loop {func}.{index} at {at}")
                }
                Unwound::Recursion { func } => {
                    write!(f, "unwind bound too small: recursion of {func} at {at}")
                }
            },
            UnknownReason::UnsupportedProperty => write!(f, "unsupported property"),
            UnknownReason::Internal(why) => write!(f, "internal error: {why}"),
            UnknownReason::Prover(why) => write!(f, "prover: {why}"),
            UnknownReason::NoViolationFound { preemptions } => write!(
                f,
                "no violation in the runs with at most {preemptions} preemptions (the \
                 context-bounded search looks for violations only)"
            ),
            UnknownReason::ExecutionBudget { runs } => {
                write!(f, "execution budget exhausted ({runs} runs explored)")
            }
            UnknownReason::StateBudget { states } => {
                write!(f, "state budget exhausted ({states} states stored)")
            }
            UnknownReason::UnsupportedMemoryModel { model, engine } => {
                write!(f, "unsupported: memory model {model} with engine {engine}")
            }
        }
    }
}

impl Verdict {
    pub fn is_true(&self) -> bool {
        matches!(self, Verdict::True { .. })
    }
    pub fn is_false(&self) -> bool {
        matches!(self, Verdict::False { .. })
    }
    /// The reason of an UNKNOWN.
    pub fn unknown_reason(&self) -> Option<&UnknownReason> {
        match self {
            Verdict::Unknown(r) => Some(r),
            _ => None,
        }
    }
}

/// The verdict line: `TRUE`, `FALSE(<violation>)` or `UNKNOWN (<reason>)`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::True { .. } => write!(f, "TRUE"),
            Verdict::False { trace } => write!(f, "FALSE({})", trace.violation.name()),
            Verdict::Unknown(r) => write!(f, "UNKNOWN ({r})"),
        }
    }
}

/// The kinds of [`UnknownReason`], for tables and scripts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReasonClass {
    Unsupported,
    Timeout,
    OutOfMemory,
    BoundTooSmall,
    UnsupportedProperty,
    Internal,
    /// A reason this version does not write (another version's output).
    Other,
}

impl ReasonClass {
    /// A short label for tables.
    pub fn label(self) -> &'static str {
        match self {
            ReasonClass::Unsupported => "unsupported",
            ReasonClass::Timeout => "timeout",
            ReasonClass::OutOfMemory => "memory",
            ReasonClass::BoundTooSmall => "unwind",
            ReasonClass::UnsupportedProperty => "property",
            ReasonClass::Internal => "internal",
            ReasonClass::Other => "UNKNOWN",
        }
    }
}

/// A verdict line read back from `yogar verify`'s output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerdictLine {
    True,
    /// `FALSE(property)`.
    False(String),
    /// `UNKNOWN (reason)`: the reason's text and its class.
    Unknown {
        reason: String,
        class: ReasonClass,
    },
}

impl VerdictLine {
    /// Reads a verdict line; `None` for any other line.
    pub fn parse(line: &str) -> Option<VerdictLine> {
        let line = line.trim();
        if line == "TRUE" {
            return Some(VerdictLine::True);
        }
        if let Some(p) = line.strip_prefix("FALSE(") {
            return p
                .strip_suffix(')')
                .map(|p| VerdictLine::False(p.to_string()));
        }
        let reason = if line == "UNKNOWN" {
            ""
        } else {
            line.strip_prefix("UNKNOWN (")?.strip_suffix(')')?
        };
        Some(VerdictLine::Unknown {
            reason: reason.to_string(),
            class: classify(reason),
        })
    }

    /// The verdict line of an output: its last non-empty line, if that is one.
    pub fn of_output(stdout: &str) -> Option<VerdictLine> {
        let last = stdout.lines().rev().find(|l| !l.trim().is_empty())?;
        VerdictLine::parse(last)
    }
}

/// The class of a reason's text: the inverse of [`UnknownReason`]'s `Display` on its
/// distinguishing part. The frontend's lines start with the place (`FILE:LINE: unsupported:`).
fn classify(reason: &str) -> ReasonClass {
    match reason {
        "timeout" => ReasonClass::Timeout,
        "out of memory" => ReasonClass::OutOfMemory,
        "unsupported property" => ReasonClass::UnsupportedProperty,
        r if r.starts_with("unsupported: ") || r.contains(": unsupported: ") => {
            ReasonClass::Unsupported
        }
        r if r.starts_with("unwind bound too small: ") => ReasonClass::BoundTooSmall,
        r if r.starts_with("internal error: ") => ReasonClass::Internal,
        _ => ReasonClass::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons() -> Vec<UnknownReason> {
        vec![
            UnknownReason::unsupported("malloc of a size that is not constant"),
            UnknownReason::Unsupported {
                what: "invalid memory read (null, dangling or out of bounds)".into(),
                at: Some("t.c:12".into()),
            },
            UnknownReason::Frontend(FrontendError::Unsupported(
                "t.c:3: unsupported: floating point".into(),
            )),
            UnknownReason::Timeout,
            UnknownReason::OutOfMemory,
            UnknownReason::BoundTooSmall {
                what: Unwound::Loop {
                    func: "main".into(),
                    index: 0,
                },
                at: "t.c:7".into(),
            },
            UnknownReason::BoundTooSmall {
                what: Unwound::Recursion { func: "f".into() },
                at: "t.c:2".into(),
            },
            UnknownReason::UnsupportedProperty,
            UnknownReason::Internal("a refinement reason that does not hold".into()),
            UnknownReason::BodylessCall {
                name: "fill".into(),
                at: "t.c:9".into(),
            },
        ]
    }

    #[test]
    fn verdict_lines_are_the_interface_text() {
        let texts: Vec<String> = reasons()
            .into_iter()
            .map(|r| Verdict::Unknown(r).to_string())
            .collect();
        assert_eq!(
            texts,
            [
                "UNKNOWN (unsupported: malloc of a size that is not constant)",
                "UNKNOWN (unsupported: invalid memory read (null, dangling or out of bounds) at t.c:12)",
                "UNKNOWN (t.c:3: unsupported: floating point)",
                "UNKNOWN (timeout)",
                "UNKNOWN (out of memory)",
                "UNKNOWN (unwind bound too small: loop main.0 at t.c:7)",
                "UNKNOWN (unwind bound too small: recursion of f at t.c:2)",
                "UNKNOWN (unsupported property)",
                "UNKNOWN (internal error: a refinement reason that does not hold)",
                "UNKNOWN (unsupported: call of fill, which has no body and may write through its arguments at t.c:9)",
            ]
        );
        assert_eq!(Verdict::True { complete: false }.to_string(), "TRUE");
    }

    #[test]
    fn every_reason_reads_back_with_its_class() {
        for r in reasons() {
            let line = Verdict::Unknown(r.clone()).to_string();
            assert_eq!(
                VerdictLine::parse(&line),
                Some(VerdictLine::Unknown {
                    reason: r.to_string(),
                    class: r.class()
                }),
                "{line}"
            );
        }
        assert_eq!(VerdictLine::parse("TRUE"), Some(VerdictLine::True));
        assert_eq!(
            VerdictLine::parse(" FALSE(unreach-call) "),
            Some(VerdictLine::False("unreach-call".into()))
        );
        assert_eq!(
            VerdictLine::parse("UNKNOWN (something new)"),
            Some(VerdictLine::Unknown {
                reason: "something new".into(),
                class: ReasonClass::Other
            })
        );
        for v in Violation::ALL {
            let line = format!("FALSE({})", v.name());
            assert_eq!(
                VerdictLine::parse(&line),
                Some(VerdictLine::False(v.name().into()))
            );
            assert_eq!(Violation::from_name(v.name()), Some(v));
        }
        assert_eq!(VerdictLine::parse("unwind bound: 2"), None);
        assert_eq!(
            VerdictLine::of_output("refinements: 3\nFALSE(unreach-call)\n\n"),
            Some(VerdictLine::False("unreach-call".into()))
        );
        assert_eq!(VerdictLine::of_output("yogar: error\n"), None);
    }
}
