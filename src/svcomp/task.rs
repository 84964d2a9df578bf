//! SV-COMP task definitions (`.yml`, format 1.0 and 2.0): which files make the program, which
//! properties are to be checked with which expected verdict, and the data model.
//!
//! Paths in a task are relative to the folder of the `.yml`; they are resolved here, so the
//! caller only sees paths it can open.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::property::Property;
use crate::ir::DataModel;

/// One entry of a task's `properties` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    /// The `.prp` file, resolved against the task's folder.
    pub property_file: PathBuf,
    /// What the file asks for; `None` when the file could not be read (tasks may name property
    /// files that a checkout does not carry, e.g. termination).
    pub property: Option<Property>,
    /// `expected_verdict`: `Some(true)` for TRUE, `Some(false)` for FALSE, `None` if unstated.
    pub expected_verdict: Option<bool>,
    /// `subproperty` (format 2.0, e.g. `valid-memtrack`), if given.
    pub subproperty: Option<String>,
}

/// A parsed task definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The `.yml` file itself.
    pub path: PathBuf,
    /// `format_version` as written (`1.0` or `2.0`).
    pub format_version: String,
    /// The program's files, resolved against the task's folder, in the order given.
    pub input_files: Vec<PathBuf>,
    /// All properties of the task, including those yogar does not check.
    pub properties: Vec<TaskProperty>,
    /// `options: language:` (format 2.0), e.g. `C`.
    pub language: Option<String>,
    /// `options: data_model:` (format 2.0); format 1.0 tasks have none.
    pub data_model: Option<DataModel>,
}

/// A task definition that cannot be used; displays as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "task {}: {}", self.path, self.message)
    }
}

impl std::error::Error for TaskError {}

