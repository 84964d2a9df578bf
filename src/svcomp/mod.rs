//! SV-COMP inputs: task definitions (`.yml`) and property files (`.prp`).
//!
//! `yogar verify` resolves its FILE and `--property` through [`Request::resolve`] (built on
//! [`Task::load`] and [`Property::load`]) and checks only [`Property::UnreachCall`]; every other
//! property is answered `UNKNOWN (unsupported property)`.

pub mod checkout;
pub mod input;
pub mod property;
pub mod task;

/// The data model of a task (the IR's own, re-exported where tasks are read).
pub use crate::ir::DataModel;
pub use checkout::sv_benchmarks;
pub use input::{is_task_file, Request, RequestError};
pub use property::{Property, PropertyError, UNREACH_CALL_SPEC};
pub use task::{Task, TaskError, TaskProperty};
