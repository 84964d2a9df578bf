//! The three ways the frontend can refuse a program, each one readable line.

use std::fmt;

use crate::exit;

/// Why a program could not be turned into IR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontendError {
    /// Unreadable file or preprocessor failure.
    Input(String),
    /// Syntax error: `file:line:column: syntax error at 'text'`.
    Syntax(String),
    /// A construct the frontend cannot model exactly: `file:line: unsupported: what`.
    Unsupported(String),
    /// A program the C rules reject (type errors, unknown names): `file:line: error: what`.
    Invalid(String),
    /// A reachable call of a function without a body that receives a pointer (it may write
    /// through it, which the no-body policy, a nondet result and nothing written, cannot
    /// model): `file:line: unsupported: call of NAME, which has no body and may write through
    /// its arguments`.
    BodylessCall {
        name: String,
        /// `file:line` of the call.
        at: String,
    },
}

impl FrontendError {
    /// The exit code of `yogar parse` for this error (see `crate::exit`).
    pub fn exit_code(&self) -> u8 {
        match self {
            FrontendError::Input(_) | FrontendError::Syntax(_) | FrontendError::Invalid(_) => {
                exit::INPUT
            }
            FrontendError::Unsupported(_) | FrontendError::BodylessCall { .. } => exit::UNKNOWN,
        }
    }

    /// True for constructs outside the supported C subset (a verifier answers UNKNOWN).
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            FrontendError::Unsupported(_) | FrontendError::BodylessCall { .. }
        )
    }
}

impl fmt::Display for FrontendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontendError::Input(m) => write!(f, "{m}"),
            FrontendError::Syntax(m) => write!(f, "{m}"),
            FrontendError::Unsupported(m) => write!(f, "{m}"),
            FrontendError::Invalid(m) => write!(f, "{m}"),
            FrontendError::BodylessCall { name, at } => write!(
                f,
                "{at}: unsupported: call of {name}, which has no body and may write through its arguments"
            ),
        }
    }
}

impl std::error::Error for FrontendError {}
