//! Section `engines`: the Yogar engine (scheduling-constraint abstraction refinement) against
//! the monolithic engine (the exact encoding with ξ, one solve) on the shared SV-COMP tasks.
//!
//! Each engine runs as a child `yogar verify --32 --unwind 2 --no-unwinding-assertions
//! --engine E --stats` under a CPU limit (`--unwind` adjustable; `--jobs N` runs N tasks side
//! by side), so a crash or a runaway task costs one row, and each child's own CPU time is
//! measured by the kernel. Both engines decide the same bounded problem, so both give TRUE or
//! FALSE wherever they finish. The table gives per task verdicts, CPU seconds, refinements and
//! clause counts; the summary gives medians, total CPU ratios and verdict checks. A TRUE/FALSE
//! disagreement between the engines means one verdict is wrong: it is printed loudly and fails
//! the bench.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::Options;

/// Tasks taken by default (without `--all`, `--tasks` or `--filter`).
pub const DEFAULT_TASKS: usize = 40;
/// Tasks taken with `--quick`.
pub const QUICK_TASKS: usize = 4;
/// Seconds per engine run by default.
pub const DEFAULT_LIMIT: f64 = 10.0;
/// Monolithic CPU time above which a task counts as hard for the restricted ratio.
pub const HARD_SECONDS: f64 = 2.0;
/// Loop bound of every run by default.
pub const DEFAULT_UNWIND: u32 = 2;

/// The two engines, by their `--engine` names.
pub const ENGINES: [&str; 2] = ["yogar", "monolithic"];

/// One task of `tasks.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchTask {
    /// The task's yml path without `.yml`, e.g. `pthread/fib_bench-1`.
    pub name: String,
    pub directory: String,
    /// The C file to verify.
    pub input: PathBuf,
    /// The expected unreach-call verdict (`true`: no error reachable).
    pub expected: Option<bool>,
}

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

    fn as_bool(&self) -> Option<bool> {
        match self {
            RunVerdict::True => Some(true),
            RunVerdict::False => Some(false),
            _ => None,
        }
    }

    fn short(&self) -> String {
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
    pub clauses: Option<u64>,
    pub refinements: Option<u64>,
    pub refinement_clauses: Option<u64>,
    pub xi_clauses: Option<u64>,
    /// Only printed by newer `verify --stats` for the Yogar engine.
    pub phi0_clauses: Option<u64>,
    pub monolithic_xi_clauses: Option<u64>,
}

impl RunOutput {
    /// Clauses of the formula solved first: φ0 for the Yogar engine (printed, or else the final
    /// count less the refinement clauses), the whole formula for the monolithic one.
    pub fn first_formula_clauses(&self) -> Option<u64> {
        self.phi0_clauses.or_else(|| {
            let total = self.clauses?;
            Some(total.saturating_sub(self.refinement_clauses.unwrap_or(0)))
        })
    }
}

/// Reads the `--stats` lines and the verdict (the last non-empty line) of a run's stdout.
pub fn parse_output(stdout: &str) -> RunOutput {
    let mut out = RunOutput::default();
    for line in stdout.lines() {
        let Some((key, value)) = line.split_once(": ") else {
            continue;
        };
        let Ok(n) = value.trim().parse::<u64>() else {
            continue;
        };
        let slot = match key {
            "clauses" => &mut out.clauses,
            "refinements" => &mut out.refinements,
            "refinement clauses" => &mut out.refinement_clauses,
            "xi clauses" => &mut out.xi_clauses,
            "phi0 clauses" => &mut out.phi0_clauses,
            "monolithic xi clauses" => &mut out.monolithic_xi_clauses,
            _ => continue,
        };
        *slot = Some(n);
    }
    let last = stdout.lines().rev().map(str::trim).find(|l| !l.is_empty());
    out.verdict = last.and_then(|l| {
        if l == "TRUE" {
            Some(RunVerdict::True)
        } else if l.starts_with("FALSE") {
            Some(RunVerdict::False)
        } else if let Some(rest) = l.strip_prefix("UNKNOWN") {
            let why = rest.trim().trim_start_matches('(').trim_end_matches(')');
            Some(RunVerdict::Unknown(why.to_string()))
        } else {
            None
        }
    });
    out
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

impl EngineRun {
    /// The CPU time, or the wall time where CPU time is not available.
    pub fn seconds(&self) -> f64 {
        self.cpu.unwrap_or(self.wall).as_secs_f64()
    }
}

/// Both engines on one task.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskRow {
    pub task: String,
    pub expected: Option<bool>,
    pub yogar: EngineRun,
    pub monolithic: EngineRun,
}

