//! Section `growth`: how CPU time, formula size and peak memory grow with the unwind bound
//! (shared tasks of the deep-bound set at increasing bounds up to the one each needs) and with
//! the number of threads (two families the bench generates, `thread_families`, at unwind 2).
//!
//! Two columns per size. With `--before PATH` they are the default engine of that binary
//! (`before`) and of `--yogar`'s (`after`, default: the one next to the bench), in one run,
//! with the ratio of their CPU times; without it, the default engine and the monolithic one
//! on CaDiCaL of the same binary. A column that hits the limit at one size is not run at
//! larger ones: it would only hit it again.

use std::path::{Path, PathBuf};

use super::runs::{self, ratio, EngineRun};
use super::thread_families;
use super::Options;

/// The unwind families: shared tasks and the bounds they are run at (the last is the bound
/// each needs, as in `depth`).
pub const UNWIND_FAMILIES: &[(&str, &[u32])] = &[
    ("pthread/triangular-longer-2", &[3, 5, 7, 9, 11]),
    ("pthread-divine/ring_1w1r-2", &[3, 5, 7, 9]),
    ("pthread-complex/workstealqueue_mutex-2", &[3, 5, 7, 9]),
];
/// Thread counts of the generated families.
pub const THREADS: [u32; 6] = [2, 3, 4, 6, 8, 10];
/// Seconds per run by default.
pub const DEFAULT_LIMIT: f64 = 60.0;

/// A generated thread family: its name and the program of `n` threads.
type Family = (&'static str, fn(u32) -> String);

/// One column: a binary and the arguments of the configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub label: String,
    pub yogar: PathBuf,
    pub args: &'static [&'static str],
}

/// The two columns: `before` and `after` (default engine) when there is a before binary, else
/// default and monolithic (CaDiCaL) of `after`.
pub fn columns(after: &Path, before: Option<&Path>) -> [Column; 2] {
    let col = |label: &str, yogar: &Path, args| Column {
        label: label.into(),
        yogar: yogar.to_path_buf(),
        args,
    };
    match before {
        Some(b) => [col("before", b, &[]), col("after", after, &[])],
        None => [
            col("default", after, &[]),
            col(
                "mono-cadical",
                after,
                &["--engine", "monolithic", "--solver", "cadical"],
            ),
        ],
    }
}

fn cell(run: Option<&EngineRun>) -> String {
    match run {
        None => format!("{:<8} {:>7} {:>9} {:>6}", "skipped", "-", "-", "-"),
        Some(r) => format!(
            "{:<8} {:>7.2} {:>9} {:>6}",
            r.verdict.short(),
            r.seconds(),
            r.output.clauses.map_or("-".into(), |c| c.to_string()),
            r.output.peak_mib.map_or("-".into(), |m| format!("{m:.0}"))
        ),
    }
}

/// The CPU ratio of the second column to the first, when both gave a verdict.
pub fn cpu_ratio(first: Option<&EngineRun>, second: Option<&EngineRun>) -> Option<f64> {
    match (first, second) {
        (Some(a), Some(b)) if a.verdict.finished() && b.verdict.finished() => {
            ratio(b.seconds(), a.seconds())
        }
        _ => None,
    }
}

/// Runs both columns over the sizes; `input` gives the file and bound of a size.
fn sweep(
    columns: &[Column; 2],
    label: &str,
    sizes: &[u32],
    limit: f64,
    input: impl Fn(u32) -> (PathBuf, u32),
) {
    let head = |c: &Column| format!("{}: verdict cpu clauses MiB", c.label);
    println!(
        "{label:>8} | {:<33} | {:<33} | {}/{}",
        head(&columns[0]),
        head(&columns[1]),
        columns[1].label,
        columns[0].label
    );
    let mut gave_up = [false; 2];
    for &size in sizes {
        let (file, unwind) = input(size);
        let mut done: Vec<Option<EngineRun>> = Vec::new();
        for (k, c) in columns.iter().enumerate() {
            if gave_up[k] {
                done.push(None);
                continue;
            }
            let run = runs::run_verify(&c.yogar, &runs::bounded_args(unwind, c.args), &file, limit);
            gave_up[k] = !run.verdict.finished();
            done.push(Some(run));
        }
        let r = cpu_ratio(done[0].as_ref(), done[1].as_ref());
        println!(
            "{size:>8} | {:<33} | {:<33} | {}",
            cell(done[0].as_ref()),
            cell(done[1].as_ref()),
            r.map_or("-".into(), |x| format!("{x:.2}"))
        );
    }
}

