//! Argument definitions (clap derive). Option names follow CBMC where CBMC has the option.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::engine::Engine;
use crate::ir::DataModel;
pub use crate::pipeline::Unwind;

#[derive(Parser, Debug)]
#[command(
    name = "yogar",
    version,
    about = "Bounded model checker for multi-threaded C programs"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Verify a C program (or an SV-COMP task .yml): TRUE, FALSE with a trace, or UNKNOWN.
    Verify(VerifyArgs),
    /// Parse and lower a C program to the IR; print a one-line summary.
    Parse(ParseArgs),
    /// Print the IR of a C program as text, with source lines.
    ShowIr(ParseArgs),
    /// Print the equation symbolic execution builds at a bound: per thread its shared-memory
    /// events (guard, value, source line), creates and joins, then the checks.
    ShowEquation(ShowEquationArgs),
    /// Solve a DIMACS CNF file: prints `s SATISFIABLE` with `v` lines (exit 10) or
    /// `s UNSATISFIABLE` (exit 20), as SAT-competition solvers do.
    Sat(SatArgs),
    /// Validate a violation witness (GraphML or YAML 2.2): exit 0 when a concrete run guided by it
    /// reaches the violation, 1 when not.
    Replay(ReplayArgs),
    /// Run a herd-format PPC litmus test: the reachable final states of the condition's
    /// registers and locations, and whether the condition is Allowed or Forbidden.
    Litmus(LitmusArgs),
}

#[derive(Args, Debug)]
pub struct LitmusArgs {
    /// The test (.litmus, herd format, PPC).
    pub file: PathBuf,
    /// Memory model: power (the default) or sc.
    #[arg(long, value_name = "MODEL", value_parser = parse_mm, default_value = "power")]
    pub mm: crate::engine::MemoryModel,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// Options for the frontend, as CBMC names them.
#[derive(Args, Debug, Clone, Default)]
pub struct FrontendArgs {
    /// Define a macro for the preprocessor (`-D NAME` or `-D NAME=VALUE`; repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Search DIR for `#include` files before the system directories (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// The entry point: this function instead of `main` (its parameters are inputs).
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// Reaching a statement labelled LABEL is the error (older SV-COMP tasks use `ERROR:`).
    #[arg(long, value_name = "LABEL")]
    pub error_label: Option<String>,
}

impl FrontendArgs {
    /// The frontend's options.
    pub fn options(&self) -> crate::frontend::FrontendOptions {
        crate::frontend::FrontendOptions {
            defines: self.define.clone(),
            include_dirs: self.include.clone(),
            entry: self.function.clone(),
            error_label: self.error_label.clone(),
        }
    }
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The program (.c or .i) or an SV-COMP task definition (.yml).
    pub file: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// Unwind every loop (and recursion) this many times, or `auto` (the default): deepen the
    /// bound 1, 2, 3, 4, 6, 8, 12, 16, ... until a verdict or the time limit.
    #[arg(long, value_name = "N|auto", value_parser = parse_unwind)]
    pub unwind: Option<Unwind>,
    /// The SV-COMP property file (`.prp`): unreach-call (the default), no-data-race or
    /// no-overflow (engines yogar and dpor); any other answers UNKNOWN (unsupported property).
    #[arg(long, value_name = "FILE")]
    pub property: Option<PathBuf>,
    /// Verification engine: yogar (the default: ordering consistency checked inside the SAT
    /// search), cegar (the Yogar paper's refinement loop), monolithic (one solve with the
    /// scheduling constraint, the CBMC-style baseline), or an explorer (dpor, cdpor, rvf; rsmc:
    /// the POWER explorer, with --mm power or sc).
    #[arg(long, value_name = "NAME", value_parser = parse_engine, default_value = Engine::NAMES[0].0)]
    pub engine: Engine,
    /// ILP32 data model (int, long and pointers are 32 bits).
    #[arg(long = "32", conflicts_with = "lp64")]
    pub ilp32: bool,
    /// LP64 data model (long and pointers are 64 bits); the default.
    #[arg(long = "64")]
    pub lp64: bool,
    /// SAT back end (default: cadical for the yogar engine, batsat for the others).
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// Give up after this many seconds (UNKNOWN (timeout)).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Limit the address space to this many MiB (UNKNOWN (out of memory) when exceeded).
    #[arg(long, value_name = "MB")]
    pub memlimit: Option<u64>,
    /// Also build the monolithic scheduling constraint to report its size (with --stats).
    #[arg(long)]
    pub compare_size: bool,
    /// Write the event order graph of the last counterexample refuted by a cycle (Graphviz;
    /// `--engine cegar` only: the default engine refutes partial assignments inside the search).
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Print statistics (formula size, refinements, time split).
    #[arg(long)]
    pub stats: bool,
    /// Print the result (verdict, statistics, trace) as JSON.
    #[arg(long)]
    pub json: bool,
    /// Where to write the SV-COMP witness (GraphML).
    #[arg(long, value_name = "PATH")]
    pub witness: Option<PathBuf>,
    /// Where the YAML witness goes (default: beside the GraphML witness, with the extension
    /// `.yml`): on FALSE the violation witness (format 2.2, waypoints with thread ids), on a
    /// TRUE the prover proved the correctness witness (format 2.0, `invariant_set`).
    #[arg(long, value_name = "PATH")]
    pub witness_yaml: Option<PathBuf>,
    /// Per-loop bounds: `FUNCTION.N:BOUND,...` (N counts the loops of a function from 0).
    #[arg(long, value_name = "LOOP:N,...")]
    pub unwindset: Option<String>,
    /// Treat a loop that could run past its bound as an assumption: TRUE then holds within
    /// the bound only.
    #[arg(long)]
    pub no_unwinding_assertions: bool,
    /// Unroll waiting loops like any other loop (no cut at iterations without a visible
    /// effect, no blocking at a repeated condition wait): to compare.
    #[arg(long)]
    pub no_spin_reduction: bool,
    /// Also run the dpor explorer at the decided bound and compare: TRUE against FALSE exits
    /// with code 6.
    #[arg(long)]
    pub crosscheck: bool,
    /// Explorers: give up (UNKNOWN) after this many runs.
    #[arg(long, value_name = "N")]
    pub max_executions: Option<u64>,
    /// `--engine stateful`: give up (UNKNOWN) once more states than this are stored.
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// `--engine rvf`: use the paper's causal maps (off by default: they cut no instance the
    /// explorer's memo does not, and cost time).
    #[arg(long)]
    pub causal_maps: bool,
    /// Memory model: sc (the default; every engine), power (--engine rsmc only), tso, pso
    /// (UNKNOWN: no engine decides under them yet).
    #[arg(long, value_name = "MODEL", value_parser = parse_mm, default_value = "sc")]
    pub mm: crate::engine::MemoryModel,
    /// Check every refinement clause against the exact order encoding (slow; a self-test).
    #[arg(long, hide = true)]
    pub check_refinements: bool,
    /// No status line on stderr (there is one only when stderr is a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    Engine::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Engine::NAMES.iter().map(|(n, _)| *n).collect();
        format!("unknown engine '{s}' (known: {})", names.join(", "))
    })
}

