//! `yogar verify`: resolve the request (program or SV-COMP task, property, data model), run
//! the chosen engine at a fixed bound or at deepening bounds (`--unwind auto`), print the trace
//! and statistics, write the witness, and end with the verdict line.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::memlimit::{self, Role};
use super::parse::print_warnings;
use super::witness_out;
use super::{DataModel, EngineName, Unwind, VerifyArgs};
use crate::engine::{self, EngineOptions, Outcome, UnknownReason, Verdict};
use crate::exit;
use crate::explore::{self, Explorer};
use crate::frontend;
use crate::ir::Program;
use crate::svcomp::{Property, Request};
use crate::symex::SymexOptions;
use crate::witness::WitnessMeta;

/// Bounds past this are not tried by `--unwind auto`.
const MAX_AUTO_UNWIND: u32 = 1 << 20;

pub fn run(args: &VerifyArgs) -> u8 {
    if let Some(mb) = args.memlimit {
        if mb == 0 {
            eprintln!("yogar: error: --memlimit must be a positive number of MiB");
            return exit::USAGE;
        }
        if let Role::Done(code) = memlimit::enter(mb) {
            return code;
        }
    }
    let unwindset = match parse_unwindset(args.unwindset.as_deref()) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("yogar: error: --unwindset: {e}");
            return exit::USAGE;
        }
    };
    let solver = args
        .solver
        .clone()
        .unwrap_or_else(|| solver_glue::DEFAULT_SOLVER.to_string());
    if !solver_glue::solver_names().contains(&solver.as_str()) {
        eprintln!(
            "yogar: error: unknown solver '{solver}' (known: {})",
            solver_glue::solver_names().join(", ")
        );
        return exit::USAGE;
    }
    let timeout = match args.timeout {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            eprintln!("yogar: error: --timeout must be a positive number of seconds");
            return exit::USAGE;
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let unwind = args.unwind.unwrap_or(Unwind::Auto);
    if unwind == Unwind::Auto && args.no_unwinding_assertions {
        eprintln!(
            "yogar: error: --no-unwinding-assertions needs a fixed --unwind N (auto stops only \
             when the unwinding assertions hold)"
        );
        return exit::USAGE;
    }
    let request = match Request::resolve(&args.file, args.property.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("yogar: error: {e}");
            return exit::INPUT;
        }
    };
    if request.property != Property::UnreachCall {
        return early_unknown(args, &UnknownReason::UnsupportedProperty);
    }
    // The user's flag wins, then the task's data model; LP64 for a plain program.
    let data_model = args
        .explicit_data_model()
        .or(request.data_model)
        .unwrap_or(DataModel::Lp64);
    let started = Instant::now();
    let program = request.program.clone();
    let prog = match std::panic::catch_unwind(|| frontend::load_file(&program, data_model)) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            if e.is_unsupported() {
                return early_unknown(args, &UnknownReason::Frontend(e));
            }
            eprintln!("yogar: {e}");
            return e.exit_code();
        }
        Err(_) => {
            eprintln!("yogar: internal error while reading {}", program.display());
            return exit::INTERNAL;
        }
    };
    print_warnings(&prog);
    let base = EngineOptions {
        symex: SymexOptions {
            unwind: 1,
            unwindset,
            unwinding_assertions: !args.no_unwinding_assertions,
            ..SymexOptions::default()
        },
        solver,
        timeout,
        check_refinements: args.check_refinements,
        compare_size: args.compare_size,
        keep_eog: args.dot.is_some(),
    };
    let deadline = timeout.map(|t| started + t);
    let (bound, mut outcome) = match deepen(args, &prog, &base, unwind, deadline) {
        Ok(r) => r,
        Err(code) => return code,
    };
    outcome.stats.total_time = started.elapsed();
    let disagree = args.crosscheck && crosscheck(args, &prog, &base, bound, &outcome, deadline);
    let result = Report {
        args,
        prog: &prog,
        program: &request.program,
        spec: request.property.specification(),
        data_model,
        bound,
        outcome: &outcome,
    };
    let code = result.print();
    if disagree {
        return exit::DISAGREE;
    }
    code
}