#[derive(Deserialize)]
struct RawTask {
    format_version: Option<yaml_serde::Value>,
    input_files: Option<OneOrMany>,
    #[serde(default)]
    properties: Vec<RawProperty>,
    options: Option<RawOptions>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct RawProperty {
    property_file: String,
    expected_verdict: Option<yaml_serde::Value>,
    subproperty: Option<String>,
}

#[derive(Deserialize)]
struct RawOptions {
    language: Option<String>,
    data_model: Option<String>,
}

impl Task {
    /// Read a task definition and the property files it names.
    pub fn load(path: &Path) -> Result<Task, TaskError> {
        let text = std::fs::read_to_string(path).map_err(|e| TaskError {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Task::parse(&text, path)
    }

    /// Parse the text of a task definition that lives at `path` (which anchors the relative
    /// paths; it need not exist). Property files are read if they exist.
    pub fn parse(text: &str, path: &Path) -> Result<Task, TaskError> {
        let error = |message: String| TaskError {
            path: path.display().to_string(),
            message,
        };
        // serde_yaml-style errors can span lines (they quote the input); keep the first one.
        let raw: RawTask = yaml_serde::from_str(text)
            .map_err(|e| error(first_line(&e.to_string()).to_string()))?;
        let base = path.parent().unwrap_or(Path::new(""));

        let format_version = match raw.format_version {
            Some(yaml_serde::Value::String(s)) => s,
            Some(yaml_serde::Value::Number(n)) => n.to_string(),
            Some(_) => return Err(error("format_version is not a version number".into())),
            None => return Err(error("no format_version".into())),
        };
        if !matches!(format_version.as_str(), "1.0" | "2.0" | "1" | "2") {
            return Err(error(format!(
                "unsupported format_version {format_version} (1.0 and 2.0 are understood)"
            )));
        }

        let files = match raw.input_files {
            Some(OneOrMany::One(f)) => vec![f],
            Some(OneOrMany::Many(fs)) => fs,
            None => return Err(error("no input_files".into())),
        };
        if files.is_empty() {
            return Err(error("input_files is empty".into()));
        }
        let mut input_files = Vec::with_capacity(files.len());
        for f in files {
            if f.contains(['*', '?', '[']) {
                return Err(error(format!(
                    "unsupported: file pattern {f:?} in input_files"
                )));
            }
            input_files.push(base.join(f));
        }

        let mut properties = Vec::with_capacity(raw.properties.len());
        for p in raw.properties {
            let expected_verdict = match p.expected_verdict {
                None => None,
                Some(yaml_serde::Value::Bool(b)) => Some(b),
                Some(yaml_serde::Value::String(s)) if s == "true" => Some(true),
                Some(yaml_serde::Value::String(s)) if s == "false" => Some(false),
                Some(_) => {
                    return Err(error(format!(
                        "expected_verdict of {} is neither true nor false",
                        p.property_file
                    )))
                }
            };
            let property_file = base.join(&p.property_file);
            let property = Property::load(&property_file).ok();
            properties.push(TaskProperty {
                property_file,
                property,
                expected_verdict,
                subproperty: p.subproperty,
            });
        }

        let (language, data_model) = match raw.options {
            None => (None, None),
            Some(o) => {
                let data_model = match o.data_model.as_deref() {
                    None => None,
                    Some("ILP32") => Some(DataModel::Ilp32),
                    Some("LP64") => Some(DataModel::Lp64),
                    Some(other) => {
                        return Err(error(format!(
                            "unsupported data_model {other} (ILP32 and LP64 are understood)"
                        )))
                    }
                };
                (o.language, data_model)
            }
        };

        Ok(Task {
            path: path.to_path_buf(),
            format_version,
            input_files,
            properties,
            language,
            data_model,
        })
    }

    /// The unreach-call property of the task, if it has one (the first, if it names several).
    pub fn unreach_call(&self) -> Option<&TaskProperty> {
        self.properties
            .iter()
            .find(|p| p.property == Some(Property::UnreachCall))
    }

    /// The program file when the task has exactly one (all SV-COMP C tasks do).
    pub fn single_input(&self) -> Result<&Path, TaskError> {
        match self.input_files.as_slice() {
            [only] => Ok(only),
            files => Err(TaskError {
                path: self.path.display().to_string(),
                message: format!(
                    "unsupported: {} input files (one is understood)",
                    files.len()
                ),
            }),
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("yogar-task-{}-{name}", std::process::id()));
        std::fs::create_dir_all(dir.join("props")).unwrap();
        dir
    }

    #[test]
    fn format_1_task_with_one_file_and_two_properties() {
        let dir = temp_dir("v1");
        std::fs::write(
            dir.join("props/unreach-call.prp"),
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        )
        .unwrap();
        let text = "format_version: '1.0'\n\n# comment\ninput_files: 'a.i'\n\nproperties:\n  \
                    - property_file: props/termination.prp\n    expected_verdict: true\n  \
                    - property_file: props/unreach-call.prp\n    expected_verdict: false\n";
        let task = Task::parse(text, &dir.join("t.yml")).unwrap();
        assert_eq!(task.format_version, "1.0");
        assert_eq!(task.input_files, vec![dir.join("a.i")]);
        assert_eq!(task.single_input().unwrap(), dir.join("a.i"));
        assert_eq!(task.data_model, None);
        assert_eq!(task.properties.len(), 2);
        // The termination file does not exist: kept, but not classified.
        assert_eq!(task.properties[0].property, None);
        let unreach = task.unreach_call().unwrap();
        assert_eq!(unreach.expected_verdict, Some(false));
        assert_eq!(unreach.property_file, dir.join("props/unreach-call.prp"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn format_2_task_with_options_and_a_file_list() {
        let dir = temp_dir("v2");
        std::fs::write(
            dir.join("props/valid-memsafety.prp"),
            "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n",
        )
        .unwrap();
        let text = "format_version: '2.0'\ninput_files:\n  - x.c\n  - lib/y.c\nproperties:\n  \
                    - property_file: props/valid-memsafety.prp\n    expected_verdict: false\n    \
                    subproperty: valid-free\noptions:\n  language: C\n  data_model: LP64\n";
        let task = Task::parse(text, &dir.join("t.yml")).unwrap();
        assert_eq!(task.input_files, vec![dir.join("x.c"), dir.join("lib/y.c")]);
        assert_eq!(task.data_model, Some(DataModel::Lp64));
        assert_eq!(task.language.as_deref(), Some("C"));
        assert_eq!(
            task.properties[0].subproperty.as_deref(),
            Some("valid-free")
        );
        assert!(matches!(
            task.properties[0].property,
            Some(Property::Other(_))
        ));
        assert!(task.unreach_call().is_none());
        assert!(task.single_input().is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bad_tasks_are_one_line_errors() {
        let path = Path::new("/tmp/bad.yml");
        for (text, needle) in [
            ("input_files: a.i\n", "no format_version"),
            ("format_version: '3.0'\ninput_files: a.i\n", "unsupported format_version 3.0"),
            ("format_version: '2.0'\n", "no input_files"),
            ("format_version: '2.0'\ninput_files: '*.i'\n", "file pattern"),
            (
                "format_version: '2.0'\ninput_files: a.i\noptions:\n  data_model: IP16\n",
                "unsupported data_model IP16",
            ),
            (
                "format_version: '2.0'\ninput_files: a.i\nproperties:\n  - property_file: p.prp\n    expected_verdict: maybe\n",
                "neither true nor false",
            ),
            ("format_version: '2.0'\ninput_files: [a.i\n", ""),
        ] {
            let err = Task::parse(text, path).unwrap_err().to_string();
            assert!(err.starts_with("task /tmp/bad.yml: "), "{err}");
            assert!(err.contains(needle), "{err} lacks {needle}");
            assert!(!err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn architecture_names() {
        assert_eq!(DataModel::Ilp32.architecture(), "32bit");
        assert_eq!(DataModel::Lp64.architecture(), "64bit");
    }
}
