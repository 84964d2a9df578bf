//! `yogar verify`: turn the arguments into a task and [`Options`], run [`crate::verify`], print
//! the trace and statistics, write the witness, and end with the verdict line. A status line
//! on stderr shows progress when stderr is a terminal (not with `--quiet`).

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use super::memlimit::{self, Role};
use super::parse::print_warnings;
use super::progress::StatusLine;
use super::{Unwind, VerifyArgs};
use crate::engine;
use crate::exit;
use crate::ir::Program;
use crate::pipeline::{Options, Outcome};
use crate::status::Status;
use crate::svcomp::Request;
use crate::verdict::Verdict;
use crate::witness::{self, WitnessMeta};

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
    let options = match options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("yogar: error: {e}");
            return exit::USAGE;
        }
    };
    let request = match Request::resolve(&args.file, args.property.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("yogar: error: {e}");
            return exit::INPUT;
        }
    };
    let line = options.status.clone().map(StatusLine::start);
    let result = crate::verify(&request, &options);
    drop(line);
    let outcome = match result {
        Ok(o) => o,
        Err(e) => {
            eprintln!("yogar: {e}");
            return e.exit_code();
        }
    };
    if let Some(p) = &outcome.program {
        print_warnings(p);
    }
    let report = Report {
        args,
        program: &request.program,
        spec: request.property.specification(),
        outcome: &outcome,
    };
    let disagree = args.crosscheck && crosscheck(args, &options, &outcome, &request.property);
    let code = report.print();
    if disagree {
        return exit::DISAGREE;
    }
    code
}