/// `--crosscheck`: runs the dpor explorer at the decided bound and prints both verdicts;
/// true when one says TRUE and the other FALSE.
fn crosscheck(
    args: &VerifyArgs,
    prog: &Program,
    base: &EngineOptions,
    bound: u32,
    outcome: &Outcome,
    deadline: Option<Instant>,
) -> bool {
    let mut opts = base.clone();
    opts.symex.unwind = bound;
    opts.timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let other = std::panic::catch_unwind(|| {
        explore::verify(prog, &opts, Explorer::Dpor, args.max_executions)
    });
    let word = |v: &Verdict| match v {
        Verdict::True { .. } => "TRUE".to_string(),
        Verdict::False { .. } => "FALSE".to_string(),
        Verdict::Unknown(r) => format!("UNKNOWN ({r})"),
    };
    let Ok(other) = other else {
        println!("crosscheck: dpor: internal error");
        return false;
    };
    let name = format!("{:?}", args.engine).to_lowercase();
    println!(
        "crosscheck: {name}: {}; dpor: {}",
        word(&outcome.verdict),
        word(&other.verdict)
    );
    let disagree = matches!(
        (&outcome.verdict, &other.verdict),
        (Verdict::True { .. }, Verdict::False { .. })
            | (Verdict::False { .. }, Verdict::True { .. })
    );
    if disagree {
        println!("crosscheck: DISAGREEMENT between {name} and dpor (exit code 6)");
    }
    disagree
}

/// An UNKNOWN decided before any engine ran (with its JSON object under `--json`).
fn early_unknown(args: &VerifyArgs, reason: &UnknownReason) -> u8 {
    if args.json {
        println!(
            "{}",
            json!({"verdict": "UNKNOWN", "reason": reason.to_string(), "unwind_bound": null,
                   "statistics": {}, "trace": null})
        );
    }
    println!("{}", Verdict::Unknown(reason.clone()));
    exit::UNKNOWN
}

/// Run the engine at the bound `unwind` gives, or at deepening bounds for `auto`: the bound
/// that decided and its outcome.
fn deepen(
    args: &VerifyArgs,
    prog: &Program,
    base: &EngineOptions,
    unwind: Unwind,
    deadline: Option<Instant>,
) -> Result<(u32, Outcome), u8> {
    let progress = unwind == Unwind::Auto && std::io::stderr().is_terminal();
    let mut bound = match unwind {
        Unwind::Fixed(n) => n,
        Unwind::Auto => 1,
    };
    loop {
        let mut opts = base.clone();
        opts.symex.unwind = bound;
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok((
                    bound,
                    Outcome::unknown(UnknownReason::Timeout, Default::default()),
                ));
            }
            opts.timeout = Some(left);
        }
        if progress {
            eprintln!("unwind {bound} …");
        }
        let outcome = std::panic::catch_unwind(|| match args.engine {
            EngineName::Monolithic => engine::monolithic::verify(prog, &opts),
            EngineName::Yogar => engine::yogar::verify(prog, &opts),
            EngineName::Cegar => engine::cegar::verify(prog, &opts),
            EngineName::Dpor => explore::verify(prog, &opts, Explorer::Dpor, args.max_executions),
            EngineName::Cdpor => explore::verify(prog, &opts, Explorer::Cdpor, args.max_executions),
        });
        let outcome = match outcome {
            Ok(o) => o,
            Err(_) => {
                eprintln!("yogar: internal error during verification");
                return Err(exit::INTERNAL);
            }
        };
        let deeper = matches!(
            &outcome.verdict,
            Verdict::Unknown(UnknownReason::BoundTooSmall { .. })
        );
        if unwind != Unwind::Auto || !deeper || bound >= MAX_AUTO_UNWIND {
            return Ok((bound, outcome));
        }
        bound = next_bound(bound);
    }
}

/// 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, ...: each step at most doubles the formula.
pub fn next_bound(b: u32) -> u32 {
    if b < 4 {
        b + 1
    } else if b.is_power_of_two() {
        b + b / 2
    } else {
        b + b / 3
    }
}

