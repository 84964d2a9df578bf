//! Litmus tests in the herd format (PPC): parse, run on the POWER explorer (or under SC),
//! and report as herd does: the reachable final states of the condition's registers and
//! locations, whether the condition holds (`Ok`/`No`), and whether its state formula is
//! reachable (`Allowed`) or not (`Forbidden`).

pub mod parse;

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::explore::findings::Budget;
use crate::explore::rsmc::{self, MemoryModel};
pub use parse::{parse, Atom, Cond, Litmus, ParseError, Quantifier};

/// Whether a final state matching the condition's formula is reachable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Allowed,
    Forbidden,
}

/// The result of running a litmus test.
#[derive(Clone, Debug)]
pub struct Report {
    pub name: String,
    /// Final states (as herd prints them) with the number of traces reaching each.
    pub states: BTreeMap<String, u64>,
    /// Traces whose final state satisfies the formula, and the others.
    pub positive: u64,
    pub negative: u64,
    pub outcome: Outcome,
    /// The condition (with its quantifier) holds.
    pub validated: bool,
    pub stats: rsmc::Stats,
}

/// Why a test could not be run to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    Stuck(String),
    TooBig,
    Budget,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Stuck(s) => write!(f, "{s}"),
            RunError::TooBig => write!(
                f,
                "more than 128 events in one trace, or 63 loads waiting for one store"
            ),
            RunError::Budget => write!(f, "budget exhausted"),
        }
    }
}

/// Runs the test under `model`.
pub fn run(t: &Litmus, model: MemoryModel, budget: Budget) -> Result<Report, RunError> {
    let opts = rsmc::Options {
        model,
        max_events: 1000,
        budget,
    };
    let mut states: BTreeMap<String, u64> = BTreeMap::new();
    let (mut pos, mut neg) = (0, 0);
    let prog = &t.program;
    let (stats, halt) = rsmc::explore(prog, &opts, &mut |s| {
        let value = |a: &Atom| match a {
            Atom::Reg { thread, reg, .. } => s.final_reg(*thread, *reg),
            Atom::Loc { loc, .. } => s.final_loc(*loc),
        };
        let mut line = String::new();
        for a in &t.observed {
            let _ = write!(line, "{a}={}; ", prog.show_value(value(a)));
        }
        *states.entry(line.trim_end().to_string()).or_default() += 1;
        if t.cond.eval(&value) {
            pos += 1;
        } else {
            neg += 1;
        }
        false
    });
    match halt {
        None => {}
        Some(rsmc::Halt::Stuck(s)) => return Err(RunError::Stuck(format!("{s:?}"))),
        Some(rsmc::Halt::TooBig) => return Err(RunError::TooBig),
        Some(_) => return Err(RunError::Budget),
    }
    let outcome = if pos > 0 {
        Outcome::Allowed
    } else {
        Outcome::Forbidden
    };
    let validated = match t.quantifier {
        Quantifier::Exists => pos > 0,
        Quantifier::NotExists => pos == 0,
        Quantifier::Forall => neg == 0,
    };
    Ok(Report {
        name: t.name.clone(),
        states,
        positive: pos,
        negative: neg,
        outcome,
        validated,
        stats,
    })
}

impl Report {
    /// The report in herd's layout, with the outcome and the exploration counts.
    pub fn render(&self, t: &Litmus) -> String {
        let mut s = String::new();
        let kind = match t.quantifier {
            Quantifier::Exists | Quantifier::NotExists => match self.outcome {
                Outcome::Allowed => "Allowed",
                Outcome::Forbidden => "Forbidden",
            },
            Quantifier::Forall => "Required",
        };
        let _ = writeln!(s, "Test {} {kind}", self.name);
        let _ = writeln!(s, "States {}", self.states.len());
        for st in self.states.keys() {
            let _ = writeln!(s, "{st}");
        }
        let _ = writeln!(s, "{}", if self.validated { "Ok" } else { "No" });
        let _ = writeln!(s, "Witnesses");
        let _ = writeln!(s, "Positive: {} Negative: {}", self.positive, self.negative);
        let q = match t.quantifier {
            Quantifier::Exists => "exists",
            Quantifier::NotExists => "~exists",
            Quantifier::Forall => "forall",
        };
        let _ = writeln!(s, "Condition {q} {}", show_cond(&t.cond));
        let obs = if self.positive == 0 {
            "Never"
        } else if self.negative == 0 {
            "Always"
        } else {
            "Sometimes"
        };
        let _ = writeln!(
            s,
            "Observation {} {obs} {} {}",
            self.name, self.positive, self.negative
        );
        let _ = writeln!(
            s,
            "Traces {} Blocked {} Time {:.2}",
            self.stats.traces,
            self.stats.blocked,
            self.stats.time.as_secs_f64()
        );
        s
    }
}

/// The condition in herd's syntax.
pub fn show_cond(c: &Cond) -> String {
    match c {
        Cond::True => "true".into(),
        Cond::False => "false".into(),
        Cond::Eq(a, v) => format!("{a}={v}"),
        Cond::Not(c) => format!("~{}", show_cond(c)),
        Cond::And(a, b) => format!("({} /\\ {})", show_cond(a), show_cond(b)),
        Cond::Or(a, b) => format!("({} \\/ {})", show_cond(a), show_cond(b)),
    }
}