impl TaskRow {
    pub fn both_finished(&self) -> bool {
        self.yogar.verdict.finished() && self.monolithic.verdict.finished()
    }

    /// One engine says TRUE, the other FALSE.
    pub fn disagrees(&self) -> bool {
        matches!(
            (self.yogar.verdict.as_bool(), self.monolithic.verdict.as_bool()),
            (Some(a), Some(b)) if a != b
        )
    }

    /// φ0 clauses over monolithic clauses, each pair from one counter: φ0 over φ0 + ξ when the
    /// Yogar run printed both (encoder counts), else the solver's counts of both runs (Yogar's
    /// final count less its refinement clauses).
    pub fn clause_ratio(&self) -> Option<f64> {
        let y = &self.yogar.output;
        let (phi0, mono) = match (y.phi0_clauses, y.monolithic_xi_clauses) {
            (Some(p), Some(xi)) => (p, p + xi),
            _ => {
                let total = y.clauses?;
                (
                    total.saturating_sub(y.refinement_clauses.unwrap_or(0)),
                    self.monolithic.output.clauses?,
                )
            }
        };
        ratio(phi0 as f64, mono as f64)
    }

    /// Monolithic CPU over Yogar CPU, when both finished.
    pub fn cpu_ratio(&self) -> Option<f64> {
        if !self.both_finished() {
            return None;
        }
        ratio(self.monolithic.seconds(), self.yogar.seconds())
    }
}

/// A verdict that contradicts the expected one.
/// Runs decide the bounded problem (`--no-unwinding-assertions`): FALSE on a task that is
/// TRUE is wrong; TRUE on a task that is FALSE only says the error needs a deeper bound.
fn wrong(run: &EngineRun, expected: Option<bool>) -> bool {
    matches!((run.verdict.as_bool(), expected), (Some(false), Some(true)))
}

/// `a / b`, or `None` when `b` is (nearly) zero.
fn ratio(a: f64, b: f64) -> Option<f64> {
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

/// The numbers under the table, all computed from the rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub tasks: usize,
    pub both_finished: usize,
    pub yogar_finished: usize,
    pub monolithic_finished: usize,
    /// Medians over the tasks both finished.
    pub median_cpu_yogar: Option<f64>,
    pub median_cpu_monolithic: Option<f64>,
    /// Median of φ0 / monolithic clauses over the tasks both finished.
    pub median_clause_ratio: Option<f64>,
    pub total_cpu_yogar: f64,
    pub total_cpu_monolithic: f64,
    /// Monolithic / Yogar total CPU over the tasks both finished.
    pub total_cpu_ratio: Option<f64>,
    /// The same restricted to those where the monolithic engine needs more than [`HARD_SECONDS`].
    pub hard_tasks: usize,
    pub hard_cpu_ratio: Option<f64>,
    /// Tasks where only one engine finished.
    pub only_yogar: usize,
    pub only_monolithic: usize,
    pub wrong_yogar: usize,
    pub wrong_monolithic: usize,
    /// Tasks where the engines gave TRUE and FALSE.
    pub disagreements: Vec<String>,
    /// How many runs of each engine ended how (TRUE, FALSE, timeout, unwind, ...), by label.
    pub outcomes_yogar: Vec<(String, usize)>,
    pub outcomes_monolithic: Vec<(String, usize)>,
}

/// Counts of each verdict label, sorted by label.
fn tally<'a>(runs: impl Iterator<Item = &'a EngineRun>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for run in runs {
        let label = run.verdict.short();
        match counts.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => counts.push((label, 1)),
        }
    }
    counts.sort();
    counts
}

