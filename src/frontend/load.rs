//! The one way the tool loads a program: the frontend, guarded against its own panics, and the
//! IR validated before anything uses it. `verify`, `parse`, `show-ir`, `show-equation` and
//! `replay` all load through [`load`].

use std::fmt;
use std::path::Path;

use super::FrontendError;
use crate::exit;
use crate::ir::{validate, DataModel, Program};

/// Why a program could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The frontend refused the program (unreadable, syntax, unsupported, invalid C).
    Frontend(FrontendError),
    /// The lowering produced IR that breaks its invariants (a bug in yogar).
    InvalidIr { file: String, message: String },
    /// The frontend panicked (a bug in yogar).
    Crashed { file: String },
}

impl LoadError {
    /// The exit code of a command that could not load its program (see `crate::exit`).
    pub fn exit_code(&self) -> u8 {
        match self {
            LoadError::Frontend(e) => e.exit_code(),
            LoadError::InvalidIr { .. } | LoadError::Crashed { .. } => exit::INTERNAL,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Frontend(e) => write!(f, "{e}"),
            LoadError::InvalidIr { file, message } => {
                write!(f, "internal error: invalid IR for {file}: {message}")
            }
            LoadError::Crashed { file } => write!(f, "internal error while reading {file}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Preprocesses, parses and lowers a `.c` or `.i` file, and validates its IR.
pub fn load(path: &Path, model: DataModel) -> Result<Program, LoadError> {
    load_with(path, model, &super::FrontendOptions::default())
}

/// [`load`] with the user's frontend options (`-D`, `-I`, `--function`, `--error-label`).
pub fn load_with(
    path: &Path,
    model: DataModel,
    options: &super::FrontendOptions,
) -> Result<Program, LoadError> {
    let file = path.display().to_string();
    let prog = match std::panic::catch_unwind(|| super::load_file_with(path, model, options)) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => return Err(LoadError::Frontend(e)),
        Err(_) => return Err(LoadError::Crashed { file }),
    };
    validate::validate(&prog).map_err(|message| LoadError::InvalidIr { file, message })?;
    Ok(prog)
}
