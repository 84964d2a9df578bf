//! Section `explore`: the enumerative explorers (`--engine dpor`, `--engine cdpor`,
//! `--engine rvf`) on two scaling families written here, with explored executions, blocked
//! runs (rvf: instances reached again) and CPU time per size.
//!
//! - B3 (the exponential-gap family of the RVF paper): N threads each run `x = 1; a[i] = x;`.
//!   Writes of `x` conflict with each other and with the other threads' reads, so the
//!   Mazurkiewicz traces are the N! orders of the writes times, for the thread whose write is
//!   p-th, the N - p places of its read among the later writes: (N!)². Source-DPOR explores
//!   exactly one execution per trace, so a dpor count other than (N!)² fails the section.
//!   Every read returns 1, which the constrained explorer can exploit, and there is one
//!   reads-value-from class: rvf must explore exactly 1 execution.
//! - Lock counter: N threads each increment a counter under one mutex. The traces are the N!
//!   orders of the critical sections; dpor must explore exactly N!, and so must rvf (each
//!   acquisition follows one release, so every order is its own reads-value-from class).
//!
//! - Seed examples: the papers' example programs (`tests/programs/paper_*.c`, the seeds'
//!   running examples) at the bound and with the verdict their first line names; a wrong
//!   verdict fails the section.
//!
//! Each run is a child `yogar verify --unwind N --engine E --stats` under a CPU limit, as in
//! the other sections.

use std::path::{Path, PathBuf};

use super::runs::{self, EngineRun};
use super::Options;

/// Seconds per run by default.
pub const DEFAULT_LIMIT: f64 = 20.0;
/// Thread counts of B3 and of the lock counter.
pub const B3_SIZES: [u32; 7] = [2, 3, 4, 5, 6, 7, 8];
pub const LOCK_SIZES: [u32; 7] = [2, 3, 4, 5, 6, 7, 8];
const EXPLORERS: [&str; 3] = ["dpor", "cdpor", "rvf"];

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

/// The B3 program with `n` threads.
pub fn b3_program(n: u32) -> String {
    format!(
        "#include <pthread.h>\n#include <assert.h>\nint x = 0;\nint a[{n}];\n\
         void *t(void *arg) {{ int i = (int)(long)arg; x = 1; a[i] = x; return 0; }}\n\
         int main(void) {{\n  pthread_t th[{n}];\n\
         for (int i = 0; i < {n}; i++) pthread_create(&th[i], 0, t, (void *)(long)i);\n\
         for (int i = 0; i < {n}; i++) pthread_join(th[i], 0);\n\
         assert(a[0] == 1);\n  return 0;\n}}\n"
    )
}

/// The lock-counter program with `n` threads.
pub fn lock_counter_program(n: u32) -> String {
    format!(
        "#include <pthread.h>\n#include <assert.h>\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint counter = 0;\n\
         void *t(void *arg) {{ pthread_mutex_lock(&m); counter = counter + 1; \
         pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{\n  pthread_t th[{n}];\n\
         for (int i = 0; i < {n}; i++) pthread_create(&th[i], 0, t, 0);\n\
         for (int i = 0; i < {n}; i++) pthread_join(th[i], 0);\n\
         assert(counter == {n});\n  return 0;\n}}\n"
    )
}

fn cell(run: &EngineRun, second: Option<u64>) -> String {
    format!(
        "{:<8} {:>9} {:>8} {:>8.3}",
        run.verdict.short(),
        run.output.executions.map_or("-".into(), |n| n.to_string()),
        second.map_or("-".into(), |n| n.to_string()),
        run.seconds()
    )
}

/// A family: its program and the executions dpor and rvf must explore.
struct Family {
    name: &'static str,
    program: fn(u32) -> String,
    dpor: fn(u32) -> u64,
    rvf: fn(u32) -> u64,
}

/// Runs one family; returns false when dpor's or rvf's count differs from the expected one
/// for a size it finished.
fn family(yogar: &Path, dir: &Path, fam: &Family, sizes: &[u32], limit: f64) -> bool {
    let name = fam.name;
    println!("-- {name} --");
    println!(
        "{:>3} {:>9} | {:<38} | {:<38} | {:<38}",
        "N",
        "expected",
        "dpor: verdict execs blocked cpu_s",
        "cdpor: verdict execs blocked cpu_s",
        "rvf: verdict execs redund. cpu_s"
    );
    let mut ok = true;
    for &n in sizes {
        let file = dir.join(format!("{name}_{n}.c"));
        if let Err(e) = std::fs::write(&file, (fam.program)(n)) {
            println!("skipped: cannot write {}: {e}", file.display());
            return true;
        }
        // Loops run n times: the bound n + 1 unrolls them completely.
        let args: Vec<String> = ["--unwind".to_string(), (n + 1).to_string()].into();
        let runs: Vec<EngineRun> = EXPLORERS
            .iter()
            .map(|e| {
                let mut a = args.clone();
                a.extend(["--engine".to_string(), e.to_string()]);
                runs::run_verify(yogar, &a, &file, limit)
            })
            .collect();
        let want = (fam.dpor)(n);
        let dpor = &runs[0];
        let mismatch = dpor.verdict.finished() && dpor.output.executions != Some(want);
        let rvf = &runs[2];
        let rvf_mismatch = rvf.verdict.finished() && rvf.output.executions != Some((fam.rvf)(n));
        ok &= !mismatch && !rvf_mismatch;
        println!(
            "{n:>3} {want:>9} | {} | {} | {}{}{}",
            cell(&runs[0], runs[0].output.blocked),
            cell(&runs[1], runs[1].output.blocked),
            cell(&runs[2], runs[2].output.redundant),
            if mismatch {
                "   !!! dpor count differs from the number of traces"
            } else {
                ""
            },
            if rvf_mismatch {
                "   !!! rvf count differs from the number of RVF classes"
            } else {
                ""
            }
        );
    }
    ok
}