pub fn summarize(rows: &[TaskRow], hard_seconds: f64) -> Summary {
    let both: Vec<&TaskRow> = rows.iter().filter(|r| r.both_finished()).collect();
    let cpu_y: Vec<f64> = both.iter().map(|r| r.yogar.seconds()).collect();
    let cpu_m: Vec<f64> = both.iter().map(|r| r.monolithic.seconds()).collect();
    let clause_ratios: Vec<f64> = both.iter().filter_map(|r| r.clause_ratio()).collect();
    // Folded from +0.0: an empty float `sum()` is -0.0, which would print as "-0.00".
    let total = |v: &[f64]| v.iter().fold(0.0, |a, b| a + b);
    let (total_y, total_m) = (total(&cpu_y), total(&cpu_m));
    let hard: Vec<&&TaskRow> = both
        .iter()
        .filter(|r| r.monolithic.seconds() > hard_seconds)
        .collect();
    let hard_y = hard.iter().fold(0.0, |a, r| a + r.yogar.seconds());
    let hard_m = hard.iter().fold(0.0, |a, r| a + r.monolithic.seconds());
    let fin = |f: fn(&TaskRow) -> &EngineRun| rows.iter().filter(move |r| f(r).verdict.finished());
    Summary {
        tasks: rows.len(),
        both_finished: both.len(),
        yogar_finished: fin(|r| &r.yogar).count(),
        monolithic_finished: fin(|r| &r.monolithic).count(),
        median_cpu_yogar: median(&cpu_y),
        median_cpu_monolithic: median(&cpu_m),
        median_clause_ratio: median(&clause_ratios),
        total_cpu_yogar: total_y,
        total_cpu_monolithic: total_m,
        total_cpu_ratio: ratio(total_m, total_y),
        hard_tasks: hard.len(),
        hard_cpu_ratio: if hard.is_empty() {
            None
        } else {
            ratio(hard_m, hard_y)
        },
        only_yogar: fin(|r| &r.yogar)
            .filter(|r| !r.monolithic.verdict.finished())
            .count(),
        only_monolithic: fin(|r| &r.monolithic)
            .filter(|r| !r.yogar.verdict.finished())
            .count(),
        wrong_yogar: rows.iter().filter(|r| wrong(&r.yogar, r.expected)).count(),
        wrong_monolithic: rows
            .iter()
            .filter(|r| wrong(&r.monolithic, r.expected))
            .count(),
        disagreements: rows
            .iter()
            .filter(|r| r.disagrees())
            .map(|r| r.task.clone())
            .collect(),
        outcomes_yogar: tally(rows.iter().map(|r| &r.yogar)),
        outcomes_monolithic: tally(rows.iter().map(|r| &r.monolithic)),
    }
}

/// Reads `tasks.csv` of an sv-benchmarks checkout (input files are under `c/`).
pub fn load_tasks(svb: &Path) -> Result<Vec<BenchTask>, String> {
    let path = svb.join("tasks.csv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .ok_or_else(|| format!("{}: empty", path.display()))?
        .split(',')
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| format!("{}: no column '{name}'", path.display()))
    };
    let (c_yml, c_input, c_verdict, c_dir) = (
        col("yml")?,
        col("input_file")?,
        col("expected_verdict")?,
        col("directory")?,
    );
    let mut tasks = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let row: Vec<&str> = line.split(',').map(str::trim).collect();
        let field = |i: usize| {
            row.get(i)
                .copied()
                .ok_or_else(|| format!("{}: short row '{line}'", path.display()))
        };
        let yml = field(c_yml)?;
        tasks.push(BenchTask {
            name: yml.strip_suffix(".yml").unwrap_or(yml).to_string(),
            directory: field(c_dir)?.to_string(),
            input: svb.join("c").join(field(c_input)?),
            expected: match field(c_verdict)? {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
        });
    }
    Ok(tasks)
}

/// A deterministic subset of `n` tasks spread over the directories: each directory gets a
/// share in round-robin turns, and its share is taken at evenly spaced positions of its
/// name-sorted list. The result is sorted by name.
pub fn spread_subset(tasks: &[BenchTask], n: usize) -> Vec<BenchTask> {
    let mut dirs: Vec<(String, Vec<&BenchTask>)> = Vec::new();
    let mut sorted: Vec<&BenchTask> = tasks.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
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
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The `yogar` binary next to the running bench executable.
fn yogar_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe
        .parent()?
        .join(format!("yogar{}", std::env::consts::EXE_SUFFIX));
    bin.is_file().then_some(bin)
}

