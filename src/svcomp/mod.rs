//! SV-COMP inputs: task definitions (`.yml`) and property files (`.prp`).
//!
//! `yogar verify` reads a task through [`Task::load`] (or a bare program plus a `--property`
//! file through [`Property::load`]) and checks only [`Property::UnreachCall`]; every other
//! property is answered `UNKNOWN (unsupported property)`.

pub mod property;
pub mod task;

pub use property::{Property, PropertyError, UNREACH_CALL_SPEC};
pub use task::{DataModel, Task, TaskError, TaskProperty};