/// What `yogar verify` prints and writes once the verdict is in.
struct Report<'a> {
    args: &'a VerifyArgs,
    prog: &'a Program,
    program: &'a Path,
    spec: &'a str,
    data_model: DataModel,
    bound: u32,
    outcome: &'a Outcome,
}

impl Report<'_> {
    fn print(&self) -> u8 {
        let s = &self.outcome.stats;
        let args = self.args;
        if let Some(path) = &args.dot {
            match &s.last_refuted_eog {
                Some(dot) => {
                    if let Err(e) = std::fs::write(path, dot) {
                        eprintln!("yogar: warning: cannot write {}: {e}", path.display());
                    }
                }
                None => eprintln!(
                    "yogar: no counterexample was refuted by a cycle; {} not written",
                    path.display()
                ),
            }
        }
        if args.stats {
            for (k, v) in stat_lines(s) {
                println!("{k}: {v}");
            }
            println!("unwind bound: {}", self.bound);
        }
        self.write_witness();
        if args.json {
            println!("{}", self.json());
        }
        if let Verdict::False { trace } = &self.outcome.verdict {
            print!("{}", trace.render(self.prog));
        }
        if !args.stats {
            println!("unwind bound: {}", self.bound);
        }
        match &self.outcome.verdict {
            Verdict::True { complete } => {
                if !complete {
                    println!(
                        "(no unwinding assertions: TRUE holds for executions within the unwind \
                         bound)"
                    );
                }
                println!("TRUE");
                exit::TRUE
            }
            Verdict::False { .. } => {
                println!("{}", self.outcome.verdict);
                exit::FALSE
            }
            Verdict::Unknown(_) => {
                println!("{}", self.outcome.verdict);
                exit::UNKNOWN
            }
        }
    }

    /// The violation witness on FALSE, the correctness witness on a complete TRUE; a witness
    /// that cannot be written is a warning, never a change of verdict.
    fn write_witness(&self) {
        let path = self
            .args
            .witness
            .clone()
            .unwrap_or_else(|| PathBuf::from("witness.graphml"));
        let model = self.data_model;
        let meta = || WitnessMeta::new(self.program, self.spec, model);
        let written = match &self.outcome.verdict {
            Verdict::False { trace } => meta()
                .map_err(|e| format!("cannot hash {}: {e}", self.program.display()))
                .and_then(|m| witness_out::write_violation(&path, self.prog, trace, &m)),
            Verdict::True { complete: true } => meta()
                .map_err(|e| format!("cannot hash {}: {e}", self.program.display()))
                .and_then(|m| witness_out::write_correctness(&path, &m)),
            _ => Ok(()),
        };
        if let Err(e) = written {
            eprintln!("yogar: warning: no witness: {e}");
        }
    }

    fn json(&self) -> Value {
        let (verdict, reason) = match &self.outcome.verdict {
            Verdict::True { complete } => (
                "TRUE",
                (!complete).then(|| "within the unwind bound".to_string()),
            ),
            Verdict::False { .. } => ("FALSE(unreach-call)", None),
            Verdict::Unknown(r) => ("UNKNOWN", Some(r.to_string())),
        };
        let stats: serde_json::Map<String, Value> = stat_lines(&self.outcome.stats)
            .into_iter()
            .map(|(k, v)| (k.replace(' ', "_"), v))
            .collect();
        let trace = match &self.outcome.verdict {
            Verdict::False { trace } => {
                let p = self.prog;
                json!({
                    "threads": trace.threads.iter().enumerate().map(|(i, (f, loc))| json!({
                        "thread": i,
                        "entry": f,
                        "created_at": p.loc_str(*loc),
                        "parent": trace.parents.get(i),
                    })).collect::<Vec<_>>(),
                    "inputs": trace.inputs.iter().map(|inp| json!({
                        "thread": inp.thread,
                        "loc": p.loc_str(inp.loc),
                        "line": inp.loc.line,
                        "value": big(inp.value),
                    })).collect::<Vec<_>>(),
                    "events": trace.events.iter().map(|e| json!({
                        "thread": e.thread,
                        "loc": p.loc_str(e.loc),
                        "line": e.loc.line,
                        "cell": e.what,
                        "access": if e.write { "write" } else { "read" },
                        "value": e.value,
                        "bits": e.bits,
                    })).collect::<Vec<_>>(),
                    "violation": {
                        "thread": trace.violation_thread,
                        "loc": p.loc_str(trace.violation_loc),
                        "line": trace.violation_loc.line,
                    },
                })
            }
            _ => Value::Null,
        };
        json!({
            "verdict": verdict,
            "reason": reason,
            "unwind_bound": self.bound,
            "statistics": stats,
            "trace": trace,
        })
    }
}

