//! `yogar-bench agree` (`make agree`): the default SAT engine and the explorers (dpor, cdpor,
//! rvf) on the same SV-COMP tasks at the same bound, each run under a CPU limit; exits 1 when
//! two of them decide a task differently (TRUE against FALSE), 2 on a usage problem.
//!
//! Why: the explorers run the IR concretely and share only the frontend and the IR with the
//! SAT path, so a bug in symex, the encoder or the solver glue shows up as a disagreement even
//! where the expected verdict of a task is out of reach at the bound. Expected verdicts are
//! not consulted: at a small bound without unwinding assertions both sides may rightly say
//! TRUE to a task whose bug needs more iterations; they must still say the same.
//!
//! Every run is `yogar verify --unwind N --no-unwinding-assertions [--engine E] ...` through
//! the regression runner ([`crate::regress::Runs`], [`crate::child::run_limited`]): the same
//! command line, limits, data model and status parsing as `make regress`. A run that gives no
//! verdict (unknown, timeout, out of memory, error) is not compared. With `--list CSV` only
//! the listed (task, engine) runs are made: the suite's bounded check over the runs that
//! finished quickly in an earlier sweep (`sv-comp/agree-tasks.csv`).
//!
//! `--property unreach-call,no-data-race,valid-memsafety,no-overflow` (or `all`) checks each
//! listed property in turn (the shared tasks state only unreach-call: the others get a property
//! file written into the output folder); the engines are compared per property and task, never
//! across properties. An engine that does not check a property answers UNKNOWN and is not
//! compared. Under valid-memsafety two FALSE verdicts of different kinds (`valid-deref`
//! against `valid-memtrack`) are listed apart, not counted as a disagreement: a program with
//! two violations on different paths rightly gets either from an engine that stops at its
//! first. `--every N --offset K` takes the tasks K, K+N, K+2N, ... so that N runs with offsets
//! 0..N-1 together cover every task once.

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use clap::Parser;

use crate::regress::run_args::RunArgs;
use crate::regress::status::{Status, VerdictClass};
use crate::regress::tasks::{load_tasks, RegressTask};
use crate::regress::{find_svb, repo_root, yogar_at, Log, Runs};

/// The engine that runs without `--engine`.
pub const DEFAULT_ENGINE: &str = "default";

/// The command line of `yogar-bench agree`.
#[derive(Parser, Debug)]
#[command(
    name = "yogar-bench agree",
    about = "The default SAT engine and the explorers on the same SV-COMP tasks at the same \
             bound; fails when two of them give TRUE and FALSE on one task"
)]
struct Args {
    #[command(flatten)]
    run: RunArgs,
    /// Engines to compare, comma-separated (`default`: no --engine option)
    #[arg(long, value_delimiter = ',', default_value = "default,dpor,cdpor,rvf")]
    engines: Vec<String>,
    /// Loop bound of every run (with --no-unwinding-assertions)
    #[arg(long, default_value_t = 2)]
    unwind: u32,
    /// Only the (task, engine) runs of this CSV (columns task, engine; `#` lines are comments)
    #[arg(long, value_name = "CSV")]
    list: Option<PathBuf>,
    /// Output folder (default target/agree): agree.csv and the logs
    #[arg(long)]
    out: Option<PathBuf>,
    /// Properties to check, comma-separated: unreach-call, no-data-race, valid-memsafety,
    /// no-overflow, or all (the four)
    #[arg(long, value_delimiter = ',', default_value = "unreach-call")]
    property: Vec<String>,
    /// Only every N-th task (by name, after --filter): a sample of a sweep too long to run whole
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// With --every N: start at the K-th task (0..N-1), so that runs with offsets 0..N-1
    /// together cover every task once
    #[arg(long, default_value_t = 0)]
    offset: usize,
}

/// The properties `--property all` stands for, in the order they are checked.
pub const ALL_PROPERTIES: [&str; 4] = [
    "unreach-call",
    "no-data-race",
    "valid-memsafety",
    "no-overflow",
];

/// The specification of a property `--property` names.
fn property_spec(name: &str) -> Option<&'static str> {
    match name {
        "unreach-call" => Some(yogar::svcomp::UNREACH_CALL_SPEC),
        "no-data-race" => Some(yogar::svcomp::NO_DATA_RACE_SPEC),
        "no-overflow" => Some(yogar::svcomp::NO_OVERFLOW_SPEC),
        "valid-memsafety" => Some(yogar::svcomp::VALID_MEMSAFETY_SPEC),
        _ => None,
    }
}

