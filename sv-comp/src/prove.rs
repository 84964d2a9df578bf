//! Section `prove` (#24): what a proof costs against bounded checking, and how the prover's
//! time grows.
//! - Shared tasks whose TRUE no bound can establish (the list; `--filter` narrows it):
//!   CPU of `--engine prove` and of `--engine stateful` against bounded checking at bound 3
//!   (`--unwind 3`, unwinding assertions on: it answers `unwind` where the loops do not
//!   close). A run that hits the limit counts at the limit.
//! - The `locked_counters` family ([`super::counters_family`], generated into the output
//!   folder): N distinct thread
//!   templates (N = 1..6, one counter each), and N = 2 with S = 1, 2, 4, 8 counters per
//!   template (program size), every thread looping forever over an atomic update of its
//!   counters and an assertion on their range.
//!
//! A configuration that hits the limit at one size is not run at larger ones.

use std::path::{Path, PathBuf};

use super::counters_family;
use super::runs::{self, EngineRun};
use super::Options;

/// The shared TRUE tasks of #24 that no bound can prove.
pub const TASKS: [&str; 27] = [
    "pthread-ext/25_stack_longer-2",
    "pthread-ext/25_stack_longest-1",
    "pthread-ext/26_stack_cas_longer-2",
    "pthread-ext/26_stack_cas_longest-2",
    "pthread-ext/29_conditionals_vs",
    "pthread-ext/30_Function_Pointer3_vs",
    "pthread-ext/31_simple_loop5_vs",
    "pthread-ext/33_double_lock_p1_vs",
    "pthread-ext/34_double_lock_p2_vs",
    "pthread-ext/35_double_lock_p3_vs",
    "pthread-ext/36_stack_cas_p0_vs_concur",
    "pthread-ext/38_rand_cas_vs_concur",
    "pthread-ext/39_rand_lock_p0_vs",
    "pthread-ext/41_FreeBSD_abd_kbd_sliced",
    "pthread-ext/43_NetBSD_sysmon_power_sliced",
    "pthread-ext/44_Solaris_space_map_sliced",
    "pthread-ext/45_monabsex1_vs",
    "pthread-ext/46_monabsex2_vs",
    "pthread-ext/48_ticket_lock_low_contention_vs",
    "pthread-lit/fk2012",
    "pthread-lit/fkp2013_variant-1",
    "pthread-lit/fkp2014",
    "pthread-lit/qw2004_variant",
    "pthread-lit/sssc12",
    "pthread-lit/sssc12_variant",
    "pthread-atomic/gcd-2",
    "pthread-C-DAC/pthread-demo-datarace-1",
];

/// Seconds per run by default.
pub const DEFAULT_LIMIT: f64 = 20.0;

/// The three columns: the two provers and bounded checking at bound 3.
const CONFIGS: [(&str, &[&str]); 3] = [
    ("prove", &["--engine", "prove"]),
    ("stateful", &["--engine", "stateful"]),
    ("unwind 3", &["--unwind", "3"]),
];

/// Writes the family's program with `n` templates and `s` counters into `dir`.
fn family_file(dir: &Path, n: u32, s: u32) -> PathBuf {
    let path = dir.join(format!("locked_counters_{n}x{s}.c"));
    if let Err(e) = std::fs::write(&path, counters_family::program(n, s)) {
        eprintln!("prove: cannot write {}: {e}", path.display());
    }
    path
}

/// A run's verdict and CPU seconds (at the limit when it hit it).
fn cell(run: Option<&EngineRun>, limit: f64) -> String {
    match run {
        None => format!("{:<9} {:>7}", "skipped", "-"),
        Some(r) => {
            let cpu = if r.verdict.finished() || r.seconds() < limit {
                r.seconds()
            } else {
                limit
            };
            format!("{:<9} {:>7.2}", r.verdict.short(), cpu)
        }
    }
}

fn header(label: &str) {
    println!(
        "{label:<44} | {:<17} | {:<17} | {:<17}",
        "prove: verdict cpu", "stateful", "unwind 3"
    );
}

/// Runs the configurations on `inputs`; with `give_up`, one that did not finish is not run
/// on the inputs after it.
fn sweep(yogar: &Path, inputs: &[(String, PathBuf, Vec<String>)], limit: f64, give_up: bool) {
    let mut gave_up = [false; CONFIGS.len()];
    for (name, file, extra) in inputs {
        let mut cells = Vec::new();
        for (k, (_, args)) in CONFIGS.iter().enumerate() {
            if gave_up[k] {
                cells.push(cell(None, limit));
                continue;
            }
            let mut all: Vec<String> = extra.clone();
            all.extend(args.iter().map(|s| s.to_string()));
            let run = runs::run_verify(yogar, &all, file, limit);
            gave_up[k] = give_up && !run.verdict.finished();
            cells.push(cell(Some(&run), limit));
        }
        println!("{name:<44} | {} | {} | {}", cells[0], cells[1], cells[2]);
    }
}

pub fn run(options: &Options) {
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    println!("== prove: provers against bounded checking, limit {limit} s CPU per run ==");
    let Some((_, yogar, tasks)) = runs::setup(options) else {
        return;
    };
    let chosen: Vec<(String, PathBuf, Vec<String>)> = TASKS
        .iter()
        .filter(|name| {
            options
                .filter
                .as_ref()
                .is_none_or(|f| name.contains(f.as_str()))
        })
        .take(if options.quick { 2 } else { TASKS.len() })
        .filter_map(|name| tasks.iter().find(|t| t.stem() == *name))
        .map(|t| (t.stem().to_string(), t.yml_path.clone(), Vec::new()))
        .collect();
    println!("-- shared TRUE tasks no bound proves --");
    header("task");
    sweep(&yogar, &chosen, limit, false);
    let counts: &[u32] = if options.quick {
        &[1, 2]
    } else {
        &[1, 2, 3, 4, 5, 6]
    };
    let sizes: &[u32] = if options.quick {
        &[1, 2]
    } else {
        &[1, 2, 4, 8]
    };
    let dir = std::env::temp_dir().join(format!("yogar-prove-family-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("prove: cannot create {}: {e}", dir.display());
        return;
    }
    let file = |n: u32, s: u32| family_file(&dir, n, s);
    println!("-- against the number of thread templates: locked_counters_Nx1.c --");
    header("templates");
    let by_count: Vec<_> = counts
        .iter()
        .map(|&n| (n.to_string(), file(n, 1), Vec::new()))
        .collect();
    sweep(&yogar, &by_count, limit, true);
    println!("-- against the program size: locked_counters_2xS.c (S counters per template) --");
    header("counters per template");
    let by_size: Vec<_> = sizes
        .iter()
        .map(|&s| (s.to_string(), file(2, s), Vec::new()))
        .collect();
    sweep(&yogar, &by_size, limit, true);
    let _ = std::fs::remove_dir_all(&dir);
}