/// An input value as a JSON number when it fits, else as a decimal string.
fn big(v: i128) -> Value {
    i64::try_from(v).map_or_else(|_| Value::from(v.to_string()), Value::from)
}

/// The `--stats` lines, in order (also the JSON statistics).
fn stat_lines(s: &engine::EngineStats) -> Vec<(&'static str, Value)> {
    let mut v: Vec<(&'static str, Value)> = vec![
        ("threads", s.threads.into()),
        ("events", s.events.into()),
        ("variables", s.vars.into()),
        ("clauses", s.clauses.into()),
        ("zeta clauses", s.zeta_clauses.into()),
        ("xi clauses", s.xi_clauses.into()),
        ("phi0 clauses", s.phi0_clauses.into()),
    ];
    if let Some(xi) = s.monolithic_xi_clauses {
        v.push(("monolithic xi clauses", xi.into()));
    }
    v.extend([
        ("solves", s.solves.into()),
        ("sat conflicts", s.conflicts.into()),
        ("sat decisions", s.decisions.into()),
        ("refinements", s.refinements.into()),
        ("refinements by graph", s.graph_refinements.into()),
        ("exact checks", s.exact_checks.into()),
        ("refinements by exact check", s.exact_refinements.into()),
        ("refinement clauses", s.refinement_clauses.into()),
        ("coherence variables", s.coherence_vars.into()),
        ("theory conflicts", s.theory_conflicts.into()),
        ("theory propagations", s.theory_propagations.into()),
        ("theory edges", s.theory_edges.into()),
    ]);
    let explained = s.theory_conflicts + s.theory_propagations;
    if explained > 0 {
        v.push((
            "theory explanation length",
            secs((s.theory_conflict_literals + s.theory_reason_literals) as f64 / explained as f64),
        ));
    }
    if s.refinement_clauses > 0 {
        v.push((
            "refinement clauses per round",
            secs(s.refinement_clauses as f64 / s.refinements.max(1) as f64),
        ));
        v.push((
            "refinement clause length",
            secs(s.refinement_literals as f64 / s.refinement_clauses as f64),
        ));
    }
    if let Some(e) = &s.explore {
        v.extend([
            ("explored executions", e.executions.into()),
            ("blocked runs", e.blocked.into()),
            ("explored steps", e.steps.into()),
            ("races reversed", e.races.into()),
            ("constrained independences", e.constrained.into()),
        ]);
    }
    v.extend([
        ("graph time", secs(s.graph_time.as_secs_f64())),
        ("exact check time", secs(s.exact_time.as_secs_f64())),
        ("sat time", secs(s.sat_time.as_secs_f64())),
        ("theory time", secs(s.theory_time.as_secs_f64())),
        ("total time", secs(s.total_time.as_secs_f64())),
    ]);
    v
}

/// A ratio or time rounded to what the text output shows.
fn secs(x: f64) -> Value {
    let r = (x * 1000.0).round() / 1000.0;
    serde_json::Number::from_f64(r).map_or(Value::Null, Value::Number)
}

/// `main.0:3,worker.1:5` → bounds per loop.
fn parse_unwindset(s: Option<&str>) -> Result<HashMap<String, u32>, String> {
    let mut out = HashMap::new();
    for item in s.unwrap_or("").split(',').filter(|i| !i.is_empty()) {
        let (lp, n) = item
            .rsplit_once(':')
            .ok_or_else(|| format!("'{item}' is not LOOP:N"))?;
        let n: u32 = n.parse().map_err(|_| format!("'{n}' is not a number"))?;
        out.insert(lp.to_string(), n);
    }
    Ok(out)
}
