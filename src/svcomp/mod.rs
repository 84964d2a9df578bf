//! SV-COMP inputs: task definitions (`.yml`), property files (`.prp`) and the task table
//! (`tasks.csv`) of a checkout.
//!
//! `yogar verify` resolves its FILE and `--property` through [`Request::resolve`] (built on
//! [`Task::load`] and [`Property::load`]); a property the engine does not check
//! (`Engine::checks`) is answered `UNKNOWN (unsupported property)`.

pub mod checkout;
pub mod input;
pub mod property;
pub mod task;
pub mod task_list;

/// The data model of a task (the IR's own, re-exported where tasks are read).
pub use crate::ir::DataModel;
pub use checkout::sv_benchmarks;
pub use input::{is_task_file, Request, RequestError};
pub use property::{
    Property, PropertyError, NO_DATA_RACE_SPEC, NO_OVERFLOW_SPEC, UNREACH_CALL_SPEC,
    VALID_MEMSAFETY_SPEC,
};
pub use task::{Task, TaskError, TaskProperty};
pub use task_list::{read_task_list, ListedTask, TaskListError};