/// Writes a generated family member to a scratch file; `None` after printing why not.
fn write_program(dir: &Path, name: &str, text: &str) -> Option<PathBuf> {
    let path = dir.join(name);
    match std::fs::write(&path, text) {
        Ok(()) => Some(path),
        Err(e) => {
            println!("cannot write {}: {e}", path.display());
            None
        }
    }
}

pub fn run(options: &Options) {
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    let Some((_, yogar, tasks)) = runs::setup(options) else {
        return;
    };
    if let Some(b) = options.before.as_ref().filter(|b| !b.is_file()) {
        println!("skipped: --before {} is not a file", b.display());
        return;
    }
    let cols = columns(&yogar, options.before.as_deref());
    println!(
        "== growth: {} ({}) against {} ({}), limit {limit} s CPU per run ==",
        cols[1].label,
        cols[1].yogar.display(),
        cols[0].label,
        cols[0].yogar.display()
    );
    let wanted = |name: &str| options.filter.as_ref().is_none_or(|f| name.contains(f));
    for &(name, bounds) in UNWIND_FAMILIES.iter().filter(|(n, _)| wanted(n)) {
        let bounds = if options.quick { &bounds[..1] } else { bounds };
        match tasks.iter().find(|t| t.stem() == name) {
            Some(task) => {
                println!("-- against the unwind bound: {name} --");
                sweep(&cols, "unwind", bounds, limit, |k| (task.input.clone(), k));
            }
            None => println!("skipped {name}: not in tasks.csv"),
        }
    }
    let threads: &[u32] = if options.quick {
        &THREADS[..2]
    } else {
        &THREADS
    };
    let dir = std::env::temp_dir().join(format!("yogar-bench-growth-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        println!(
            "skipped the thread families: cannot create {}: {e}",
            dir.display()
        );
        return;
    }
    let families: [Family; 2] = [
        ("lock_counter", thread_families::lock_counter),
        ("pending_adders", thread_families::pending_adders),
    ];
    for (family, program) in families.into_iter().filter(|(f, _)| wanted(f)) {
        println!("-- against the thread count: {family}(n), generated, at unwind 2 --");
        sweep(&cols, "threads", threads, limit, |n| {
            let file = write_program(&dir, &format!("{family}_{n}.c"), &program(n));
            (file.unwrap_or_else(|| dir.join("missing.c")), 2)
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::runs::{RunOutput, RunVerdict};

    fn run(verdict: RunVerdict, secs: f64) -> EngineRun {
        EngineRun {
            output: RunOutput {
                clauses: Some(1234),
                peak_mib: Some(56.4),
                ..RunOutput::default()
            },
            ..EngineRun::took(verdict, secs)
        }
    }

    #[test]
    fn the_ratio_needs_two_verdicts() {
        let (a, b) = (run(RunVerdict::True, 4.0), run(RunVerdict::True, 1.0));
        assert_eq!(cpu_ratio(Some(&a), Some(&b)), Some(0.25));
        let t = run(RunVerdict::Unknown("timeout (CPU limit)".into()), 60.0);
        assert_eq!(cpu_ratio(Some(&t), Some(&b)), None);
        assert_eq!(cpu_ratio(Some(&a), None), None);
    }

    #[test]
    fn columns_are_before_after_only_with_a_before_binary() {
        let (a, b) = (Path::new("/x/after"), Path::new("/x/before"));
        let c = columns(a, Some(b));
        assert_eq!((c[0].label.as_str(), c[0].yogar.as_path()), ("before", b));
        assert_eq!((c[1].label.as_str(), c[1].yogar.as_path()), ("after", a));
        assert!(c[0].args.is_empty() && c[1].args.is_empty());
        let c = columns(a, None);
        assert_eq!(c[0].label, "default");
        assert_eq!(
            c[1].args,
            &["--engine", "monolithic", "--solver", "cadical"]
        );
        assert!(c.iter().all(|c| c.yogar == a));
    }

    #[test]
    fn a_cell_shows_verdict_cpu_clauses_and_memory() {
        let c = cell(Some(&run(RunVerdict::False, 1.5)));
        assert!(c.starts_with("FALSE"), "{c}");
        assert!(
            c.contains("1.50") && c.contains("1234") && c.contains("56"),
            "{c}"
        );
        assert!(cell(None).starts_with("skipped"));
    }
}