fn parse_mm(s: &str) -> Result<crate::engine::MemoryModel, String> {
    crate::engine::MemoryModel::NAMES
        .iter()
        .find(|(n, _)| *n == s)
        .map(|(_, m)| *m)
        .ok_or_else(|| format!("unknown memory model '{s}' (known: sc, tso, pso, power)"))
}

fn parse_unwind(s: &str) -> Result<Unwind, String> {
    if s == "auto" {
        return Ok(Unwind::Auto);
    }
    s.parse()
        .map(Unwind::Fixed)
        .map_err(|_| format!("'{s}' is neither a number nor 'auto'"))
}

impl VerifyArgs {
    pub fn data_model(&self) -> DataModel {
        self.explicit_data_model().unwrap_or(DataModel::Lp64)
    }

    /// The data model given by `--32`/`--64`, if any.
    pub fn explicit_data_model(&self) -> Option<DataModel> {
        if self.ilp32 {
            Some(DataModel::Ilp32)
        } else if self.lp64 {
            Some(DataModel::Lp64)
        } else {
            None
        }
    }
}

#[derive(Args, Debug)]
pub struct ParseArgs {
    /// The program (.c or .i).
    pub file: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// ILP32 data model (int, long and pointers are 32 bits).
    #[arg(long = "32", conflicts_with = "lp64")]
    pub ilp32: bool,
    /// LP64 data model (long and pointers are 64 bits); the default.
    #[arg(long = "64")]
    pub lp64: bool,
}

impl ParseArgs {
    pub fn data_model(&self) -> DataModel {
        if self.ilp32 {
            DataModel::Ilp32
        } else {
            DataModel::Lp64
        }
    }
}

#[derive(Args, Debug)]
pub struct ShowEquationArgs {
    #[command(flatten)]
    pub program: ParseArgs,
    /// Unwind every loop (and recursion) this many times.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub unwind: u32,
}

#[derive(Args, Debug)]
pub struct SatArgs {
    /// The formula, in DIMACS CNF.
    pub file: PathBuf,
    /// SAT back end (batsat, varisat, cadical).
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// Give up after this many seconds (`s UNKNOWN`, exit 0).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The program (.c or .i).
    pub file: PathBuf,
    /// The violation witness (GraphML 1.0, or YAML 2.x: its targets name thread and line).
    pub witness: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// ILP32 data model (int, long and pointers are 32 bits).
    #[arg(long = "32", conflicts_with = "lp64")]
    pub ilp32: bool,
    /// LP64 data model (long and pointers are 64 bits); without either flag, the witness's
    /// architecture.
    #[arg(long = "64")]
    pub lp64: bool,
    /// Give up after this many scheduling steps over all runs.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_steps: u64,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub timeout: f64,
}

impl ReplayArgs {
    pub fn data_model(&self) -> DataModel {
        if self.ilp32 {
            DataModel::Ilp32
        } else {
            DataModel::Lp64
        }
    }
}
