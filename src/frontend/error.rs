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
}

impl FrontendError {
    /// The exit code of `yogar parse` for this error (see `crate::exit`).
    pub fn exit_code(&self) -> u8 {
        match self {
            FrontendError::Input(_) | FrontendError::Syntax(_) | FrontendError::Invalid(_) => {
                exit::INPUT
            }
            FrontendError::Unsupported(_) => exit::UNKNOWN,
        }
    }

    /// True for constructs outside the supported C subset (a verifier answers UNKNOWN).
    pub fn is_unsupported(&self) -> bool {
        matches!(self, FrontendError::Unsupported(_))
    }
}

impl fmt::Display for FrontendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontendError::Input(m) => write!(f, "{m}"),
            FrontendError::Syntax(m) => write!(f, "{m}"),
            FrontendError::Unsupported(m) => write!(f, "{m}"),
            FrontendError::Invalid(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for FrontendError {}
