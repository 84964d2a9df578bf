//! `yogar-bench regress` (`make regress`): yogar on every unreach-call task of an
//! sv-benchmarks checkout under SV-COMP limits, scored as SV-COMP scores, compared with the
//! committed baseline (`sv-comp/baseline.csv`) and, with `--compare`, with another run.
//! Writes `results.csv`, `results.html` and `summary.txt`; exits 1 on a wrong verdict (or an
//! unconfirmed witness, a disagreement with the compared run, with `--fail-on-change` a
//! changed verdict), 2 on a usage problem.
//!
//! Each run goes through [`crate::child::run_limited`] (`RLIMIT_CPU`, `RLIMIT_AS`, a wall
//! clock backstop, CPU time and peak RSS from `wait4`), the runner the bench sections share.
//! BenchExec itself runs the tasks through the tool-info module and the benchmark definition
//! (`--benchexec-xml` writes a copy for this checkout).

mod benchmark_def;
pub(crate) mod run_args;
pub(crate) mod status;
mod table;
pub(crate) mod tasks;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use yogar::svcomp::DataModel;

use crate::child::{run_limited, Limits};
use run_args::RunArgs;
use status::{categorize, out_of_memory, parse_output, parse_stats, Status, VerdictClass};
use table::Row;
use tasks::{load_tasks, quick_subset, RegressTask, QUICK_SIZE};

/// The data model for tasks that state none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DefaultDataModel {
    #[value(name = "ILP32")]
    Ilp32,
    #[value(name = "LP64")]
    Lp64,
    #[value(name = "none")]
    Unset,
}

/// The command line of `yogar-bench regress`.
#[derive(Parser, Debug)]
#[command(
    name = "yogar-bench regress",
    about = "yogar on the SV-COMP unreach-call tasks of an sv-benchmarks checkout: scored, \
             compared with the baseline; fails on a wrong verdict"
)]
struct Args {
    #[command(flatten)]
    run: RunArgs,
    /// A fixed subset of 20 tasks across directories
    #[arg(long)]
    quick: bool,
    /// Output folder (default target/regress)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Baseline CSV (default sv-comp/baseline.csv)
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Rewrite the baseline with this run's statuses
    #[arg(long)]
    update_baseline: bool,
    /// Also exit 1 if a verdict differs from the baseline
    #[arg(long)]
    fail_on_change: bool,
    /// Write a witness for every FALSE and check it with `yogar replay` (column witness)
    #[arg(long)]
    replay: bool,
    /// Run nothing: summarize (and --compare, --replay) the results.csv of an earlier run
    #[arg(long, value_name = "CSV")]
    results: Option<PathBuf>,
    /// results.csv of another run: fail on any task where both gave a verdict and they differ
    #[arg(long, value_name = "CSV")]
    compare: Option<PathBuf>,
    /// Only write the BenchExec benchmark definition for this checkout to OUT (with --filter
    /// or --quick: just those tasks)
    #[arg(long, value_name = "OUT")]
    benchexec_xml: Option<PathBuf>,
    /// Data model for tasks that state none (format 1.0; SV-COMP ran these as ILP32)
    #[arg(long, value_enum, default_value = "ILP32")]
    default_data_model: DefaultDataModel,
}

/// Where the messages of a run go: `out` for progress and the summary, `err` for failures.
pub struct Log<'a> {
    pub out: &'a mut (dyn Write + Send),
    pub err: &'a mut (dyn Write + Send),
}

const USAGE: u8 = 2;

pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

impl Log<'_> {
    /// The command line of the section `name` (`argv` without the program and section
    /// names), or the exit code after the help (0, on stdout) or a usage error (on stderr).
    pub fn parse<T: clap::Parser>(&mut self, name: &str, argv: &[String]) -> Result<T, u8> {
        T::try_parse_from(std::iter::once(name.to_string()).chain(argv.iter().cloned())).map_err(
            |e| {
                let code = if e.use_stderr() { USAGE } else { 0 };
                let to = if code == 0 {
                    &mut *self.out
                } else {
                    &mut *self.err
                };
                let _ = write!(to, "{e}");
                code
            },
        )
    }
}

