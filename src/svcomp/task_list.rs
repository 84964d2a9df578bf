//! The task table of an sv-benchmarks checkout (`tasks.csv`): one row per task, naming its
//! `.yml`, its program file, the expected unreach-call verdict and its directory. The bench,
//! the regression runner and the tests that run shared tasks all read it through here.

use std::fmt;
use std::path::{Path, PathBuf};

/// One row of `tasks.csv`. Paths are resolved against the checkout's `c/` folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedTask {
    /// The `.yml` as the table names it, relative to `c/` (e.g. `pthread/fib_bench-1.yml`).
    pub yml: String,
    /// The `.yml`, resolved.
    pub yml_path: PathBuf,
    /// The program file, resolved.
    pub input: PathBuf,
    /// The expected unreach-call verdict (`Some(true)`: no error reachable); `None` when the
    /// table states neither `true` nor `false`.
    pub expected: Option<bool>,
    /// The task's directory below `c/` (e.g. `pthread`).
    pub directory: String,
}

impl ListedTask {
    /// The task's name: its `.yml` path below `c/` without `.yml` (e.g. `pthread/fib_bench-1`).
    pub fn stem(&self) -> &str {
        self.yml.strip_suffix(".yml").unwrap_or(&self.yml)
    }
}

/// A `tasks.csv` that cannot be read; displays as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskListError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for TaskListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for TaskListError {}

/// The rows of `svb/tasks.csv`, in table order. The table is plain comma-separated text with a
/// header naming the columns `yml`, `input_file`, `expected_verdict` and `directory` (in any
/// order; further columns are ignored); no field holds a comma.
pub fn read_task_list(svb: &Path) -> Result<Vec<ListedTask>, TaskListError> {
    let path = svb.join("tasks.csv");
    let text = std::fs::read_to_string(&path).map_err(|e| TaskListError {
        path: path.clone(),
        message: e.to_string(),
    })?;
    parse_task_list(&text, svb).map_err(|message| TaskListError { path, message })
}

/// The rows of a `tasks.csv` text whose checkout is `svb`.
pub fn parse_task_list(text: &str, svb: &Path) -> Result<Vec<ListedTask>, String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .ok_or("empty")?
        .split(',')
        .map(str::trim)
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("no column '{name}'"))
    };
    let (c_yml, c_input, c_verdict, c_dir) = (
        col("yml")?,
        col("input_file")?,
        col("expected_verdict")?,
        col("directory")?,
    );
    let c = svb.join("c");
    let mut tasks = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let row: Vec<&str> = line.split(',').map(str::trim).collect();
        let field = |i: usize| row.get(i).copied().ok_or(format!("short row '{line}'"));
        let yml = field(c_yml)?;
        tasks.push(ListedTask {
            yml: yml.to_string(),
            yml_path: c.join(yml),
            input: c.join(field(c_input)?),
            expected: match field(c_verdict)? {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            directory: field(c_dir)?.to_string(),
        });
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_resolve_against_c_and_columns_go_by_name() {
        let text = "directory,yml,expected_verdict,input_file,size\n\
                    pthread,pthread/a.yml,true,pthread/a.i,10\n\n\
                    wmm,wmm/b.yml,false,wmm/b.i,20\nwmm,wmm/c.yml,maybe,wmm/c.i,1\n";
        let tasks = parse_task_list(text, Path::new("/svb")).unwrap();
        assert_eq!(tasks.len(), 3);
        assert_eq!(tasks[0].yml, "pthread/a.yml");
        assert_eq!(tasks[0].stem(), "pthread/a");
        assert_eq!(tasks[0].yml_path, Path::new("/svb/c/pthread/a.yml"));
        assert_eq!(tasks[0].input, Path::new("/svb/c/pthread/a.i"));
        assert_eq!(tasks[0].directory, "pthread");
        let verdicts: Vec<_> = tasks.iter().map(|t| t.expected).collect();
        assert_eq!(verdicts, vec![Some(true), Some(false), None]);
    }

    #[test]
    fn bad_tables_are_errors() {
        assert_eq!(parse_task_list("", Path::new("/")).unwrap_err(), "empty");
        let err = parse_task_list("yml,input_file\n", Path::new("/")).unwrap_err();
        assert!(err.contains("expected_verdict"), "{err}");
        let err = parse_task_list(
            "yml,input_file,expected_verdict,directory\na.yml,a.i\n",
            Path::new("/"),
        )
        .unwrap_err();
        assert!(err.starts_with("short row"), "{err}");
    }
}