/// A reaped child: its exit code (`None` after a signal), whether the CPU limit ended it
/// (`SIGXCPU`), and its CPU time.
type Ended = (Option<i32>, bool, Option<Duration>);

/// Reaps the child `pid` if it has ended (what [`Ended`] says, with the child's own user +
/// system CPU time). `Ok(None)` while it runs.
fn wait_child(pid: libc::pid_t) -> Result<Option<Ended>, ()> {
    let mut status = 0;
    // SAFETY: `wait4` only writes the status and the zeroed plain-data rusage it is given.
    let (r, usage) = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let r = libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage);
        (r, usage)
    };
    match r {
        0 => Ok(None),
        r if r == pid => {
            let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
            let cpu = Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime));
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            let xcpu = libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGXCPU;
            Ok(Some((code, xcpu, Some(cpu))))
        }
        _ => Err(()),
    }
}

/// Runs one engine on one file. The child's CPU time is its own (from `wait4`), so runs may
/// go side by side; `RLIMIT_CPU` ends it at the limit (a timeout), and it is killed if it
/// outlives the limit by far in wall-clock time.
fn run_engine(yogar: &Path, engine: &str, file: &Path, limit: f64, unwind: u32) -> EngineRun {
    use std::os::unix::process::CommandExt;
    let started = Instant::now();
    // The limit is CPU time, as in SV-COMP, so that runs side by side (or a busy machine)
    // do not shorten it: RLIMIT_CPU ends the child; `--timeout` (wall clock) is only a
    // backstop for a child that sleeps.
    let cpu_cap = limit.ceil() as libc::rlim_t;
    let mut command = Command::new(yogar);
    command
        .args(["verify", "--32", "--unwind", &unwind.to_string()])
        .args(["--engine", engine, "--stats", "--no-unwinding-assertions"])
        .arg("--timeout")
        .arg(format!("{}", limit * 3.0))
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only `setrlimit` runs between fork and exec; it is async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            let rl = libc::rlimit {
                rlim_cur: cpu_cap,
                rlim_max: cpu_cap + 5,
            };
            libc::setrlimit(libc::RLIMIT_CPU, &rl);
            Ok(())
        });
    }
    let child = command.spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return EngineRun {
                verdict: RunVerdict::Failed(format!("cannot start {}: {e}", yogar.display())),
                cpu: None,
                wall: started.elapsed(),
                output: RunOutput::default(),
            }
        }
    };
    // Pipes are drained on threads so a chatty child cannot block on a full pipe.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut s);
            }
            s
        })
    };
    let out_thread = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let err_thread = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let hard_limit = Duration::from_secs_f64(limit * 4.0 + 10.0);
    let mut killed = false;
    let pid = child.id() as libc::pid_t;
    let (status, out_of_cpu, cpu) = loop {
        match wait_child(pid) {
            Ok(Some(done)) => break done,
            Ok(None) if started.elapsed() > hard_limit && !killed => {
                let _ = child.kill();
                killed = true;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(()) => break (None, false, None),
        }
    };
    let wall = started.elapsed();
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    let output = parse_output(&stdout);
    let verdict = match (&output.verdict, killed) {
        (_, true) => RunVerdict::Failed(format!("killed after {:.0} s", wall.as_secs_f64())),
        (None, false) if out_of_cpu => RunVerdict::Unknown("timeout (CPU limit)".into()),
        (Some(v), false) => v.clone(),
        (None, false) => {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
            RunVerdict::Failed(format!(
                "exit {}: {}",
                status.map_or("by signal".to_string(), |c| c.to_string()),
                last.unwrap_or("no output")
            ))
        }
    };
    EngineRun {
        verdict,
        cpu,
        wall,
        output,
    }
}

fn opt_u64(v: Option<u64>) -> String {
    v.map_or("-".into(), |n| n.to_string())
}

fn opt_f(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.digits$}"))
}

fn expected_str(e: Option<bool>) -> &'static str {
    match e {
        Some(true) => "true",
        Some(false) => "false",
        None => "?",
    }
}

fn verdict_cell(run: &EngineRun, expected: Option<bool>) -> String {
    let mut s = run.verdict.short();
    if wrong(run, expected) {
        s.push_str("(WRONG)");
    }
    s
}