/// Runs `yogar-bench regress ARGS` (`argv` without the program name and `regress`); returns
/// the exit code.
pub fn run(argv: &[String], log: &mut Log) -> u8 {
    let args = match log.parse::<Args>("regress", argv) {
        Ok(args) => args,
        Err(code) => return code,
    };
    match regress(&args, log) {
        Ok(code) => code,
        Err(message) => {
            let _ = writeln!(log.err, "regress: {message}");
            USAGE
        }
    }
}

/// The sv-benchmarks checkout: `given`, else `$SVB`, else `../shared/sv-benchmarks` beside
/// the repository.
pub(crate) fn find_svb(given: Option<&Path>) -> Result<PathBuf, String> {
    let svb = given
        .map(Path::to_path_buf)
        .or_else(|| yogar::svcomp::sv_benchmarks(None))
        .unwrap_or_else(|| repo_root().join("../shared/sv-benchmarks"));
    if !svb.join("c").is_dir() {
        return Err(format!(
            "no sv-benchmarks checkout at {} (give --svb or SVB=...)",
            svb.display()
        ));
    }
    Ok(svb.canonicalize().unwrap_or(svb))
}

fn regress(args: &Args, log: &mut Log) -> Result<u8, String> {
    let svb = find_svb(args.run.svb.as_deref())?;
    if let (Some(out), false) = (&args.benchexec_xml, args.run.filter.is_some() || args.quick) {
        write_definition(&svb, out, None)?;
        let _ = writeln!(log.out, "regress: wrote {}", out.display());
        return Ok(0);
    }
    let mut tasks = load_tasks(&svb)?;
    if let Some(filter) = &args.run.filter {
        let rx = regex::Regex::new(filter).map_err(|e| format!("--filter: {e}"))?;
        tasks.retain(|t| rx.is_match(&t.name));
    }
    if args.quick {
        tasks = quick_subset(&tasks, QUICK_SIZE);
    }
    if tasks.is_empty() {
        return Err("no task selected".into());
    }
    if let Some(out) = &args.benchexec_xml {
        let names: Vec<String> = tasks.iter().map(|t| t.name.clone()).collect();
        write_definition(&svb, out, Some(&names))?;
        let _ = writeln!(
            log.out,
            "regress: wrote {} ({} tasks)",
            out.display(),
            tasks.len()
        );
        return Ok(0);
    }
    let baseline_path = args
        .baseline
        .clone()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("baseline.csv"));

    if let Some(results) = &args.results {
        // No runs: the rows of an earlier run, for its summary, --compare and --replay.
        let selected: std::collections::HashSet<&str> =
            tasks.iter().map(|t| t.name.as_str()).collect();
        let mut rows: Vec<Row> = table::read_rows(results)?
            .into_iter()
            .filter(|r| selected.contains(r.task.as_str()))
            .collect();
        let mut runner = format!("earlier run {}", results.display());
        if args.replay {
            let yogar = find_yogar(args)?;
            // The earlier run's witnesses (its logs/ folder), checked again by this replay.
            let logs = results.parent().unwrap_or(Path::new(".")).join("logs");
            let by_name: BTreeMap<&str, &RegressTask> =
                tasks.iter().map(|t| (t.name.as_str(), t)).collect();
            let runs = Runs::new(args, &yogar, logs);
            for r in &mut rows {
                if status::class_of(&r.status) == VerdictClass::False {
                    if let Some(task) = by_name.get(r.task.as_str()) {
                        let witness = runs.logs.join(format!("{}.graphml", task.log_stem()));
                        r.witness = runs.check_witness(task, &witness).to_string();
                    }
                }
            }
            runner.push_str(", witnesses replayed");
        }
        return report(
            args,
            &rows,
            &runner,
            &BTreeMap::new(),
            None,
            &baseline_path,
            log,
        );
    }

    let yogar = find_yogar(args)?;
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| repo_root().join("target/regress"));
    let logs = out_dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let out_dir = out_dir.canonicalize().unwrap_or(out_dir);
    let logs = out_dir.join("logs");
    let baseline = table::read_statuses(&baseline_path)?;
    let runs = Runs::new(args, &yogar, logs);
    let _ = writeln!(
        log.out,
        "regress: {} tasks, {}, runner own, jobs {}, {} s CPU, {} MB",
        tasks.len(),
        yogar.display(),
        args.run.jobs.max(1),
        args.run.limit_cpu,
        args.run.limit_mem
    );
    let _ = log.out.flush();

    let rows = run_all(&tasks, &runs, &baseline, args.run.jobs.max(1), log.out);
    report(
        args,
        &rows,
        "own",
        &baseline,
        Some(&out_dir),
        &baseline_path,
        log,
    )
}

