//! Violation witnesses in the YAML format 2.2 (one `violation_sequence` entry), and the serde
//! model of that format, which `yogar replay` reads back (`explore::replay::witness_yaml`).
//!
//! The interleaving is a sequence of segments of one `follow` waypoint each, so the segment
//! order is the order of the steps across threads; every waypoint carries the `thread_id` of
//! the thread that takes the step (format 2.2's concurrency extension). Threads are numbered
//! as the format numbers them: `main` is 0 and each thread-creating `function_enter` waypoint
//! (at the `pthread_create`, in the parent) creates the next number. What each step says:
//!
//! - a read of a C variable: an `assumption` `x == v` at the reading statement;
//! - any other shared access: an `assumption` `1` (it pins where the thread is, nothing more);
//! - a nondet input: a `function_return` with `\result == v` at the call;
//! - the end: one `target` at the violation (reach_error, the overflow, the invalid access of
//!   a memory-safety property); for a data race, the final segment holds the two racing
//!   accesses as two `target`s, which nothing orders apart from their adjacency (the other
//!   accesses of the two racing steps — an atomic section's — are left out: they happen with
//!   the target's step, not before it).
//!
//! Locations give the line only (no column: the counterexample does not know one), and no
//! function (the trace knows the thread's entry function, not always the function of the line).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::graphml::{validate, WitnessError};
use super::meta::{iso8601_utc, sha256_hex, WitnessMeta};
use super::trace::{Step, Trace};
use crate::verdict::Violation;

/// One entry of a witness file (a file is a list of them).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Entry {
    pub entry_type: String,
    pub metadata: Metadata,
    pub content: Vec<SegmentItem>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Metadata {
    pub format_version: String,
    #[serde(default)]
    pub uuid: String,
    #[serde(default)]
    pub creation_time: String,
    #[serde(default)]
    pub producer: Producer,
    #[serde(default)]
    pub task: TaskMeta,
}