const HEADER: &str = "task                                             exp   | yogar verdict   cpu s  refs  phi0 cl | monolithic      cpu s  clauses | m/y cpu";

fn row_line(r: &TaskRow) -> String {
    let name: String = if r.task.len() > 48 {
        format!("..{}", &r.task[r.task.len() - 46..])
    } else {
        r.task.clone()
    };
    format!(
        "{name:<48} {:<5} | {:<13} {:>7.3} {:>5} {:>8} | {:<13} {:>7.3} {:>8} | {:>7}",
        expected_str(r.expected),
        verdict_cell(&r.yogar, r.expected),
        r.yogar.seconds(),
        opt_u64(r.yogar.output.refinements),
        opt_u64(r.yogar.output.first_formula_clauses()),
        verdict_cell(&r.monolithic, r.expected),
        r.monolithic.seconds(),
        opt_u64(r.monolithic.output.clauses),
        opt_f(r.cpu_ratio(), 2),
    )
}

/// The summary as printed under the table.
pub fn render_summary(s: &Summary, hard_seconds: f64) -> String {
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line(format!(
        "tasks: {}  both finished: {}  yogar finished: {}  monolithic finished: {}  \
         only yogar: {}  only monolithic: {}",
        s.tasks,
        s.both_finished,
        s.yogar_finished,
        s.monolithic_finished,
        s.only_yogar,
        s.only_monolithic
    ));
    let outcomes = |counts: &[(String, usize)]| {
        counts
            .iter()
            .map(|(label, n)| format!("{label} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    line(format!("yogar outcomes: {}", outcomes(&s.outcomes_yogar)));
    line(format!(
        "monolithic outcomes: {}",
        outcomes(&s.outcomes_monolithic)
    ));
    line(format!(
        "median CPU s (both finished): yogar {}  monolithic {}",
        opt_f(s.median_cpu_yogar, 3),
        opt_f(s.median_cpu_monolithic, 3)
    ));
    line(format!(
        "median phi0 / monolithic clauses: {}",
        opt_f(s.median_clause_ratio, 3)
    ));
    line(format!(
        "total CPU s (both finished): yogar {:.2}  monolithic {:.2}  ratio monolithic/yogar {}",
        s.total_cpu_yogar,
        s.total_cpu_monolithic,
        opt_f(s.total_cpu_ratio, 2)
    ));
    line(format!(
        "ratio monolithic/yogar on the {} tasks where monolithic needs > {hard_seconds} s: {}",
        s.hard_tasks,
        opt_f(s.hard_cpu_ratio, 2)
    ));
    line(format!(
        "wrong verdicts (vs tasks.csv): yogar {}  monolithic {}",
        s.wrong_yogar, s.wrong_monolithic
    ));
    if s.disagreements.is_empty() {
        line("engine disagreements (TRUE vs FALSE): 0".into());
    } else {
        line(format!(
            "!!! ENGINE DISAGREEMENTS (TRUE vs FALSE) on {} task(s): {} — one verdict is wrong",
            s.disagreements.len(),
            s.disagreements.join(", ")
        ));
    }
    out
}

/// Runs the section; returns false when the engines disagreed on some task.
pub fn run(options: &Options) -> bool {
    let unwind = options.unwind.unwrap_or(DEFAULT_UNWIND);
    println!("== engines: yogar vs monolithic (--32 --unwind {unwind}) ==");
    let Some(svb) = yogar::svcomp::sv_benchmarks(options.svb.as_deref())
        .filter(|p| p.join("tasks.csv").is_file())
    else {
        println!(
            "skipped: no sv-benchmarks checkout with tasks.csv (give --svb PATH or SVB=..., \
             default ../shared/sv-benchmarks)"
        );
        return true;
    };
    // Resolved so task paths in messages read without `..` steps.
    let svb = svb.canonicalize().unwrap_or(svb);
    let Some(yogar) = yogar_binary() else {
        println!("skipped: no yogar binary next to the bench executable (run `make build`)");
        return true;
    };
    let all = match load_tasks(&svb) {
        Ok(t) => t,
        Err(e) => {
            println!("skipped: {e}");
            return true;
        }
    };
    let filtered: Vec<BenchTask> = all
        .into_iter()
        .filter(|t| options.filter.as_ref().is_none_or(|f| t.name.contains(f)))
        .collect();
    let count = match (options.all, options.tasks, &options.filter) {
        (true, _, _) => filtered.len(),
        (false, Some(n), _) => n,
        (false, None, Some(_)) => filtered.len(),
        (false, None, None) if options.quick => QUICK_TASKS,
        (false, None, None) => DEFAULT_TASKS,
    };
    let tasks = spread_subset(&filtered, count);
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    println!(
        "{} of {} tasks from {}, limit {limit} s CPU per engine run, CPU = user+sys of the child",
        tasks.len(),
        filtered.len(),
        svb.display()
    );
    println!("{HEADER}");
    let jobs = options.jobs.unwrap_or(1).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    let mut rows = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(tasks.len()) {
            let send = send.clone();
            let (next, tasks, yogar) = (&next, &tasks, &yogar);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(t) = tasks.get(k) else { break };
                let mut runs = ENGINES
                    .iter()
                    .map(|e| run_engine(yogar, e, &t.input, limit, unwind));
                let (Some(y), Some(m)) = (runs.next(), runs.next()) else {
                    continue;
                };
                let row = TaskRow {
                    task: t.name.clone(),
                    expected: t.expected,
                    yogar: y,
                    monolithic: m,
                };
                if send.send(row).is_err() {
                    break;
                }
            });
        }
        drop(send);
        for row in receive {
            print_row(&row);
            rows.push(row);
        }
    });
    let summary = summarize(&rows, HARD_SECONDS);
    println!("-- summary --");
    print!("{}", render_summary(&summary, HARD_SECONDS));
    summary.disagreements.is_empty()
}