/// Runs every task, `jobs` at a time, printing one line per finished task; the rows come
/// back in task order.
fn run_all(
    tasks: &[RegressTask],
    runs: &Runs,
    baseline: &BTreeMap<String, String>,
    jobs: usize,
    out: &mut (dyn Write + Send),
) -> Vec<Row> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new((0usize, out));
    let rows: Vec<Mutex<Option<Row>>> = tasks.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs.min(tasks.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(task) = tasks.get(i) else { break };
                let row = runs.one(task, baseline);
                let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
                done.0 += 1;
                let mut flag = String::new();
                if row.category == "wrong" {
                    flag.push_str("  WRONG");
                }
                if !row.changed.is_empty() {
                    flag.push_str(&format!("  CHANGED (was {})", row.baseline));
                }
                if !row.witness.is_empty() {
                    flag.push_str(&format!("  witness {}", row.witness));
                }
                let line = format!(
                    "[{}/{}] {}: {} (expected {}) {} s{flag}",
                    done.0,
                    tasks.len(),
                    row.task,
                    row.status,
                    row.expected,
                    row.cpu_s
                );
                let _ = writeln!(done.1, "{line}");
                let _ = done.1.flush();
                *rows[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(row);
            });
        }
    });
    rows.into_iter()
        .filter_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

fn write_definition(svb: &Path, out: &Path, tasks: Option<&[String]>) -> Result<(), String> {
    let path = benchmark_def::definition_path();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let copy = benchmark_def::rewrite(&text, svb, tasks)?;
    std::fs::write(out, copy).map_err(|e| format!("{}: {e}", out.display()))
}

fn find_yogar(args: &Args) -> Result<PathBuf, String> {
    yogar_at(args.run.yogar.as_deref())
}

/// The yogar binary: `given`, else the one beside this executable, else the release build.
pub(crate) fn yogar_at(given: Option<&Path>) -> Result<PathBuf, String> {
    let yogar = match given {
        Some(p) => std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()),
        None => {
            crate::runs::yogar_binary().unwrap_or_else(|| repo_root().join("target/release/yogar"))
        }
    };
    if yogar.is_file() {
        Ok(yogar)
    } else {
        Err(format!(
            "no yogar binary at {} (build it, or give --yogar)",
            yogar.display()
        ))
    }
}

/// What every run of one regression shares: the binary, its options and the limits (also
/// the runner of `agree`).
pub(crate) struct Runs {
    yogar: PathBuf,
    extra: Vec<String>,
    default_data_model: Option<DataModel>,
    limits: Limits,
    replay: bool,
    logs: PathBuf,
}

/// What replay said about a witness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Replayed {
    Confirmed,
    NotConfirmed,
    NoWitness,
}

impl std::fmt::Display for Replayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Replayed::Confirmed => "confirmed",
            Replayed::NotConfirmed => "not confirmed",
            Replayed::NoWitness => "no witness",
        })
    }
}

impl Runs {
    fn new(args: &Args, yogar: &Path, logs: PathBuf) -> Runs {
        let mut runs = Runs::with(
            yogar,
            args.run
                .yogar_args
                .split_whitespace()
                .map(String::from)
                .collect(),
            args.run.limits(),
            logs,
        );
        runs.default_data_model = match args.default_data_model {
            DefaultDataModel::Ilp32 => Some(DataModel::Ilp32),
            DefaultDataModel::Lp64 => Some(DataModel::Lp64),
            DefaultDataModel::Unset => None,
        };
        runs.replay = args.replay;
        runs
    }

    /// Runs of `yogar verify EXTRA` under `limits`, logs in `logs`, ILP32 for the tasks that
    /// state no data model (as SV-COMP ran them), no witnesses.
    pub(crate) fn with(yogar: &Path, extra: Vec<String>, limits: Limits, logs: PathBuf) -> Runs {
        Runs {
            yogar: yogar.to_path_buf(),
            extra,
            default_data_model: Some(DataModel::Ilp32),
            limits,
            replay: false,
            logs,
        }
    }

