//! `yogar-bench` (`make bench`): timings that decide defaults. One module per section; it runs
//! the sections named on its command line, or all of them. A crate of its own, beside the
//! product: it draws formulas from `cnf-gen` and runs the `yogar` binary as a child.
//!
//! Sections: `solvers` (every SAT back end on the same generated formulas), `engines` (every
//! engine configuration on the shared SV-COMP tasks and a deep-bound set) and `growth` (CPU,
//! clauses and peak memory against the unwind bound and the thread count, of two binaries or
//! of the default and the monolithic engine) and
//! `rsmc` (the POWER explorer on the SB+kW family), and `races` (the default engine under
//! no-data-race against unreach-call on the shared tasks: the median CPU ratio must stay ≤ 2),
//! and `depth` (issue #27: the default engine against the monolithic one on CaDiCaL and batsat
//! on the deep-bound set, with the total CPU ratio, and the largest equations;
//! `make bench ARGS=depth`). `growth` compares two binaries with `--before PATH`.
//!
//! `yogar-bench regress ...` (`make regress`) is the SV-COMP regression runner instead, with
//! a command line of its own (`regress --help`), and `yogar-bench agree ...` (`make agree`)
//! the agreement check of the SAT engine and the explorers on those tasks (`agree --help`),
//! and `yogar-bench explore-gen ...` the explorers on generated programs against the default
//! engine (`explore-gen --help`).

mod agree;
mod child;
mod counters_family;
mod depth;
mod engines;
mod explore;
mod explore_gen;
mod growth;
mod prove;
mod races;
mod regress;
mod rsmc;
mod runs;
mod solvers;
mod thread_families;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The sections, in the order they run.
pub const SECTIONS: &[&str] = &[
    "solvers", "engines", "races", "growth", "explore", "rsmc", "prove", "depth",
];

/// How to run the sections.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Small instances, for a smoke test of the bench itself.
    pub quick: bool,
    /// Only workloads whose name contains this text.
    pub only: Option<String>,
    /// Only these back ends (all when empty).
    pub solvers: Vec<String>,
    /// `engines`: the sv-benchmarks checkout (default: found beside the repository).
    pub svb: Option<PathBuf>,
    /// `engines`: only tasks whose name contains this text.
    pub filter: Option<String>,
    /// `engines`: seconds per engine run.
    pub limit: Option<f64>,
    /// `engines`: how many tasks (a deterministic subset spread over directories).
    pub tasks: Option<usize>,
    /// `engines`: every task.
    pub all: bool,
    /// `engines`: the loop bound (default 2).
    pub unwind: Option<u32>,
    /// `engines`: tasks run side by side (default 1; CPU times stay per run).
    pub jobs: Option<usize>,
    /// The `yogar` binary to run (default: the one next to the bench executable).
    pub yogar: Option<PathBuf>,
    /// `growth`: a second binary, printed as the `before` column beside `--yogar`'s `after`.
    pub before: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The regression runner and the agreement check have command lines of their own.
    let section: Option<fn(&[String], &mut regress::Log) -> u8> =
        match args.first().map(String::as_str) {
            Some("regress") => Some(regress::run),
            Some("agree") => Some(agree::run),
            Some("explore-gen") => Some(explore_gen::run),
            _ => None,
        };
    if let Some(section) = section {
        let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
        return ExitCode::from(section(
            &args[1..],
            &mut regress::Log {
                out: &mut out,
                err: &mut err,
            },
        ));
    }
    ExitCode::from(run(&args))
}

