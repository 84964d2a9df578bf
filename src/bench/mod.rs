//! `make bench`: timings that decide defaults. One module per section; `yogar-bench` runs the
//! sections named on its command line, or all of them.
//!
//! Sections so far: `solvers` (every SAT back end on the same generated formulas). Engine
//! benchmarks are meant to become further sections beside it.

pub mod solvers;

use std::time::Duration;

/// The sections, in the order they run.
pub const SECTIONS: &[&str] = &["solvers"];

/// How to run the sections.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Small instances, for a smoke test of the bench itself.
    pub quick: bool,
    /// Only workloads whose name contains this text.
    pub only: Option<String>,
    /// Only these back ends (all when empty).
    pub solvers: Vec<String>,
}

/// Entry point of `yogar-bench`:
/// `yogar-bench [--solvers-only | SECTION...] [--quick] [--only TEXT] [--solver NAME]...`.
/// Returns the process exit code (0, or 2 for a bad argument).
pub fn main(args: &[String]) -> u8 {
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
            "-h" | "--help" => {
                println!(
                    "usage: yogar-bench [--solvers-only | SECTION...] [--quick] [--only TEXT] \
                     [--solver NAME]...\n\
                     sections: {}",
                    SECTIONS.join(", ")
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
    for section in sections {
        if section == "solvers" {
            solvers::run(&options);
        }
    }
    0
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