#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Producer {
    pub name: String,
    pub version: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct TaskMeta {
    #[serde(default)]
    pub input_files: Vec<String>,
    #[serde(default)]
    pub input_file_hashes: BTreeMap<String, String>,
    /// The violated property as LTL (`G ! data-race`), or SV-COMP's whole `CHECK(...)`.
    #[serde(default)]
    pub specification: String,
    /// `ILP32` or `LP64`.
    #[serde(default)]
    pub data_model: String,
    #[serde(default)]
    pub language: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SegmentItem {
    pub segment: Vec<WaypointItem>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WaypointItem {
    pub waypoint: Waypoint,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Waypoint {
    #[serde(rename = "type")]
    pub kind: WaypointType,
    pub action: Action,
    /// The thread taking the step (format 2.2); absent: the only thread, `main`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<Constraint>,
    pub location: Location,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WaypointType {
    Assumption,
    Target,
    FunctionEnter,
    FunctionReturn,
    Branching,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Follow,
    Avoid,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Constraint {
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Location {
    pub file_name: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// The LTL formula of a violation, as the `specification` of a YAML witness.
pub fn ltl_of(v: Violation) -> &'static str {
    match v {
        Violation::UnreachCall => "G ! call(reach_error())",
        Violation::DataRace => "G ! data-race",
        Violation::Overflow => "G ! overflow",
        Violation::ValidDeref => "G valid-deref",
        Violation::ValidFree => "G valid-free",
        Violation::ValidMemtrack => "G valid-memtrack",
    }
}

fn c_expr(value: String) -> Option<Constraint> {
    Some(Constraint {
        value,
        format: Some("c_expression".into()),
    })
}

/// The violation witness of `trace` in the YAML format 2.2.
pub fn violation_witness_yaml(meta: &WitnessMeta, trace: &Trace) -> Result<String, WitnessError> {
    validate(trace)?;
    let invalid = |why: &str| Err(WitnessError::InvalidTrace(why.to_string()));
    let file = meta.program_file.display().to_string();
    // Thread numbers of the format: creation order, main 0.
    let mut number: BTreeMap<u32, u32> = BTreeMap::from([(0, 0)]);
    for s in &trace.steps {
        if let Step::CreateThread { child, .. } = s.kind {
            let n = number.len() as u32;
            number.entry(child).or_insert(n);
        }
    }
    let waypoint = |kind, thread: u32, line: u32, constraint| Waypoint {
        kind,
        action: Action::Follow,
        thread_id: Some(number.get(&thread).copied().unwrap_or(thread)),
        constraint,
        location: Location {
            file_name: file.clone(),
            line,
            column: None,
            function: None,
        },
    };
    let racing = match (trace.violation, trace.race) {
        (Violation::DataRace, Some(r)) => r,
        (Violation::DataRace, None) => return invalid("a data race without its two accesses"),
        _ => [usize::MAX; 2],
    };
    let mut content: Vec<SegmentItem> = Vec::new();
    let mut targets: Vec<WaypointItem> = Vec::new();
    for (k, s) in trace.steps.iter().enumerate() {
        let Some(line) = s.line else {
            if racing.contains(&k) || s.kind == Step::Violation {
                return invalid("the violation has no line of the program file");
            }
            continue;
        };
        // Other accesses after the first racing one are the rest of the racing steps (an
        // atomic section's other accesses): the targets stand for those steps.
        let access = matches!(s.kind, Step::Assign { .. } | Step::Access);
        if access && !racing.contains(&k) && racing[0] != usize::MAX && k > racing[0] {
            continue;
        }
        if racing.contains(&k) {
            targets.push(WaypointItem {
                waypoint: waypoint(WaypointType::Target, s.thread, line, None),
            });
            continue;
        }
        let w = match &s.kind {
            Step::Assign { lhs, value } => waypoint(
                WaypointType::Assumption,
                s.thread,
                line,
                c_expr(format!("{lhs} == {value}")),
            ),
            Step::Access => waypoint(WaypointType::Assumption, s.thread, line, c_expr("1".into())),
            Step::NondetInput { value, .. } => waypoint(
                WaypointType::FunctionReturn,
                s.thread,
                line,
                c_expr(format!("\\result == {value}")),
            ),
            Step::CreateThread { .. } => {
                waypoint(WaypointType::FunctionEnter, s.thread, line, None)
            }
            Step::Branch { taken } => waypoint(
                WaypointType::Branching,
                s.thread,
                line,
                Some(Constraint {
                    value: taken.to_string(),
                    format: None,
                }),
            ),
            Step::EnterFunction | Step::Return => continue,
            Step::Violation => {
                if trace.violation != Violation::DataRace {
                    targets.push(WaypointItem {
                        waypoint: waypoint(WaypointType::Target, s.thread, line, None),
                    });
                }
                continue;
            }
        };
        content.push(SegmentItem {
            segment: vec![WaypointItem { waypoint: w }],
        });
    }
    content.push(SegmentItem { segment: targets });
    // A UUID (version 4 layout) from the content's hash: the same witness, the same id.
    let h = sha256_hex(format!("{file}{content:?}{}", meta.program_hash).as_bytes());
    let uuid = format!(
        "{}-{}-4{}-8{}-{}",
        &h[0..8],
        &h[8..12],
        &h[13..16],
        &h[17..20],
        &h[20..32]
    );
    let entry = Entry {
        entry_type: "violation_sequence".into(),
        metadata: Metadata {
            format_version: "2.2".into(),
            uuid,
            creation_time: iso8601_utc(meta.creation_time),
            producer: Producer {
                name: "yogar".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            task: TaskMeta {
                input_files: vec![file.clone()],
                input_file_hashes: [(file.clone(), meta.program_hash.clone())].into(),
                specification: ltl_of(trace.violation).into(),
                data_model: match meta.data_model {
                    crate::ir::DataModel::Ilp32 => "ILP32",
                    crate::ir::DataModel::Lp64 => "LP64",
                }
                .into(),
                language: "C".into(),
            },
        },
        content,
    };
    yaml_serde::to_string(&vec![entry])
        .map_err(|e| WitnessError::InvalidTrace(format!("cannot write YAML: {e}")))
}
