//! `yogar-bench explore-gen` (issue #28): generated programs through the explorers, judged
//! against the default SAT engine.
//!
//! Each seed gives one program ([`program::generate`]) with the loop bound it needs; the
//! default engine's verdict at that bound, with unwinding assertions, is the reference (the
//! bound closes every loop, so TRUE and FALSE are the program's verdicts). Every engine named
//! runs the same program at the same bound under the same CPU limit; an answer is right when
//! it is the reference's, wrong when it is the other verdict; UNKNOWN and the limits are
//! counted by reason (the reason's text without its source place). A program without a
//! reference verdict is listed and not judged. Exits 1 when an engine answered wrong.
//!
//! The programs and `results.csv` (seed, engine, status, reason, CPU seconds) go into the
//! output folder; the reference verdicts are kept in `reference.csv` there and reused by a
//! later run on the same programs (the reference does not change when an explorer does).

pub mod program;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use clap::Parser;
use yogar::verdict::VerdictLine;

use crate::child::{run_limited, Limits};
use crate::regress::{repo_root, yogar_at, Log};

/// The command line of `yogar-bench explore-gen`.
#[derive(Parser, Debug)]
#[command(
    name = "yogar-bench explore-gen",
    about = "Generated programs (computed indices, pointers to shared cells, nondet inputs, \
             up to 4 workers, two mutexes) through the explorers, judged against the default \
             SAT engine's verdict at the bound each needs"
)]
struct Args {
    /// Number of programs
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// First seed (programs are seeds FIRST..FIRST+COUNT)
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Engines judged, comma-separated
    #[arg(long, value_delimiter = ',', default_value = "dpor,cdpor,rvf")]
    engines: Vec<String>,
    /// CPU seconds per run (reference and engines)
    #[arg(long, default_value_t = 30.0)]
    limit: f64,
    /// Programs run side by side (CPU limits stay per run)
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The yogar binary (default: the release build)
    #[arg(long)]
    yogar: Option<PathBuf>,
    /// Output folder (default target/explore-gen)
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    True,
    False,
    /// UNKNOWN, a limit or an error: the reason without its source place.
    NoVerdict(String),
}

impl Status {
    fn of_output(stdout: &str, ended_by_cpu: bool, code: Option<i32>) -> Status {
        if ended_by_cpu {
            return Status::NoVerdict("cpu limit".into());
        }
        match VerdictLine::of_output(stdout) {
            Some(VerdictLine::True) => Status::True,
            Some(VerdictLine::False(_)) => Status::False,
            Some(VerdictLine::Unknown { reason, .. }) => Status::NoVerdict(without_place(&reason)),
            None => Status::NoVerdict(format!("no verdict (exit {code:?})")),
        }
    }

    fn cell(&self) -> (&str, &str) {
        match self {
            Status::True => ("true", ""),
            Status::False => ("false", ""),
            Status::NoVerdict(r) => ("unknown", r),
        }
    }

    fn parse(status: &str, reason: &str) -> Status {
        match status {
            "true" => Status::True,
            "false" => Status::False,
            _ => Status::NoVerdict(reason.to_string()),
        }
    }
}

/// A reason without the ` at FILE:LINE` the explorers add, so reasons group across programs.
fn without_place(reason: &str) -> String {
    match reason.rfind(" at ") {
        Some(i) if reason[i + 4..].contains(".c:") => reason[..i].to_string(),
        _ => reason.to_string(),
    }
}

/// Runs `yogar-bench explore-gen ARGS`; returns the exit code (0; 1 when an engine answered
/// wrong; 2 on a usage problem).
pub fn run(argv: &[String], log: &mut Log) -> u8 {
    let args = match log.parse::<Args>("explore-gen", argv) {
        Ok(a) => a,
        Err(code) => return code,
    };
    match explore_gen(&args, log) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(log.err, "explore-gen: {e}");
            2
        }
    }
}

/// One run of `yogar verify --engine ENGINE --unwind N FILE` (no `--engine` for `default`).
fn verify(yogar: &Path, engine: &str, unwind: u32, file: &Path, limit: f64) -> (Status, f64) {
    let mut cmd = Command::new(yogar);
    cmd.arg("verify").arg("--unwind").arg(unwind.to_string());
    if engine != "default" {
        cmd.arg("--engine").arg(engine);
    }
    cmd.arg(file);
    let limits = Limits {
        cpu: limit,
        memory: Some(4 << 30),
        wall: Duration::from_secs_f64(limit * 20.0 + 60.0),
    };
    match run_limited(cmd, &limits) {
        Ok(e) => {
            let status = if e.wall_killed {
                Status::NoVerdict("wall-clock backstop".into())
            } else {
                Status::of_output(&e.stdout, e.out_of_cpu(&limits), e.code)
            };
            (status, e.cpu.as_secs_f64())
        }
        Err(err) => (Status::NoVerdict(format!("cannot start: {err}")), 0.0),
    }
}