/// One run of one engine on one task.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The property checked (`unreach-call`, `no-data-race`, ...).
    pub property: String,
    pub task: String,
    pub engine: String,
    pub status: Status,
    pub cpu_s: f64,
}

/// Runs `yogar-bench agree ARGS` (`argv` without the program name and `agree`); returns the
/// exit code: 0 when no two engines disagree, 1 when some do, 2 on a usage problem.
pub fn run(argv: &[String], log: &mut Log) -> u8 {
    let args = match log.parse::<Args>("agree", argv) {
        Ok(args) => args,
        Err(code) => return code,
    };
    match agree(&args, log) {
        Ok(disagreements) if disagreements.is_empty() => 0,
        Ok(disagreements) => {
            let _ = writeln!(
                log.err,
                "engines disagree on {} task(s):\n{}",
                disagreements.len(),
                disagreements.join("\n")
            );
            1
        }
        Err(message) => {
            let _ = writeln!(log.err, "agree: {message}");
            2
        }
    }
}

/// The (task, engine) runs of a list CSV.
fn read_list(path: &Path) -> Result<Vec<(String, String)>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let headers = reader
        .headers()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("{}: no column '{name}'", path.display()))
    };
    let (task, engine) = (column("task")?, column("engine")?);
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
        out.push((
            record.get(task).unwrap_or_default().to_string(),
            record.get(engine).unwrap_or_default().to_string(),
        ));
    }
    Ok(out)
}

/// Runs and compares; returns one line per task on which two engines disagree.
fn agree(args: &Args, log: &mut Log) -> Result<Vec<String>, String> {
    if args.engines.is_empty() || args.engines.iter().any(|e| e.trim().is_empty()) {
        return Err("--engines needs engine names".into());
    }
    let properties: Vec<String> = args
        .property
        .iter()
        .flat_map(|p| match p.as_str() {
            "all" => ALL_PROPERTIES.iter().map(|q| q.to_string()).collect(),
            _ => vec![p.clone()],
        })
        .collect();
    if let Some(bad) = properties.iter().find(|p| property_spec(p).is_none()) {
        return Err(format!(
            "--property {bad}: not one of {}, all",
            ALL_PROPERTIES.join(", ")
        ));
    }
    if args.every == 0 {
        return Err("--every must be at least 1".into());
    }
    if args.offset >= args.every {
        return Err(format!(
            "--offset {} must be below --every {}",
            args.offset, args.every
        ));
    }
    let svb = find_svb(args.run.svb.as_deref())?;
    let yogar = yogar_at(args.run.yogar.as_deref())?;
    let mut tasks = load_tasks(&svb)?;
    let known: BTreeSet<String> = tasks.iter().map(|t| t.name.clone()).collect();
    if let Some(filter) = &args.run.filter {
        let rx = regex::Regex::new(filter).map_err(|e| format!("--filter: {e}"))?;
        tasks.retain(|t| rx.is_match(&t.name));
    }
    let mut k = 0;
    tasks.retain(|_| {
        k += 1;
        (k - 1) % args.every == args.offset
    });
    let by_name: BTreeMap<&str, &RegressTask> =
        tasks.iter().map(|t| (t.name.as_str(), t)).collect();
    let engines: BTreeSet<&str> = args.engines.iter().map(String::as_str).collect();
    // The runs, task by task (an engine's runs of one task sit together in the output).
    let mut jobs: Vec<(&RegressTask, &str)> = Vec::new();
    match &args.list {
        Some(list) => {
            for (task, engine) in read_list(list)? {
                if !known.contains(&task) {
                    return Err(format!(
                        "{}: task {task} is not in {}",
                        list.display(),
                        svb.display()
                    ));
                }
                if let (Some(t), Some(e)) =
                    (by_name.get(task.as_str()), engines.get(engine.as_str()))
                {
                    jobs.push((t, e));
                }
            }
        }
        None => {
            for t in &tasks {
                for e in &args.engines {
                    jobs.push((t, e.as_str()));
                }
            }
        }
    }
    // Each (task, engine) once, wherever the list repeats it; engines in the given order.
    let mut seen = BTreeSet::new();
    jobs.retain(|(t, e)| seen.insert((t.name.as_str(), *e)));
    jobs.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    if jobs.is_empty() {
        return Err("no run selected".into());
    }
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| repo_root().join("target/agree"));
    let logs = out_dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    // Each property's tasks: the task's own unreach-call property file, or one written here.
    let mut per_property: Vec<(String, Vec<RegressTask>)> = Vec::new();
    for p in &properties {
        if per_property.iter().any(|(q, _)| q == p) {
            continue;
        }
        let prp = out_dir.join(format!("{p}.prp"));
        if p != "unreach-call" {
            let spec = property_spec(p).unwrap_or_default();
            std::fs::write(&prp, format!("{spec}\n"))
                .map_err(|e| format!("{}: {e}", prp.display()))?;
        }
        let retargeted = jobs
            .iter()
            .map(|(t, _)| {
                let mut t = (*t).clone();
                if p != "unreach-call" {
                    t.property_file = prp.clone();
                }
                t
            })
            .collect();
        per_property.push((p.clone(), retargeted));
    }
    let jobs: Vec<(&RegressTask, &str, &str)> = per_property
        .iter()
        .flat_map(|(p, ts)| {
            ts.iter()
                .zip(&jobs)
                .map(move |(t, (_, e))| (t, *e, p.as_str()))
        })
        .collect();
    let limits = args.run.limits();
    let runs: BTreeMap<&str, Runs> = engines
        .iter()
        .map(|&e| {
            let mut extra = vec![
                "--unwind".to_string(),
                args.unwind.to_string(),
                "--no-unwinding-assertions".to_string(),
            ];
            if e != DEFAULT_ENGINE {
                extra.extend(["--engine".to_string(), e.to_string()]);
            }
            extra.extend(args.run.yogar_args.split_whitespace().map(String::from));
            (e, Runs::with(&yogar, extra, limits, logs.clone()))
        })
        .collect();
    let task_count = jobs
        .iter()
        .map(|(t, _, _)| t.name.as_str())
        .collect::<BTreeSet<_>>()
        .len();
    let _ = writeln!(
        log.out,
        "agree: {task_count} tasks, {} runs ({}; {}), unwind {}, {} s CPU per run, jobs {}",
        jobs.len(),
        engines.iter().copied().collect::<Vec<_>>().join(", "),
        per_property
            .iter()
            .map(|(p, _)| p.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        args.unwind,
        args.run.limit_cpu,
        args.run.jobs.max(1)
    );
    let outcomes = run_all(&jobs, &runs, args.run.jobs.max(1), log.out);
    let csv = out_dir.join("agree.csv");
    write_outcomes(&csv, &outcomes)?;
    let (summary, disagreements) = compare(&outcomes);
    let _ = write!(log.out, "{summary}");
    let _ = writeln!(log.out, "results: {}", csv.display());
    Ok(disagreements)
}