/// A task's line, and below it what went wrong or needs a look.
fn print_row(row: &TaskRow) {
    println!("{}", row_line(row));
    for (engine, run) in [("yogar", &row.yogar), ("monolithic", &row.monolithic)] {
        match &run.verdict {
            RunVerdict::Failed(why) => println!("    {engine}: {why}"),
            RunVerdict::Unknown(why)
                if !why.starts_with("timeout") && !why.starts_with("unwind bound") =>
            {
                println!("    {engine}: UNKNOWN ({why})")
            }
            _ => {}
        }
    }
    if row.disagrees() {
        println!(
            "    !!! DISAGREEMENT: the engines gave TRUE and FALSE on {}",
            row.task
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(verdict: RunVerdict, secs: f64, clauses: u64) -> EngineRun {
        EngineRun {
            verdict,
            cpu: Some(Duration::from_secs_f64(secs)),
            wall: Duration::from_secs_f64(secs + 1.0),
            output: RunOutput {
                clauses: Some(clauses),
                ..RunOutput::default()
            },
        }
    }

    fn row(task: &str, expected: bool, y: EngineRun, m: EngineRun) -> TaskRow {
        TaskRow {
            task: task.into(),
            expected: Some(expected),
            yogar: y,
            monolithic: m,
        }
    }

    #[test]
    fn parses_stats_and_verdicts() {
        let text = "threads: 3\nclauses: 1200\nzeta clauses: 40\nxi clauses: 0\n\
                    refinements: 7\nrefinement clauses: 200\nphi0 clauses: 950\n\
                    monolithic xi clauses: 3000\ntotal time: 0.5\nTRUE\n";
        let o = parse_output(text);
        assert_eq!(o.verdict, Some(RunVerdict::True));
        assert_eq!(o.clauses, Some(1200));
        assert_eq!(o.refinements, Some(7));
        assert_eq!(o.xi_clauses, Some(0));
        assert_eq!(o.phi0_clauses, Some(950));
        assert_eq!(o.monolithic_xi_clauses, Some(3000));
        assert_eq!(o.first_formula_clauses(), Some(950));

        // Without a phi0 line, φ0 is the final count less the refinement clauses.
        let o = parse_output(
            "clauses: 1200\nrefinement clauses: 200\nstep 1: x = 2\nFALSE(unreach-call)\n\n",
        );
        assert_eq!(o.verdict, Some(RunVerdict::False));
        assert_eq!(o.phi0_clauses, None);
        assert_eq!(o.first_formula_clauses(), Some(1000));

        let o = parse_output("clauses: 5\nUNKNOWN (timeout)\n");
        assert_eq!(o.verdict, Some(RunVerdict::Unknown("timeout".into())));
        assert_eq!(parse_output("yogar: error\n").verdict, None);
        assert_eq!(parse_output("").verdict, None);
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn summary_ratios_and_disagreements() {
        let rows = vec![
            // Both finish; monolithic slow (hard).
            row(
                "a",
                true,
                run(RunVerdict::True, 1.0, 100),
                run(RunVerdict::True, 4.0, 400),
            ),
            // Both finish; monolithic fast.
            row(
                "b",
                false,
                run(RunVerdict::False, 0.5, 50),
                run(RunVerdict::False, 1.0, 200),
            ),
            // Both finish, hard, and disagree: yogar's FALSE contradicts expected true.
            row(
                "c",
                true,
                run(RunVerdict::False, 2.0, 10),
                run(RunVerdict::True, 6.0, 20),
            ),
            // Monolithic times out: not in the ratios.
            row(
                "d",
                true,
                run(RunVerdict::True, 3.0, 30),
                run(RunVerdict::Unknown("timeout".into()), 10.0, 300),
            ),
        ];
        let s = summarize(&rows, 2.0);
        assert_eq!(s.tasks, 4);
        assert_eq!(s.both_finished, 3);
        assert_eq!(s.yogar_finished, 4);
        assert_eq!(s.monolithic_finished, 3);
        assert_eq!(s.only_yogar, 1);
        assert_eq!(s.only_monolithic, 0);
        assert_eq!(s.median_cpu_yogar, Some(1.0));
        assert_eq!(s.median_cpu_monolithic, Some(4.0));
        // Clause ratios 0.25, 0.25, 0.5.
        assert_eq!(s.median_clause_ratio, Some(0.25));
        assert!((s.total_cpu_yogar - 3.5).abs() < 1e-9);
        assert!((s.total_cpu_monolithic - 11.0).abs() < 1e-9);
        assert!((s.total_cpu_ratio.unwrap() - 11.0 / 3.5).abs() < 1e-9);
        assert_eq!(s.hard_tasks, 2);
        assert!((s.hard_cpu_ratio.unwrap() - 10.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.wrong_yogar, 1);
        assert_eq!(s.wrong_monolithic, 0);
        assert_eq!(s.disagreements, vec!["c".to_string()]);
        assert_eq!(
            s.outcomes_yogar,
            vec![("FALSE".to_string(), 2), ("TRUE".to_string(), 2)]
        );
        assert_eq!(
            s.outcomes_monolithic,
            vec![
                ("FALSE".to_string(), 1),
                ("TRUE".to_string(), 2),
                ("timeout".to_string(), 1)
            ]
        );
        assert!(render_summary(&s, 2.0).contains("ENGINE DISAGREEMENTS"));

        // With φ0 and ξ printed by the Yogar run, the ratio is φ0 / (φ0 + ξ) from that run.
        let mut printed = rows[0].clone();
        printed.yogar.output.phi0_clauses = Some(300);
        printed.yogar.output.monolithic_xi_clauses = Some(900);
        assert_eq!(printed.clause_ratio(), Some(0.25));
        printed.yogar.output.monolithic_xi_clauses = None;
        assert_eq!(printed.clause_ratio(), Some(0.25));
        assert_eq!(printed.yogar.output.first_formula_clauses(), Some(300));

        let calm = summarize(&rows[..2], 2.0);
        assert!(calm.disagreements.is_empty());
        assert_eq!(calm.hard_tasks, 1);
        assert!((calm.hard_cpu_ratio.unwrap() - 4.0).abs() < 1e-9);
        let empty = summarize(&[], 2.0);
        assert_eq!(empty.total_cpu_ratio, None);
        assert!(!render_summary(&empty, 2.0).contains("-0.00"));
    }

    #[test]
    fn subset_is_spread_and_deterministic() {
        let mk = |dir: &str, i: usize| BenchTask {
            name: format!("{dir}/t{i:02}"),
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
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(big, vec!["big/t00", "big/t06", "big/t13"]);
        assert_eq!(spread_subset(&tasks, 100).len(), tasks.len());
    }
}
