//! Section `growth`: how CPU time and formula size of the default engine and of the
//! monolithic engine grow with the unwind bound (a shared task whose loops run 20 times, at
//! bounds 2..20) and with the number of threads (the `tests/families/claim_owner_N.c` family,
//! 2..8 threads, written for this). A configuration that hits the limit at one size is not run
//! at larger ones: it would only hit it again.

use std::path::{Path, PathBuf};

use super::runs::{self, EngineRun};
use super::Options;

/// The unwind family: both loops of each thread run 20 times, so every bound up to 21 adds
/// events and ordering work.
pub const UNWIND_TASK: &str = "pthread/triangular-longest-1";
/// Bounds of the unwind family.
pub const UNWIND_BOUNDS: [u32; 10] = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20];
/// Thread counts of the thread family (files `claim_owner_N.c`).
pub const THREADS: [u32; 6] = [2, 3, 4, 5, 6, 8];
/// Seconds per run by default.
pub const DEFAULT_LIMIT: f64 = 20.0;

/// The two columns: the default and the faster monolithic back end on these families.
const CONFIGS: [(&str, &[&str]); 2] = [
    ("default", &[]),
    (
        "mono-cadical",
        &["--engine", "monolithic", "--solver", "cadical"],
    ),
];

/// The repository's `tests/families` folder, found from the bench crate's manifest.
fn families() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("families")
}

fn cell(run: Option<&EngineRun>) -> String {
    match run {
        None => format!("{:<9} {:>8} {:>9}", "skipped", "-", "-"),
        Some(r) => format!(
            "{:<9} {:>8.3} {:>9}",
            r.verdict.short(),
            r.seconds(),
            r.output.clauses.map_or("-".into(), |c| c.to_string())
        ),
    }
}

/// Runs both configurations over the sizes; `file_and_unwind` gives the input of a size.
fn sweep(
    yogar: &Path,
    label: &str,
    sizes: &[u32],
    limit: f64,
    input: impl Fn(u32) -> (PathBuf, u32),
) {
    println!(
        "{label:>8} | {:<29} | {:<29}",
        "default: verdict cpu clauses", "mono-cadical: verdict cpu clauses"
    );
    let mut gave_up = [false; CONFIGS.len()];
    for &size in sizes {
        let (file, unwind) = input(size);
        let mut cells = Vec::new();
        for (k, (_, args)) in CONFIGS.iter().enumerate() {
            if gave_up[k] {
                cells.push(cell(None));
                continue;
            }
            let run = runs::run_verify(yogar, &runs::bounded_args(unwind, args), &file, limit);
            gave_up[k] = !run.verdict.finished();
            cells.push(cell(Some(&run)));
        }
        println!("{size:>8} | {} | {}", cells[0], cells[1]);
    }
}

pub fn run(options: &Options) {
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    println!("== growth: default vs monolithic (cadical), limit {limit} s CPU per run ==");
    let Some((_, yogar, tasks)) = runs::setup(options) else {
        return;
    };
    let bounds: &[u32] = if options.quick {
        &UNWIND_BOUNDS[..2]
    } else {
        &UNWIND_BOUNDS
    };
    match tasks.iter().find(|t| t.stem() == UNWIND_TASK) {
        Some(task) => {
            println!("-- against the unwind bound: {UNWIND_TASK} --");
            sweep(&yogar, "unwind", bounds, limit, |k| (task.input.clone(), k));
        }
        None => println!("skipped the unwind family: {UNWIND_TASK} is not in tasks.csv"),
    }
    let threads: &[u32] = if options.quick {
        &THREADS[..2]
    } else {
        &THREADS
    };
    println!("-- against the thread count: tests/families/claim_owner_N.c at unwind 2 --");
    sweep(&yogar, "threads", threads, limit, |n| {
        (families().join(format!("claim_owner_{n}.c")), 2)
    });
}