/// Makes the runs, `jobs` at a time, one progress line each; outcomes in `jobs` order.
fn run_all(
    jobs: &[(&RegressTask, &str, &str)],
    runs: &BTreeMap<&str, Runs>,
    threads: usize,
    out: &mut (dyn Write + Send),
) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new((0usize, out));
    let slots: Vec<Mutex<Option<Outcome>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.min(jobs.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(task, engine, property)) = jobs.get(i) else {
                    break;
                };
                let stem = if property == "unreach-call" {
                    format!("{}.{engine}", task.log_stem())
                } else {
                    format!("{}.{property}.{engine}", task.log_stem())
                };
                let (status, ended) = runs[engine].verify(task, &stem);
                let outcome = Outcome {
                    property: property.to_string(),
                    task: task.name.clone(),
                    engine: engine.to_string(),
                    status,
                    cpu_s: ended.cpu.as_secs_f64(),
                };
                let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
                done.0 += 1;
                let n = done.0;
                let _ = writeln!(
                    done.1,
                    "[{n}/{}] {} {engine}{}: {} {:.2} s",
                    jobs.len(),
                    outcome.task,
                    if property == "unreach-call" {
                        String::new()
                    } else {
                        format!(" ({property})")
                    },
                    outcome.status,
                    outcome.cpu_s
                );
                let _ = done.1.flush();
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
            });
        }
    });
    slots
        .into_iter()
        .filter_map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

fn write_outcomes(path: &Path, outcomes: &[Outcome]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut w = csv::Writer::from_path(path).map_err(|e| err(&e))?;
    w.write_record(["task", "engine", "status", "cpu_s", "property"])
        .map_err(|e| err(&e))?;
    for o in outcomes {
        w.write_record([
            o.task.as_str(),
            o.engine.as_str(),
            &o.status.to_string(),
            &format!("{:.2}", o.cpu_s),
            o.property.as_str(),
        ])
        .map_err(|e| err(&e))?;
    }
    w.flush().map_err(|e| err(&e))
}

