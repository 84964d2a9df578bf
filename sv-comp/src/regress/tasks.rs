//! The tasks of a regression run: every unreach-call task of an sv-benchmarks checkout (from
//! `tasks.csv`, or every `.yml` under `c/` without it), and the fixed `--quick` subset.

use std::path::{Path, PathBuf};

use yogar::svcomp::{read_task_list, DataModel, Task};

/// One task with an unreach-call property and an expected verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct RegressTask {
    /// The `.yml` below `c/` (e.g. `pthread/fib_bench-1.yml`): the key of the result tables.
    pub name: String,
    pub directory: String,
    pub input_files: Vec<PathBuf>,
    pub property_file: PathBuf,
    pub expected: bool,
    /// The task's own data model (format 2.0); `None` for format 1.0.
    pub data_model: Option<DataModel>,
}

impl RegressTask {
    /// The file-name stem of this task's logs (`pthread__fib_bench-1.yml`).
    pub fn log_stem(&self) -> String {
        self.name.replace('/', "__")
    }
}

/// The task of the `.yml` at `yml` (named `name` below `c/`), or `None` if it has no
/// unreach-call property with an expected verdict.
fn task_from_yml(yml: &Path, name: &str) -> Result<Option<RegressTask>, String> {
    let task = Task::load(yml).map_err(|e| e.to_string())?;
    let Some(prop) = task.unreach_call() else {
        return Ok(None);
    };
    let Some(expected) = prop.expected_verdict else {
        return Ok(None);
    };
    Ok(Some(RegressTask {
        name: name.to_string(),
        directory: Path::new(name)
            .parent()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default(),
        input_files: task.input_files.clone(),
        property_file: prop.property_file.clone(),
        expected,
        data_model: task.data_model,
    }))
}

/// All unreach-call tasks of the checkout `svb`, sorted by name. With `tasks.csv` every row
/// must be such a task with the verdict the table states; without it, `.yml` files that
/// cannot be read are skipped with a warning.
pub fn load_tasks(svb: &Path) -> Result<Vec<RegressTask>, String> {
    let c = svb.join("c");
    let mut tasks = Vec::new();
    if svb.join("tasks.csv").is_file() {
        for row in read_task_list(svb).map_err(|e| e.to_string())? {
            let task = task_from_yml(&row.yml_path, &row.yml)?
                .ok_or_else(|| format!("{}: no unreach-call property", row.yml))?;
            if let Some(listed) = row.expected.filter(|&v| v != task.expected) {
                return Err(format!(
                    "{}: tasks.csv says {listed}, the task says {}",
                    row.yml, task.expected
                ));
            }
            tasks.push(task);
        }
    } else {
        let mut ymls = Vec::new();
        collect_ymls(&c, &mut ymls);
        for yml in ymls {
            let name = yml
                .strip_prefix(&c)
                .unwrap_or(&yml)
                .to_string_lossy()
                .into_owned();
            match task_from_yml(&yml, &name) {
                Ok(Some(task)) => tasks.push(task),
                Ok(None) => {}
                Err(e) => eprintln!("regress: skipped {e}"),
            }
        }
    }
    tasks.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tasks)
}

fn collect_ymls(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect_ymls(&p, out);
        } else if p.extension().is_some_and(|e| e == "yml") {
            out.push(p);
        }
    }
}

/// The size of the `--quick` subset.
pub const QUICK_SIZE: usize = 20;

/// A fixed, small subset: round robin over the directories (sorted), each directory's tasks
/// alternating expected TRUE and FALSE, so that it covers every directory and both verdicts
/// and changes only when the task set does. Sorted by name.
pub fn quick_subset(tasks: &[RegressTask], size: usize) -> Vec<RegressTask> {
    let mut sorted: Vec<&RegressTask> = tasks.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut dirs: std::collections::BTreeMap<&str, (Vec<&RegressTask>, Vec<&RegressTask>)> =
        Default::default();
    for t in sorted {
        let (trues, falses) = dirs.entry(&t.directory).or_default();
        if t.expected {
            trues.push(t);
        } else {
            falses.push(t);
        }
    }
    let mut queues: Vec<std::collections::VecDeque<&RegressTask>> = dirs
        .values()
        .map(|(trues, falses)| {
            let mut mixed = std::collections::VecDeque::new();
            for i in 0..trues.len().max(falses.len()) {
                mixed.extend(trues.get(i));
                mixed.extend(falses.get(i));
            }
            mixed
        })
        .collect();
    let mut chosen = Vec::new();
    while chosen.len() < size && queues.iter().any(|q| !q.is_empty()) {
        for q in &mut queues {
            if chosen.len() < size {
                if let Some(t) = q.pop_front() {
                    chosen.push((*t).clone());
                }
            }
        }
    }
    chosen.sort_by(|a, b| a.name.cmp(&b.name));
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_subset_is_fixed_and_spread() {
        let tasks: Vec<RegressTask> = (0..5)
            .flat_map(|d| {
                (0..30).map(move |i| RegressTask {
                    name: format!("d{d}/t{i}.yml"),
                    directory: format!("d{d}"),
                    input_files: vec![],
                    property_file: PathBuf::new(),
                    expected: i % 3 == 0,
                    data_model: None,
                })
            })
            .collect();
        let a = quick_subset(&tasks, QUICK_SIZE);
        let reversed: Vec<RegressTask> = tasks.iter().rev().cloned().collect();
        assert_eq!(a, quick_subset(&reversed, QUICK_SIZE));
        assert_eq!(a.len(), QUICK_SIZE);
        for d in 0..5 {
            let picked: Vec<bool> = a
                .iter()
                .filter(|t| t.directory == format!("d{d}"))
                .map(|t| t.expected)
                .collect();
            assert_eq!(picked.len(), 4);
            assert!(picked.contains(&true) && picked.contains(&false), "d{d}");
        }
        assert_eq!(quick_subset(&tasks[..3], QUICK_SIZE).len(), 3);
    }
}