/// `--crosscheck`: runs the dpor explorer at the bound that decided and prints both verdicts;
/// true when one says TRUE and the other FALSE.
fn crosscheck(
    args: &VerifyArgs,
    options: &Options,
    outcome: &Outcome,
    property: &crate::svcomp::Property,
) -> bool {
    let (Some(prog), Some(bound)) = (&outcome.program, outcome.bound) else {
        return false;
    };
    // dpor is sequentially consistent: under another model the verdicts may rightly differ.
    if options.memory_model != engine::MemoryModel::Sc {
        println!("crosscheck: skipped (dpor decides under sc only)");
        return false;
    }
    if !engine::Engine::Dpor.checks(property) {
        println!("crosscheck: skipped (dpor does not check this property)");
        return false;
    }
    let mut opts = engine::EngineOptions::with_unwind(bound);
    opts.property = property.clone();
    opts.symex.unwinding_assertions = options.unwinding_assertions;
    opts.symex.unwindset = options.unwindset.clone();
    opts.max_executions = args.max_executions;
    opts.timeout = options
        .timeout
        .map(|t| t.saturating_sub(outcome.stats.total_time));
    let explorer = engine::Engine::Dpor;
    let other = std::panic::catch_unwind(|| explorer.verify(prog, &opts));
    let word = |v: &Verdict| match v {
        Verdict::True { .. } => "TRUE".to_string(),
        Verdict::False { .. } => "FALSE".to_string(),
        Verdict::Unknown(r) => format!("UNKNOWN ({r})"),
    };
    let Ok(other) = other else {
        println!("crosscheck: dpor: internal error");
        return false;
    };
    let name = options.engine.name();
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

/// The verification options the arguments give.
fn options(args: &VerifyArgs) -> Result<Options, String> {
    let unwindset =
        parse_unwindset(args.unwindset.as_deref()).map_err(|e| format!("--unwindset: {e}"))?;
    let timeout = match args.timeout {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err("--timeout must be a positive number of seconds".into())
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let status = (!args.quiet && std::io::stderr().is_terminal()).then(|| Arc::new(Status::new()));
    Ok(Options {
        engine: args.engine,
        unwind: args.unwind.unwrap_or(Unwind::Auto),
        unwindset,
        unwinding_assertions: !args.no_unwinding_assertions,
        spin_reduction: !args.no_spin_reduction,
        data_model: args.explicit_data_model(),
        solver: args
            .solver
            .clone()
            .unwrap_or_else(|| args.engine.default_solver().to_string()),
        timeout,
        check_refinements: args.check_refinements,
        compare_size: args.compare_size,
        keep_eog: args.dot.is_some(),
        status,
        max_executions: args.max_executions,
        max_states: args.max_states,
        memory_model: args.mm,
        causal_maps: args.causal_maps,
        frontend: args.frontend.options(),
    })
}

/// What `yogar verify` prints and writes once the verdict is in.
struct Report<'a> {
    args: &'a VerifyArgs,
    program: &'a Path,
    spec: &'a str,
    outcome: &'a Outcome,
}

impl Report<'_> {
    fn print(&self) -> u8 {
        let (Some(prog), Some(bound)) = (&self.outcome.program, self.outcome.bound) else {
            // Decided before any engine ran: the verdict line (and its JSON) only.
            return self.print_early();
        };
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
            if self.args.engine.bounded() {
                println!("unwind bound: {bound}");
            }
            if let Some(how) = &self.outcome.proved_by {
                println!("proved by: {how}");
            }
        }
        self.write_witness();
        if args.json {
            println!("{}", self.json(prog, bound));
        }
        if let Verdict::False { trace } = &self.outcome.verdict {
            print!("{}", trace.render(prog));
        }
        if !args.stats && args.engine.bounded() {
            println!("unwind bound: {bound}");
        }
        match &self.outcome.verdict {
            Verdict::True { complete } => {
                if !complete {
                    println!(
                        "(no unwinding assertions: TRUE holds for executions within the unwind \
                         bound)"
                    );
                }
                if let (Some(how), false) = (&self.outcome.proved_by, args.stats) {
                    println!("proved by: {how}");
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

    /// An UNKNOWN decided before any engine ran (with its JSON object under `--json`).
    fn print_early(&self) -> u8 {
        if self.args.json {
            println!(
                "{}",
                json!({"verdict": "UNKNOWN", "reason": self.reason(), "unwind_bound": null,
                       "statistics": {}, "trace": null})
            );
        }
        println!("{}", self.outcome.verdict);
        exit::UNKNOWN
    }

    fn reason(&self) -> Option<String> {
        match &self.outcome.verdict {
            Verdict::True { complete } => {
                (!complete).then(|| "within the unwind bound".to_string())
            }
            Verdict::False { .. } => None,
            Verdict::Unknown(r) => Some(r.to_string()),
        }
    }

    /// The violation witnesses on FALSE (GraphML, and YAML 2.2 at `--witness-yaml`, else
    /// beside the GraphML as `.yml`), the correctness witness on a complete TRUE; a witness
    /// that cannot be written is a warning, never a change of verdict.
    fn write_witness(&self) {
        let path = self
            .args
            .witness
            .clone()
            .unwrap_or_else(|| PathBuf::from("witness.graphml"));
        let model = self.outcome.data_model;
        let meta = || {
            WitnessMeta::new(self.program, self.spec, model)
                .map_err(|e| format!("cannot hash {}: {e}", self.program.display()))
        };
        let written = match (&self.outcome.verdict, &self.outcome.witness) {
            (Verdict::False { .. }, Some(wt)) => meta().and_then(|m| {
                witness::write_violation(&path, wt, &m)?;
                let yaml_path = self
                    .args
                    .witness_yaml
                    .clone()
                    .unwrap_or_else(|| path.with_extension("yml"));
                witness::write_violation_yaml(&yaml_path, wt, &m)
            }),
            (Verdict::True { complete: true }, _) if !self.outcome.invariants.is_empty() => {
                meta().and_then(|m| self.write_invariants(&path, &m))
            }
            (Verdict::True { complete: true }, _) => {
                meta().and_then(|m| witness::write_correctness(&path, &m))
            }
            _ => Ok(()),
        };
        if let Err(e) = written {
            eprintln!("yogar: warning: no witness: {e}");
        }
    }

    /// The correctness witnesses of a proof: GraphML with the invariants, and the YAML
    /// `invariant_set` (at `--witness-yaml`, else beside the GraphML as `.yml`).
    fn write_invariants(&self, path: &Path, meta: &WitnessMeta) -> Result<(), String> {
        let invs = &self.outcome.invariants;
        let triples: Vec<(u32, String, String)> = invs
            .iter()
            .map(|i| (i.line, i.function.clone(), i.value.clone()))
            .collect();
        let graphml = witness::correctness_witness_with_invariants(meta, &triples);
        std::fs::write(path, graphml)
            .map_err(|e| format!("cannot write witness {}: {e}", path.display()))?;
        let yaml_path = self
            .args
            .witness_yaml
            .clone()
            .unwrap_or_else(|| path.with_extension("yml"));
        let yaml = crate::prove::witness::yaml_witness(meta, invs);
        std::fs::write(&yaml_path, yaml)
            .map_err(|e| format!("cannot write witness {}: {e}", yaml_path.display()))
    }

    fn json(&self, prog: &Program, bound: u32) -> Value {
        let verdict = match &self.outcome.verdict {
            Verdict::True { .. } => "TRUE".to_string(),
            Verdict::False { trace } => format!("FALSE({})", trace.violation.name()),
            Verdict::Unknown(_) => "UNKNOWN".to_string(),
        };
        let reason = self.reason();
        let stats: serde_json::Map<String, Value> = stat_lines(&self.outcome.stats)
            .into_iter()
            .map(|(k, v)| (k.replace(' ', "_"), v))
            .collect();
        let trace = match &self.outcome.verdict {
            Verdict::False { trace } => {
                let p = prog;
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
            "proved_by": self.outcome.proved_by,
            "unwind_bound": self.args.engine.bounded().then_some(bound),
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
        ("symmetry orders", s.search_orders.into()),
        ("variables", s.vars.into()),
        ("clauses", s.clauses.into()),
        ("zeta clauses", s.zeta_clauses.into()),
        ("zeta clauses in theory", s.zeta_clauses_in_theory.into()),
        ("xi clauses", s.xi_clauses.into()),
        ("phi0 clauses", s.phi0_clauses.into()),
    ];
    if let Some(xi) = s.monolithic_xi_clauses {
        v.push(("monolithic xi clauses", xi.into()));
    }
    v.extend([
        ("spin loops reduced", s.spin.total().into()),
        ("spin await loops", s.spin.await_loops.into()),
        (
            "spin pure-iteration loops",
            s.spin.pure_iteration_loops.into(),
        ),
        ("spin lock-retry loops", s.spin.lock_retry_loops.into()),
        ("spin cond-wait loops", s.spin.cond_wait_loops.into()),
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
            ("redundant runs or instances", e.redundant.into()),
            ("pruned assumption stops", e.pruned_stops.into()),
            ("explored steps", e.steps.into()),
            ("explored instances", e.nodes.into()),
            ("causal map cuts", e.causal_cuts.into()),
            ("races reversed", e.races.into()),
            ("constrained independences", e.constrained.into()),
            ("settled reads taken alone", e.settled.into()),
            ("unneeded writes taken alone", e.quiet_writes.into()),
            ("silent stops not explored", e.silent_stops.into()),
            ("input classes", e.input_classes.into()),
            ("paths covered", e.paths.into()),
            ("stored states", e.states.into()),
            ("reduced states", e.reduced_states.into()),
            ("certificate check time", secs(e.check_time.as_secs_f64())),
        ]);
    }
    v.extend([
        ("graph time", secs(s.graph_time.as_secs_f64())),
        ("exact check time", secs(s.exact_time.as_secs_f64())),
        ("frontend time", secs(s.frontend_time.as_secs_f64())),
        ("symex time", secs(s.symex_time.as_secs_f64())),
        ("encoding time", secs(s.encode_time.as_secs_f64())),
        ("sat time", secs(s.sat_time.as_secs_f64())),
        ("theory time", secs(s.theory_time.as_secs_f64())),
        ("total time", secs(s.total_time.as_secs_f64())),
        // The times above are wall-clock; on a loaded machine only this one measures work.
        (
            "process cpu time",
            secs(crate::budget::cpu_time().as_secs_f64()),
        ),
    ]);
    if let Some(mib) =
        crate::resources::peak_resident_bytes().map(|b| b as f64 / f64::from(1u32 << 20))
    {
        v.push(("peak memory MiB", secs(mib)));
    }
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
