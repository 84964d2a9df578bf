//! Running `yogar verify` as a child on SV-COMP tasks and reading what it printed: the part
//! every section that runs tasks shares (the task list, the CPU-limited child, the verdict and
//! `--stats` lines, medians and ratios).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use yogar::exit;
use yogar::verdict::VerdictLine;

use super::child::{run_limited, Limits};

/// The wall-clock backstop of a run, as a multiple of its CPU limit: large, because on a
/// shared machine a run may get a small share of a core, and the CPU limit is what counts.
pub const WALL_FACTOR: f64 = 10.0;

/// One task of `tasks.csv` (its name is [`BenchTask::stem`], e.g. `pthread/fib_bench-1`).
pub use yogar::svcomp::ListedTask as BenchTask;

/// The answer of one run.
#[derive(Clone, Debug, PartialEq)]
pub enum RunVerdict {
    True,
    False,
    Unknown(String),
    /// No verdict line: a crash, an error exit or a kill; the text says which.
    Failed(String),
}

impl RunVerdict {
    /// TRUE or FALSE.
    pub fn finished(&self) -> bool {
        matches!(self, RunVerdict::True | RunVerdict::False)
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            RunVerdict::True => Some(true),
            RunVerdict::False => Some(false),
            _ => None,
        }
    }

    pub fn short(&self) -> String {
        match self {
            RunVerdict::True => "TRUE".into(),
            RunVerdict::False => "FALSE".into(),
            RunVerdict::Unknown(why) if why.starts_with("timeout") => "timeout".into(),
            RunVerdict::Unknown(why) if why.starts_with("unsupported") => "unsupported".into(),
            RunVerdict::Unknown(why) if why.starts_with("unwind bound") => "unwind".into(),
            RunVerdict::Unknown(_) => "UNKNOWN".into(),
            RunVerdict::Failed(_) => "FAILED".into(),
        }
    }
}

/// What `yogar verify --stats` printed, as far as the bench reads it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunOutput {
    pub verdict: Option<RunVerdict>,
    /// Clauses of the formula the engine solved (`growth`).
    pub clauses: Option<u64>,
    /// Explorer engines: complete executions explored, and runs that ended blocked.
    pub executions: Option<u64>,
    pub blocked: Option<u64>,
    /// rvf: instances reached again along another order of adding their reads.
    pub redundant: Option<u64>,
    /// ζ's value clauses the ordering theory enforced instead (`depth`).
    pub zeta_in_theory: Option<u64>,
    /// Peak resident memory of the verifying process in MiB (`depth`).
    pub peak_mib: Option<f64>,
}