/// The reference verdicts kept from an earlier run: seed → (program text hash, status).
fn load_reference(path: &Path) -> HashMap<u64, (u64, Status)> {
    let mut map = HashMap::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return map;
    };
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.splitn(4, ',').collect();
        if let [seed, hash, status, reason] = f[..] {
            if let (Ok(s), Ok(h)) = (seed.parse(), hash.parse()) {
                map.insert(s, (h, Status::parse(status, reason)));
            }
        }
    }
    map
}

fn text_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Per engine: answered right, wrong, and the no-verdict reasons with their counts.
#[derive(Default)]
struct Tally {
    right: u32,
    wrong: Vec<u64>,
    reasons: BTreeMap<String, u32>,
    cpu: f64,
}

fn explore_gen(args: &Args, log: &mut Log) -> Result<u8, String> {
    let yogar = yogar_at(args.yogar.as_deref())?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| repo_root().join("target/explore-gen"));
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let ref_path = out.join("reference.csv");
    let kept = load_reference(&ref_path);
    let seeds: Vec<u64> = (args.first..args.first + args.count).collect();
    let next = AtomicUsize::new(0);
    type Row = (u64, u64, Status, Vec<(Status, f64)>);
    let rows: Mutex<Vec<Row>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..args.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&seed) = seeds.get(i) else { break };
                let g = program::generate(seed);
                let file = out.join(format!("gen_{seed:04}.c"));
                if std::fs::write(&file, &g.source).is_err() {
                    continue;
                }
                let hash = text_hash(&g.source);
                let reference = match kept.get(&seed) {
                    Some((h, st)) if *h == hash => st.clone(),
                    _ => verify(&yogar, "default", g.unwind, &file, args.limit).0,
                };
                let runs = args
                    .engines
                    .iter()
                    .map(|e| verify(&yogar, e, g.unwind, &file, args.limit))
                    .collect();
                rows.lock().unwrap().push((seed, hash, reference, runs));
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by_key(|r| r.0);
    let mut refs = String::from("seed,hash,status,reason\n");
    let mut csv = String::from("seed,engine,status,reason,cpu\n");
    let mut tallies: Vec<Tally> = args.engines.iter().map(|_| Tally::default()).collect();
    let (mut judged, mut no_ref) = (0, Vec::new());
    for (seed, hash, reference, runs) in &rows {
        let (st, why) = reference.cell();
        refs.push_str(&format!("{seed},{hash},{st},{why}\n"));
        csv.push_str(&format!("{seed},default,{st},{why},\n"));
        let judge = !matches!(reference, Status::NoVerdict(_));
        if judge {
            judged += 1;
        } else {
            no_ref.push(*seed);
        }
        for ((engine, (status, cpu)), t) in args.engines.iter().zip(runs).zip(&mut tallies) {
            let (st, why) = status.cell();
            csv.push_str(&format!("{seed},{engine},{st},{why},{cpu:.2}\n"));
            if !judge {
                continue;
            }
            t.cpu += cpu;
            match status {
                Status::NoVerdict(r) => *t.reasons.entry(r.clone()).or_default() += 1,
                s if s == reference => t.right += 1,
                _ => t.wrong.push(*seed),
            }
        }
    }
    let write = |name: &str, text: &str| {
        std::fs::write(out.join(name), text).map_err(|e| format!("{name}: {e}"))
    };
    write("reference.csv", &refs)?;
    write("results.csv", &csv)?;
    let trues = rows.iter().filter(|r| r.2 == Status::True).count();
    let _ = writeln!(
        log.out,
        "explore-gen: seeds {}..{}, {} s CPU per run, {} judged ({} TRUE, {} FALSE by the default engine), {} without a reference{}",
        args.first,
        args.first + args.count,
        args.limit,
        judged,
        trues,
        judged - trues,
        no_ref.len(),
        if no_ref.is_empty() { String::new() } else { format!(" (seeds {no_ref:?})") }
    );
    let _ = writeln!(
        log.out,
        "{:<8} {:>8} {:>6} {:>8} {:>9}  no-verdict reasons",
        "engine", "answered", "wrong", "unknown", "cpu s"
    );
    let mut wrong = false;
    for (engine, t) in args.engines.iter().zip(&tallies) {
        let unknown: u32 = t.reasons.values().sum();
        let reasons: Vec<String> = t
            .reasons
            .iter()
            .map(|(r, n)| format!("{n} × {r}"))
            .collect();
        let _ = writeln!(
            log.out,
            "{engine:<8} {:>8} {:>6} {unknown:>8} {:>9.1}  {}",
            t.right as usize + t.wrong.len(),
            t.wrong.len(),
            t.cpu,
            reasons.join("; ")
        );
        if !t.wrong.is_empty() {
            wrong = true;
            let _ = writeln!(log.out, "  {engine} WRONG on seeds {:?}", t.wrong);
        }
    }
    let _ = writeln!(log.out, "programs and results.csv in {}", out.display());
    Ok(u8::from(wrong))
}