/// The seed examples: `tests/programs/paper_*.c`, found from the bench crate's manifest,
/// sorted by name.
fn seed_examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "c")
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with("paper_"))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The expected verdict (true: TRUE) and bound of a test program's first line
/// (`// expect: TRUE unwind: 2`).
fn expectation(file: &Path) -> Option<(bool, u32)> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().next()?.strip_prefix("// expect:")?;
    let mut words = line.split_whitespace();
    let verdict = match words.next()? {
        "TRUE" => true,
        "FALSE" => false,
        _ => return None,
    };
    let unwind = match (words.next(), words.next()) {
        (Some("unwind:"), Some(n)) => n.parse().ok()?,
        _ => 2,
    };
    Some((verdict, unwind))
}

/// Runs every explorer on the seed examples; false when one gives a wrong verdict.
fn seeds(yogar: &Path, limit: f64) -> bool {
    println!("-- seed examples --");
    println!(
        "{:<36} {:>6} | {:<38} | {:<38} | {:<38}",
        "program",
        "expect",
        "dpor: verdict execs blocked cpu_s",
        "cdpor: verdict execs blocked cpu_s",
        "rvf: verdict execs redund. cpu_s"
    );
    let mut ok = true;
    let mut totals = [0.0f64; 3];
    for file in seed_examples() {
        let Some((want, unwind)) = expectation(&file) else {
            continue;
        };
        let runs: Vec<EngineRun> = EXPLORERS
            .iter()
            .map(|e| {
                let a: Vec<String> = ["--unwind", &unwind.to_string(), "--engine", e]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                runs::run_verify(yogar, &a, &file, limit)
            })
            .collect();
        let wrong = runs.iter().any(|r| r.verdict.as_bool() == Some(!want));
        ok &= !wrong;
        for (t, r) in totals.iter_mut().zip(&runs) {
            *t += r.seconds();
        }
        let name = file.file_stem().and_then(|n| n.to_str()).unwrap_or("?");
        println!(
            "{name:<36} {:>6} | {} | {} | {}{}",
            if want { "TRUE" } else { "FALSE" },
            cell(&runs[0], runs[0].output.blocked),
            cell(&runs[1], runs[1].output.blocked),
            cell(&runs[2], runs[2].output.redundant),
            if wrong { "   !!! wrong verdict" } else { "" }
        );
    }
    println!(
        "{:<36} {:>6} | {:>38.3} | {:>38.3} | {:>38.3}",
        "total cpu_s", "", totals[0], totals[1], totals[2]
    );
    ok
}

/// Runs the section; false when dpor explored a number of executions other than the number
/// of Mazurkiewicz traces, or rvf one other than the number of reads-value-from classes.
pub fn run(options: &Options) -> bool {
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    println!("== explore: dpor, cdpor and rvf on scaling families, limit {limit} s CPU per run ==");
    // `--yogar PATH` when given (a before/after comparison), else the one beside the bench.
    let Some(yogar) = runs::chosen_binary(options) else {
        return true;
    };
    let dir: PathBuf =
        std::env::temp_dir().join(format!("yogar-bench-explore-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        println!("skipped: cannot create {}: {e}", dir.display());
        return true;
    }
    let quick = |s: &'static [u32]| if options.quick { &s[..2] } else { s };
    let b3 = Family {
        name: "b3",
        program: b3_program,
        dpor: |n| factorial(n as u64).pow(2),
        rvf: |_| 1,
    };
    let lock = Family {
        name: "lock_counter",
        program: lock_counter_program,
        dpor: |n| factorial(n as u64),
        rvf: |n| factorial(n as u64),
    };
    let seeds = options.quick || seeds(&yogar, limit);
    let b3 = family(&yogar, &dir, &b3, quick(&B3_SIZES), limit);
    let lock = family(&yogar, &dir, &lock, quick(&LOCK_SIZES), limit);
    let _ = std::fs::remove_dir_all(&dir);
    seeds && b3 && lock
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_name_every_thread() {
        assert!(b3_program(4).contains("int a[4];"));
        assert!(b3_program(4).contains("i < 4"));
        assert!(lock_counter_program(3).contains("counter == 3"));
        assert_eq!(factorial(4).pow(2), 576);
    }

    #[test]
    fn seed_examples_have_expectations() {
        let files = seed_examples();
        assert!(files.len() >= 10, "{files:?}");
        for f in &files {
            assert!(expectation(f).is_some(), "{}", f.display());
        }
    }
}