/// The arguments of a run that decides the bounded problem at `unwind` (ILP32, no unwinding
/// assertions), followed by `extra` (the engine and back end).
pub fn bounded_args(unwind: u32, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["--32", "--no-unwinding-assertions", "--unwind"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.push(unwind.to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// Reads the `--stats` lines and the verdict (the last non-empty line) of a run's stdout.
pub fn parse_output(stdout: &str) -> RunOutput {
    let mut out = RunOutput::default();
    for line in stdout.lines() {
        let Some((key, value)) = line.split_once(": ") else {
            continue;
        };
        if key == "peak memory MiB" {
            out.peak_mib = value.trim().parse().ok();
            continue;
        }
        let Ok(n) = value.trim().parse::<u64>() else {
            continue;
        };
        let slot = match key {
            "clauses" => &mut out.clauses,
            "explored executions" => &mut out.executions,
            "blocked runs" => &mut out.blocked,
            "redundant runs or instances" => &mut out.redundant,
            "zeta clauses in theory" => &mut out.zeta_in_theory,
            _ => continue,
        };
        *slot = Some(n);
    }
    out.verdict = VerdictLine::of_output(stdout).map(RunVerdict::from);
    out
}

impl From<VerdictLine> for RunVerdict {
    fn from(line: VerdictLine) -> RunVerdict {
        match line {
            VerdictLine::True => RunVerdict::True,
            VerdictLine::False(_) => RunVerdict::False,
            VerdictLine::Unknown { reason, .. } => RunVerdict::Unknown(reason),
        }
    }
}

/// The verdict line of a run that exited with `code` (`None`: a signal ended it), taken only
/// when the line and the exit code agree (`TRUE` 0, `FALSE(..)` 10, `UNKNOWN (..)` 5;
/// `src/exit.rs`). A crash, a kill or an error exit after a verdict-like line is no verdict.
pub fn agreed_verdict(stdout: &str, code: Option<i32>) -> Option<VerdictLine> {
    let line = VerdictLine::of_output(stdout)?;
    let expected = match line {
        VerdictLine::True => exit::TRUE,
        VerdictLine::False(_) => exit::FALSE,
        VerdictLine::Unknown { .. } => exit::UNKNOWN,
    };
    (code == Some(i32::from(expected))).then_some(line)
}

/// One engine on one task.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRun {
    pub verdict: RunVerdict,
    /// User + system time of the child; `None` where it cannot be measured.
    pub cpu: Option<Duration>,
    pub wall: Duration,
    pub output: RunOutput,
}

#[cfg(test)]
impl EngineRun {
    /// A run that took `secs` of CPU and wall time and printed nothing (the tables' tests).
    pub fn took(verdict: RunVerdict, secs: f64) -> EngineRun {
        EngineRun {
            verdict,
            cpu: Some(std::time::Duration::from_secs_f64(secs)),
            wall: std::time::Duration::from_secs_f64(secs),
            output: RunOutput::default(),
        }
    }
}

impl EngineRun {
    /// The CPU time, or the wall time where CPU time is not available.
    pub fn seconds(&self) -> f64 {
        self.cpu.unwrap_or(self.wall).as_secs_f64()
    }
}

/// A verdict that contradicts the expected one.
/// Runs decide the bounded problem (`--no-unwinding-assertions`): FALSE on a task that is
/// TRUE is wrong; TRUE on a task that is FALSE only says the error needs a deeper bound.
pub fn wrong(run: &EngineRun, expected: Option<bool>) -> bool {
    matches!((run.verdict.as_bool(), expected), (Some(false), Some(true)))
}

/// `a / b`, or `None` when `b` is (nearly) zero.
pub fn ratio(a: f64, b: f64) -> Option<f64> {
    (b > 1e-9).then(|| a / b)
}

/// The median (mean of the two middle values for an even count); `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

/// Reads `tasks.csv` of an sv-benchmarks checkout (input files are under `c/`).
pub fn load_tasks(svb: &Path) -> Result<Vec<BenchTask>, String> {
    yogar::svcomp::read_task_list(svb).map_err(|e| e.to_string())
}

/// A deterministic subset of `n` tasks spread over the directories: each directory gets a
/// share in round-robin turns, and its share is taken at evenly spaced positions of its
/// name-sorted list. The result is sorted by name.
pub fn spread_subset(tasks: &[BenchTask], n: usize) -> Vec<BenchTask> {
    let mut dirs: Vec<(String, Vec<&BenchTask>)> = Vec::new();
    let mut sorted: Vec<&BenchTask> = tasks.iter().collect();
    sorted.sort_by(|a, b| a.yml.cmp(&b.yml));
    for t in sorted {
        match dirs.iter_mut().find(|(d, _)| *d == t.directory) {
            Some((_, list)) => list.push(t),
            None => dirs.push((t.directory.clone(), vec![t])),
        }
    }
    dirs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut quota = vec![0usize; dirs.len()];
    let mut left = n.min(tasks.len());
    while left > 0 {
        for (q, (_, list)) in quota.iter_mut().zip(&dirs) {
            if left > 0 && *q < list.len() {
                *q += 1;
                left -= 1;
            }
        }
    }
    let mut out: Vec<BenchTask> = dirs
        .iter()
        .zip(&quota)
        .flat_map(|((_, list), &q)| (0..q).map(move |i| list[i * list.len() / q].clone()))
        .collect();
    out.sort_by(|a, b| a.yml.cmp(&b.yml));
    out
}

/// The `yogar` binary next to the running bench executable.
pub fn yogar_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe
        .parent()?
        .join(format!("yogar{}", std::env::consts::EXE_SUFFIX));
    bin.is_file().then_some(bin)
}

/// The `yogar` binary a section runs: `--yogar PATH` when given, else the one next to the
/// bench executable; `None` after printing why there is none.
pub fn chosen_binary(options: &super::Options) -> Option<PathBuf> {
    match &options.yogar {
        Some(path) if path.is_file() => Some(path.clone()),
        Some(path) => {
            println!("skipped: --yogar {} is not a file", path.display());
            None
        }
        None => {
            let found = yogar_binary();
            if found.is_none() {
                println!(
                    "skipped: no yogar binary next to the bench executable (run `make build`)"
                );
            }
            found
        }
    }
}

/// Runs `yogar verify ARGS --stats --timeout … FILE` on one file under the CPU limit
/// `limit` (a timeout when it runs out), with a large wall-clock backstop for a child that
/// sleeps; the child's CPU time is its own, so runs may go side by side.
pub fn run_verify(yogar: &Path, args: &[String], file: &Path, limit: f64) -> EngineRun {
    let mut command = Command::new(yogar);
    command
        .arg("verify")
        .args(args)
        .arg("--stats")
        .arg("--timeout")
        .arg(format!("{}", limit * WALL_FACTOR))
        .arg(file);
    let limits = Limits {
        cpu: limit,
        memory: None,
        wall: Duration::from_secs_f64(limit * (WALL_FACTOR + 2.0) + 30.0),
    };
    let ended = match run_limited(command, &limits) {
        Ok(ended) => ended,
        Err(e) => {
            return EngineRun {
                verdict: RunVerdict::Failed(format!("cannot start {}: {e}", yogar.display())),
                cpu: None,
                wall: Duration::ZERO,
                output: RunOutput::default(),
            }
        }
    };
    let mut output = parse_output(&ended.stdout);
    // A yogar without the `peak memory MiB` line (an older binary compared against, or a run
    // cut short before `--stats`): the child's peak RSS from `wait4`, helpers included.
    if output.peak_mib.is_none() && ended.max_rss > 0 {
        output.peak_mib = Some(ended.max_rss as f64 / (1024.0 * 1024.0));
    }
    // Only a verdict line the exit code confirms is a verdict (not one a kill cut short).
    output.verdict = agreed_verdict(&ended.stdout, ended.code).map(RunVerdict::from);
    let verdict = match &output.verdict {
        _ if ended.wall_killed => {
            RunVerdict::Failed(format!("killed after {:.0} s", ended.wall.as_secs_f64()))
        }
        None if ended.out_of_cpu(&limits) => RunVerdict::Unknown("timeout (CPU limit)".into()),
        Some(v) => v.clone(),
        None => {
            let last = ended.stderr.lines().rev().find(|l| !l.trim().is_empty());
            RunVerdict::Failed(format!(
                "exit {}: {}",
                ended
                    .code
                    .map_or("by signal".to_string(), |c| c.to_string()),
                last.unwrap_or("no output")
            ))
        }
    };
    EngineRun {
        verdict,
        cpu: Some(ended.cpu),
        wall: ended.wall,
        output,
    }
}

/// The sv-benchmarks checkout (resolved), the `yogar` binary and the task list, or `None`
/// after printing why the section is skipped.
pub fn setup(options: &super::Options) -> Option<(PathBuf, PathBuf, Vec<BenchTask>)> {
    let Some(svb) = yogar::svcomp::sv_benchmarks(options.svb.as_deref())
        .filter(|p| p.join("tasks.csv").is_file())
    else {
        println!(
            "skipped: no sv-benchmarks checkout with tasks.csv (give --svb PATH or SVB=..., \
             default ../shared/sv-benchmarks)"
        );
        return None;
    };
    // Resolved so task paths in messages read without `..` steps.
    let svb = svb.canonicalize().unwrap_or(svb);
    let yogar = chosen_binary(options)?;
    match load_tasks(&svb) {
        Ok(tasks) => Some((svb, yogar, tasks)),
        Err(e) => {
            println!("skipped: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stats_and_verdicts() {
        let text = "threads: 3\nclauses: 1200\nrefinements: 7\nexplored executions: 36\n\
                    blocked runs: 2\ntotal time: 0.5\nTRUE\n";
        let o = parse_output(text);
        assert_eq!(o.verdict, Some(RunVerdict::True));
        assert_eq!(o.clauses, Some(1200));
        assert_eq!((o.executions, o.blocked), (Some(36), Some(2)));

        let o = parse_output("zeta clauses in theory: 90\npeak memory MiB: 12.5\nTRUE\n");
        assert_eq!((o.zeta_in_theory, o.peak_mib), (Some(90), Some(12.5)));

        let o = parse_output("clauses: 1200\nstep 1: x = 2\nFALSE(unreach-call)\n\n");
        assert_eq!(o.verdict, Some(RunVerdict::False));
        assert_eq!(o.executions, None);

        let o = parse_output("clauses: 5\nUNKNOWN (timeout)\n");
        assert_eq!(o.verdict, Some(RunVerdict::Unknown("timeout".into())));
        assert_eq!(parse_output("yogar: error\n").verdict, None);
        assert_eq!(parse_output("").verdict, None);
    }

    #[test]
    fn a_verdict_needs_its_exit_code() {
        let code = |c: u8| Some(i32::from(c));
        assert_eq!(
            agreed_verdict("x: 1\nTRUE\n", code(exit::TRUE)),
            Some(VerdictLine::True)
        );
        assert!(agreed_verdict("FALSE(unreach-call)\n", code(exit::FALSE)).is_some());
        assert!(agreed_verdict("UNKNOWN (timeout)\n", code(exit::UNKNOWN)).is_some());
        // A crash or a kill after the line, or a line that disagrees with the code.
        assert_eq!(agreed_verdict("TRUE\n", None), None);
        assert_eq!(agreed_verdict("TRUE\n", code(exit::INTERNAL)), None);
        assert_eq!(agreed_verdict("TRUE\n", code(exit::FALSE)), None);
        assert_eq!(
            agreed_verdict("FALSE(unreach-call)\n", code(exit::TRUE)),
            None
        );
        assert_eq!(agreed_verdict("TRUE\nnoise\n", code(exit::TRUE)), None);
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn subset_is_spread_and_deterministic() {
        let mk = |dir: &str, i: usize| BenchTask {
            yml: format!("{dir}/t{i:02}.yml"),
            yml_path: PathBuf::from(format!("{dir}/t{i:02}.yml")),
            directory: dir.into(),
            input: PathBuf::from(format!("{dir}/t{i:02}.i")),
            expected: Some(true),
        };
        let mut tasks: Vec<BenchTask> = (0..20).map(|i| mk("big", i)).collect();
        tasks.extend((0..2).map(|i| mk("small", i)));
        tasks.extend((0..6).map(|i| mk("mid", i)));
        let s = spread_subset(&tasks, 8);
        assert_eq!(s.len(), 8);
        assert_eq!(s, spread_subset(&tasks, 8));
        let in_dir = |d: &str| s.iter().filter(|t| t.directory == d).count();
        assert_eq!((in_dir("big"), in_dir("mid"), in_dir("small")), (3, 3, 2));
        // Spread within a directory, not its first names.
        let big: Vec<&str> = s
            .iter()
            .filter(|t| t.directory == "big")
            .map(|t| t.stem())
            .collect();
        assert_eq!(big, vec!["big/t00", "big/t06", "big/t13"]);
        assert_eq!(spread_subset(&tasks, 100).len(), tasks.len());
    }
}