/// The summary (per property and engine: runs, TRUE and FALSE verdicts, runs compared with
/// the default engine, CPU time; the tasks with two or more verdicts) and one line per task
/// and property with both TRUE and FALSE (the property named unless it is unreach-call).
pub fn compare(outcomes: &[Outcome]) -> (String, Vec<String>) {
    let mut by_task: BTreeMap<(&str, &str), Vec<&Outcome>> = BTreeMap::new();
    for o in outcomes {
        by_task.entry((&o.property, &o.task)).or_default().push(o);
    }
    let mut disagreements = Vec::new();
    // Per property: tasks, tasks with two or more verdicts, disagreements, and per engine:
    // runs, TRUE, FALSE, verdicts compared with the default engine's, CPU seconds.
    #[derive(Default)]
    struct PerProperty<'a> {
        tasks: usize,
        compared: usize,
        disagreements: usize,
        /// Tasks with FALSE verdicts of different kinds (valid-deref against valid-free).
        kinds_differ: Vec<String>,
        engines: BTreeMap<&'a str, (usize, usize, usize, usize, f64)>,
    }
    let mut per_property: BTreeMap<&str, PerProperty> = BTreeMap::new();
    for ((property, task), runs) in &by_task {
        let pp = per_property.entry(property).or_default();
        pp.tasks += 1;
        let class = |o: &&Outcome| o.status.class();
        let decided: Vec<&&Outcome> = runs
            .iter()
            .filter(|o| class(o) != VerdictClass::None)
            .collect();
        let reference = runs
            .iter()
            .find(|o| o.engine == DEFAULT_ENGINE && class(o) != VerdictClass::None);
        for o in runs {
            let e = pp.engines.entry(&o.engine).or_default();
            e.0 += 1;
            e.4 += o.cpu_s;
            match class(o) {
                VerdictClass::True => e.1 += 1,
                VerdictClass::False => e.2 += 1,
                VerdictClass::None => {}
            }
            if class(o) != VerdictClass::None && reference.is_some() && o.engine != DEFAULT_ENGINE {
                e.3 += 1;
            }
        }
        if decided.len() >= 2 {
            pp.compared += 1;
        }
        let has = |c: VerdictClass| decided.iter().any(|o| class(o) == c);
        let kinds: BTreeSet<String> = decided
            .iter()
            .filter_map(|o| match &o.status {
                Status::False(kind) => Some(kind.clone()),
                _ => None,
            })
            .collect();
        if kinds.len() > 1 {
            pp.kinds_differ.push(format!(
                "{task}: {}",
                runs.iter()
                    .map(|o| format!("{} {}", o.engine, o.status))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if has(VerdictClass::True) && has(VerdictClass::False) {
            pp.disagreements += 1;
            let all: Vec<String> = runs
                .iter()
                .map(|o| format!("{} {}", o.engine, o.status))
                .collect();
            let name = if *property == "unreach-call" {
                task.to_string()
            } else {
                format!("{task} [{property}]")
            };
            disagreements.push(format!("{name}: {}", all.join(", ")));
        }
    }
    let mut s = String::new();
    for (property, pp) in &per_property {
        if per_property.len() > 1 || *property != "unreach-call" {
            s.push_str(&format!("property {property}\n"));
        }
        s.push_str(
            "engine     runs  verdicts  true  false  unknown  compared-with-default  cpu-s\n",
        );
        for (engine, (runs, t, f, with_default, cpu)) in &pp.engines {
            let cmp = if *engine == DEFAULT_ENGINE {
                "-".to_string()
            } else {
                with_default.to_string()
            };
            s.push_str(&format!(
                "{engine:<10} {runs:>4}  {:>8}  {t:>4}  {f:>5}  {:>7}  {cmp:>21}  {cpu:>5.1}\n",
                t + f,
                runs - t - f
            ));
        }
        s.push_str(&format!(
            "tasks: {}, with two or more verdicts: {}, disagreements: {}\n",
            pp.tasks, pp.compared, pp.disagreements
        ));
        if !pp.kinds_differ.is_empty() {
            s.push_str(&format!(
                "FALSE of different kinds (not a disagreement; look at each): {}\n",
                pp.kinds_differ.len()
            ));
            for line in &pp.kinds_differ {
                s.push_str(&format!("  {line}\n"));
            }
        }
    }
    let cpu: f64 = outcomes.iter().map(|o| o.cpu_s).sum();
    s.push_str(&format!(
        "all properties: disagreements: {}\ncpu time: {cpu:.1} s\n",
        disagreements.len()
    ));
    (s, disagreements)
}