    fn data_model_flags(&self, task: &RegressTask) -> Vec<&'static str> {
        match task.data_model.or(self.default_data_model) {
            Some(DataModel::Ilp32) => vec!["--32"],
            Some(DataModel::Lp64) => vec!["--64"],
            None => vec![],
        }
    }

    /// Runs `command` under the limits, keeps its output in `logs/<stem>.log` and `.err`, and
    /// reads its status.
    fn execute(&self, command: Command, stem: &str) -> (Status, crate::child::Ended) {
        let ended = match run_limited(command, &self.limits) {
            Ok(ended) => ended,
            Err(e) => {
                let status = Status::Error(format!("cannot run: {e}"));
                return (status, crate::child::Ended::default());
            }
        };
        let _ = std::fs::write(self.logs.join(format!("{stem}.log")), &ended.stdout);
        let _ = std::fs::write(self.logs.join(format!("{stem}.err")), &ended.stderr);
        let status = if ended.wall_killed || ended.out_of_cpu(&self.limits) {
            Status::Timeout
        } else if out_of_memory(&ended.stderr, ended.code) {
            Status::OutOfMemory
        } else {
            parse_output(&ended.stdout, ended.code, ended.signal)
        };
        (status, ended)
    }

    /// Whether `yogar replay` confirms the violation witness of a FALSE verdict: its
    /// `witness confirmed` line and exit 0 (a replay killed or crashed confirms nothing).
    fn check_witness(&self, task: &RegressTask, witness: &Path) -> Replayed {
        if !witness.exists() {
            return Replayed::NoWitness;
        }
        let mut command = Command::new(&self.yogar);
        command
            .arg("replay")
            .args(self.data_model_flags(task))
            .args(&task.input_files)
            .arg(witness);
        let (_, ended) = self.execute(command, &format!("{}.replay", task.log_stem()));
        let confirmed = ended.code == Some(i32::from(yogar::exit::TRUE))
            && ended
                .stdout
                .lines()
                .any(|l| l.starts_with("witness confirmed"));
        if confirmed {
            Replayed::Confirmed
        } else {
            Replayed::NotConfirmed
        }
    }

    /// The `yogar verify` command of a task (with `--stats`, so the table can show the formula
    /// size and refinements). The witness goes to `witness` in the logs folder: without
    /// `--witness`, yogar writes `./witness.graphml` in the current folder, as SV-COMP expects.
    fn verify_command(&self, task: &RegressTask, witness: &Path) -> Command {
        let mut command = Command::new(&self.yogar);
        command
            .arg("verify")
            .arg("--property")
            .arg(&task.property_file)
            .arg("--stats")
            .args(self.data_model_flags(task))
            .arg("--witness")
            .arg(witness);
        // yogar's own limit at the runner's: running out ends in `UNKNOWN (out of memory)`
        // from yogar instead of an abort the runner has to recognize (unless the extra options
        // set their own).
        let own = self.extra.iter().any(|a| a.starts_with("--memlimit"));
        if let (Some(bytes), false) = (self.limits.memory, own) {
            command
                .arg("--memlimit")
                .arg((bytes >> 20).max(1).to_string());
        }
        command.args(&self.extra).args(&task.input_files);
        command
    }

    /// Where the witness of the run logged under `stem` goes (removed before the run, so a
    /// stale one from an earlier run is never replayed).
    fn witness_path(&self, stem: &str) -> PathBuf {
        let w = self.logs.join(format!("{stem}.graphml"));
        let _ = std::fs::remove_file(&w);
        w
    }

    /// `yogar verify` on one task, its logs under `stem`: the status and how the run ended.
    pub(crate) fn verify(&self, task: &RegressTask, stem: &str) -> (Status, crate::child::Ended) {
        let witness = self.witness_path(stem);
        self.execute(self.verify_command(task, &witness), stem)
    }

    /// `yogar verify` on one task, then the replay of its witness.
    fn one(&self, task: &RegressTask, baseline: &BTreeMap<String, String>) -> Row {
        let stem = task.log_stem();
        let w = self.witness_path(&stem);
        let command = self.verify_command(task, &w);
        let (status, ended) = self.execute(command, &stem);
        let stats = parse_stats(&ended.stdout);
        let (category, score) = categorize(task.expected, &status);
        let replayed = if self.replay && status.class() == VerdictClass::False {
            self.check_witness(task, &w).to_string()
        } else {
            String::new()
        };
        let base = baseline.get(&task.name).cloned().unwrap_or_default();
        let changed = !base.is_empty() && status::class_of(&base) != status.class();
        // The Yogar engine's first formula (φ0); the monolithic engine reports φ0 as 0.
        let clauses = match stats.get("phi0 clauses") {
            Some(c) if c != "0" => c.clone(),
            _ => stats.get("clauses").cloned().unwrap_or_default(),
        };
        Row {
            task: task.name.clone(),
            directory: task.directory.clone(),
            expected: task.expected.to_string(),
            status: status.to_string(),
            category: category.name().to_string(),
            score,
            cpu_s: format!("{:.2}", ended.cpu.as_secs_f64()),
            wall_s: format!("{:.2}", ended.wall.as_secs_f64()),
            mem_mb: format!("{:.1}", ended.max_rss as f64 / 1e6),
            refinements: stats.get("refinements").cloned().unwrap_or_default(),
            clauses,
            unwind: stats.get("unwind bound").cloned().unwrap_or_default(),
            witness: replayed,
            baseline: base,
            changed: if changed { "yes".into() } else { String::new() },
        }
    }
}