/// The command line of `yogar-bench`:
/// `yogar-bench [--solvers-only | SECTION...] [--quick] [--only TEXT] [--solver NAME]...
/// [--svb PATH] [--filter TEXT] [--limit SECONDS] [--tasks N] [--all] [--unwind N] [--jobs N]
/// [--yogar PATH] [--before PATH]`.
/// Returns the process exit code (0; 1 when the engines disagreed on a verdict; 2 for a bad
/// argument).
fn run(args: &[String]) -> u8 {
    let mut sections = Vec::new();
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--solvers-only" => sections.push("solvers"),
            "--quick" => options.quick = true,
            "--only" => match args.next() {
                Some(text) => options.only = Some(text.clone()),
                None => {
                    eprintln!("yogar-bench: error: --only needs a text");
                    return 2;
                }
            },
            "--solver" => match args.next() {
                Some(name) => options.solvers.push(name.clone()),
                None => {
                    eprintln!("yogar-bench: error: --solver needs a name");
                    return 2;
                }
            },
            "--all" => options.all = true,
            "--svb" | "--filter" | "--limit" | "--tasks" | "--unwind" | "--jobs" | "--yogar"
            | "--before" => {
                let Some(value) = args.next() else {
                    eprintln!("yogar-bench: error: {arg} needs a value");
                    return 2;
                };
                match arg.as_str() {
                    "--svb" => options.svb = Some(PathBuf::from(value)),
                    "--yogar" => options.yogar = Some(PathBuf::from(value)),
                    "--before" => options.before = Some(PathBuf::from(value)),
                    "--filter" => options.filter = Some(value.clone()),
                    "--limit" => {
                        match value.parse::<f64>() {
                            Ok(t) if t > 0.0 && t.is_finite() => options.limit = Some(t),
                            _ => {
                                eprintln!("yogar-bench: error: --limit needs a positive number of seconds");
                                return 2;
                            }
                        }
                    }
                    "--unwind" => match value.parse::<u32>() {
                        Ok(n) => options.unwind = Some(n),
                        _ => {
                            eprintln!("yogar-bench: error: --unwind needs a count");
                            return 2;
                        }
                    },
                    _ => match value.parse::<usize>() {
                        Ok(n) if n > 0 && arg == "--jobs" => options.jobs = Some(n),
                        Ok(n) if n > 0 => options.tasks = Some(n),
                        _ => {
                            eprintln!("yogar-bench: error: {arg} needs a positive count");
                            return 2;
                        }
                    },
                }
            }
            "-h" | "--help" => {
                println!(
                    "usage: yogar-bench [--solvers-only | SECTION...] [--quick] [--only TEXT] \
                     [--solver NAME]... [--svb PATH] [--filter TEXT] [--limit SECONDS] \
                     [--tasks N] [--all] [--unwind N] [--jobs N] [--yogar PATH] [--before PATH]\n\
                     sections: {}\n\
                     yogar-bench regress --help: the SV-COMP regression (make regress)\n\
                     yogar-bench agree --help: SAT engine and explorers agree (make agree)\n\
                     yogar-bench explore-gen --help: explorers on generated programs\n\
                     engines: {} tasks spread over directories by default (all matching with \
                     --filter), {} s per engine run",
                    SECTIONS.join(", "),
                    engines::DEFAULT_TASKS,
                    engines::DEFAULT_LIMIT
                );
                return 0;
            }
            name => match SECTIONS.iter().find(|s| **s == name) {
                Some(s) => sections.push(s),
                None => {
                    eprintln!(
                        "yogar-bench: error: unknown section '{name}' (known: {})",
                        SECTIONS.join(", ")
                    );
                    return 2;
                }
            },
        }
    }
    if sections.is_empty() {
        sections.extend_from_slice(SECTIONS);
    }
    let mut code = 0;
    for section in sections {
        let agreed = match section {
            "solvers" => {
                solvers::run(&options);
                true
            }
            "engines" => engines::run(&options),
            "races" => races::run(&options),
            "explore" => explore::run(&options),
            "growth" => {
                growth::run(&options);
                true
            }
            "rsmc" => rsmc::run(&options),
            "prove" => {
                prove::run(&options);
                true
            }
            "depth" => {
                depth::run(&options);
                true
            }
            _ => true,
        };
        if !agreed {
            code = 1;
        }
    }
    code
}

/// CPU time (user + system) of this process so far, all threads included, from
/// `/proc/self/stat` (10 ms resolution); `None` where that file does not exist.
pub fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; fields are counted after its ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    // Linux reports these in USER_HZ, which is 100 on every architecture it runs on.
    Some(Duration::from_millis((utime + stime) * 10))
}
