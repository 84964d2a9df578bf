//! What `yogar verify FILE [--property P]` is asked to do: the program file, the property,
//! the task's data model and expected verdict, whether FILE is a program or a task `.yml`.

use std::fmt;
use std::path::{Path, PathBuf};

use super::property::{Property, PropertyError};
use super::task::{Task, TaskError};
use crate::ir::DataModel;

/// A verification request, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The C program (`.c` or `.i`) to verify.
    pub program: PathBuf,
    /// The property to check (the pipeline answers `UNKNOWN (unsupported property)` for one
    /// the engine does not check).
    pub property: Property,
    /// The data model the task states; `None` for a plain program or a format 1.0 task (the
    /// command line decides).
    pub data_model: Option<DataModel>,
    /// The task's expected verdict for the property (`Some(true)`: TRUE), if FILE is a task.
    pub expected_verdict: Option<bool>,
}

/// A request that cannot be resolved: one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestError {
    Task(TaskError),
    Property(PropertyError),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Task(e) => e.fmt(f),
            RequestError::Property(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RequestError {}

/// Whether `file` names a task definition rather than a program.
pub fn is_task_file(file: &Path) -> bool {
    matches!(
        file.extension().and_then(|e| e.to_str()),
        Some("yml") | Some("yaml")
    )
}

impl Request {
    /// Resolve `yogar verify FILE [--property PROPERTY_FILE]`.
    ///
    /// - A program without `--property`: check unreach-call (`reach_error()` and failed
    ///   `assert`s are the errors).
    /// - A program with `--property`: the property of that file.
    /// - A task: its single input file and data model; the property of `--property` if given
    ///   (a task with several properties is verified for the one asked, as BenchExec passes
    ///   one at a time), else the task's unreach-call property, else its first property.
    ///   The expected verdict is the task's, for the property checked.
    pub fn resolve(file: &Path, property_file: Option<&Path>) -> Result<Request, RequestError> {
        let explicit = match property_file {
            Some(p) => Some(Property::load(p).map_err(RequestError::Property)?),
            None => None,
        };
        if !is_task_file(file) {
            return Ok(Request {
                program: file.to_path_buf(),
                property: explicit.unwrap_or(Property::UnreachCall),
                data_model: None,
                expected_verdict: None,
            });
        }
        let task = Task::load(file).map_err(RequestError::Task)?;
        let program = task
            .single_input()
            .map_err(RequestError::Task)?
            .to_path_buf();
        let (property, expected_verdict) = match explicit {
            Some(p) => {
                let expected = task
                    .properties
                    .iter()
                    .find(|tp| tp.property.as_ref() == Some(&p))
                    .and_then(|tp| tp.expected_verdict);
                (p, expected)
            }
            None => match task.unreach_call() {
                Some(tp) => (Property::UnreachCall, tp.expected_verdict),
                None => {
                    let first = task.properties.first();
                    let text =
                        first
                            .and_then(|tp| tp.property.clone())
                            .unwrap_or_else(|| match first {
                                Some(tp) => Property::Other(tp.property_file.display().to_string()),
                                None => Property::Other("no property".to_string()),
                            });
                    (text, None)
                }
            },
        };
        Ok(Request {
            program,
            property,
            data_model: task.data_model,
            expected_verdict,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svcomp::UNREACH_CALL_SPEC;

    fn setup(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("yogar-request-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("unreach-call.prp"), UNREACH_CALL_SPEC).unwrap();
        std::fs::write(
            dir.join("no-overflow.prp"),
            "CHECK( init(main()), LTL(G ! overflow) )",
        )
        .unwrap();
        dir
    }

    #[test]
    fn plain_program_defaults_to_unreach_call() {
        let r = Request::resolve(Path::new("x.c"), None).unwrap();
        assert_eq!(r.program, Path::new("x.c"));
        assert_eq!(r.property, Property::UnreachCall);
        assert_eq!((r.data_model, r.expected_verdict), (None, None));
    }

    #[test]
    fn plain_program_with_another_property_is_unsupported() {
        let dir = setup("plain");
        let r = Request::resolve(Path::new("x.i"), Some(&dir.join("no-overflow.prp"))).unwrap();
        assert_eq!(r.property, Property::NoOverflow);
        let err = Request::resolve(Path::new("x.i"), Some(&dir.join("missing.prp"))).unwrap_err();
        assert!(err.to_string().starts_with("cannot read property file"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn task_gives_program_data_model_and_expected_verdict() {
        let dir = setup("task");
        let yml = dir.join("t.yml");
        std::fs::write(
            &yml,
            "format_version: '2.0'\ninput_files: p.i\nproperties:\n  - property_file: \
             no-overflow.prp\n    expected_verdict: true\n  - property_file: unreach-call.prp\n    \
             expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n",
        )
        .unwrap();
        let r = Request::resolve(&yml, None).unwrap();
        assert_eq!(r.program, dir.join("p.i"));
        assert_eq!(r.property, Property::UnreachCall);
        assert_eq!(r.data_model, Some(DataModel::Ilp32));
        assert_eq!(r.expected_verdict, Some(false));

        // An explicit property picks its own expected verdict.
        let r = Request::resolve(&yml, Some(&dir.join("no-overflow.prp"))).unwrap();
        assert_eq!(r.property, Property::NoOverflow);
        assert_eq!(r.expected_verdict, Some(true));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn task_without_unreach_call_checks_its_first_property() {
        let dir = setup("other");
        let yml = dir.join("t.yaml");
        std::fs::write(
            &yml,
            "format_version: '2.0'\ninput_files: p.i\nproperties:\n  - property_file: \
             no-overflow.prp\n    expected_verdict: true\n",
        )
        .unwrap();
        let r = Request::resolve(&yml, None).unwrap();
        assert_eq!(r.property, Property::NoOverflow);
        assert_eq!(r.expected_verdict, None);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