/// The limits of one run: `cpu` seconds, `mem` MB (0: none), `wall` seconds (default
/// 2 x CPU + 10).
pub(crate) fn limits(cpu: u64, mem: u64, wall: Option<f64>) -> Limits {
    Limits {
        cpu: cpu as f64,
        memory: (mem > 0).then(|| mem * 1024 * 1024),
        wall: Duration::from_secs_f64(wall.unwrap_or(2.0 * cpu as f64 + 10.0).max(0.1)),
    }
}

/// Summary, tables (when `out_dir`), baseline update, and the exit code of a run.
fn report(
    args: &Args,
    rows: &[Row],
    runner: &str,
    baseline: &BTreeMap<String, String>,
    out_dir: Option<&Path>,
    baseline_path: &Path,
    log: &mut Log,
) -> Result<u8, String> {
    let summary = table::summary_text(&table::summarize(rows), runner);
    let _ = write!(log.out, "{summary}");
    if let Some(dir) = out_dir {
        let (csv, html) = (dir.join("results.csv"), dir.join("results.html"));
        table::write_rows(&csv, rows)?;
        table::write_html(&html, rows, &summary)?;
        let txt = dir.join("summary.txt");
        std::fs::write(&txt, &summary).map_err(|e| format!("{}: {e}", txt.display()))?;
        let _ = writeln!(log.out, "results: {}, {}", csv.display(), html.display());
    }
    if args.update_baseline {
        table::write_baseline(baseline_path, rows, baseline)?;
        let _ = writeln!(log.out, "baseline updated: {}", baseline_path.display());
    }
    let names = |f: &dyn Fn(&Row) -> bool| -> Vec<String> {
        rows.iter()
            .filter(|r| f(r))
            .map(|r| r.task.clone())
            .collect()
    };
    let wrong = names(&|r| r.category == "wrong");
    let changed = names(&|r| !r.changed.is_empty());
    let unconfirmed = names(&|r| !r.witness.is_empty() && r.witness != "confirmed");
    let differ = match &args.compare {
        Some(other) => {
            let d = table::disagreements(rows, &table::read_statuses(other)?);
            let _ = writeln!(
                log.out,
                "compared with {}: {} tasks with a different verdict",
                other.display(),
                d.len()
            );
            d
        }
        None => vec![],
    };
    let mut code = 0;
    for (list, what) in [
        (&wrong, "WRONG verdicts"),
        (&unconfirmed, "witnesses not confirmed by replay"),
        (&differ, "verdicts differ from the compared run"),
    ] {
        if !list.is_empty() {
            let _ = writeln!(log.err, "{what}: {}", list.join(" "));
            code = 1;
        }
    }
    if code == 0 && args.fail_on_change && !changed.is_empty() {
        let _ = writeln!(
            log.err,
            "verdicts changed from the baseline: {}",
            changed.join(" ")
        );
        code = 1;
    }
    Ok(code)
}
