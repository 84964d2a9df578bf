//! Running `yogar verify` as a child on SV-COMP tasks and reading what it printed: the part
//! every section that runs tasks shares (the task list, the CPU-limited child, the verdict and
//! `--stats` lines, medians and ratios).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The wall-clock backstop of a run, as a multiple of its CPU limit: large, because on a
/// shared machine a run may get a small share of a core, and the CPU limit is what counts.
pub const WALL_FACTOR: f64 = 10.0;

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
        let Ok(n) = value.trim().parse::<u64>() else {
            continue;
        };
        let slot = match key {
            "clauses" => &mut out.clauses,
            "explored executions" => &mut out.executions,
            "blocked runs" => &mut out.blocked,
            "redundant runs or instances" => &mut out.redundant,
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
pub fn yogar_binary() -> Option<PathBuf> {
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

/// Runs `yogar verify ARGS --stats --timeout … FILE` on one file. The child's CPU time is its own (from `wait4`), so runs may
/// go side by side; `RLIMIT_CPU` ends it at the limit (a timeout), and it is killed if it
/// outlives the limit by far in wall-clock time.
pub fn run_verify(yogar: &Path, args: &[String], file: &Path, limit: f64) -> EngineRun {
    use std::os::unix::process::CommandExt;
    let started = Instant::now();
    // The limit is CPU time, as in SV-COMP, so that runs side by side (or a busy machine)
    // do not shorten it: RLIMIT_CPU ends the child; `--timeout` (wall clock) is only a
    // backstop for a child that sleeps.
    let cpu_cap = limit.ceil() as libc::rlim_t;
    let mut command = Command::new(yogar);
    command
        .arg("verify")
        .args(args)
        .arg("--stats")
        .arg("--timeout")
        .arg(format!("{}", limit * WALL_FACTOR))
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
    let hard_limit = Duration::from_secs_f64(limit * (WALL_FACTOR + 2.0) + 30.0);
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
    let Some(yogar) = yogar_binary() else {
        println!("skipped: no yogar binary next to the bench executable (run `make build`)");
        return None;
    };
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

        let o = parse_output("clauses: 1200\nstep 1: x = 2\nFALSE(unreach-call)\n\n");
        assert_eq!(o.verdict, Some(RunVerdict::False));
        assert_eq!(o.executions, None);

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
