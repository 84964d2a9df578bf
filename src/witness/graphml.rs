//! Writing witnesses as GraphML (SV-COMP witness format 1.0).
//!
//! A violation witness is a path: the entry node, one edge per trace step (every edge names its
//! thread), and the violation node at the end. A `pthread_create` is a `createThread` edge of
//! the parent followed by the child's `enterFunction` edge, so that validators learn the new
//! thread's id and entry function before it takes a step.

use std::fmt::{self, Write as _};
use std::io::{self, Write};

use super::meta::{iso8601_utc, WitnessMeta};
use super::trace::{Step, Trace};
use super::xml::escape;

/// Why no witness was written.
#[derive(Debug)]
pub enum WitnessError {
    /// Writing failed.
    Io(io::Error),
    /// The trace cannot describe a violation (an engine bug, not a user error).
    InvalidTrace(String),
}

impl fmt::Display for WitnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WitnessError::Io(e) => write!(f, "cannot write witness: {e}"),
            WitnessError::InvalidTrace(why) => write!(f, "invalid counterexample trace: {why}"),
        }
    }
}

impl std::error::Error for WitnessError {}

impl From<io::Error> for WitnessError {
    fn from(e: io::Error) -> Self {
        WitnessError::Io(e)
    }
}

/// (id, for, attr.name, attr.type, default): every key a witness of ours may use.
const KEYS: &[(&str, &str, &str, &str, Option<&str>)] = &[
    ("witness-type", "graph", "witness-type", "string", None),
    ("sourcecodelang", "graph", "sourcecodelang", "string", None),
    ("producer", "graph", "producer", "string", None),
    ("specification", "graph", "specification", "string", None),
    ("programfile", "graph", "programfile", "string", None),
    ("programhash", "graph", "programhash", "string", None),
    ("architecture", "graph", "architecture", "string", None),
    ("creationtime", "graph", "creationtime", "string", None),
    ("entry", "node", "isEntryNode", "boolean", Some("false")),
    (
        "violation",
        "node",
        "isViolationNode",
        "boolean",
        Some("false"),
    ),
    ("invariant", "node", "invariant", "string", None),
    ("invariant.scope", "node", "invariant.scope", "string", None),
    ("threadId", "edge", "threadId", "string", None),
    ("createThread", "edge", "createThread", "string", None),
    ("enterFunction", "edge", "enterFunction", "string", None),
    ("returnFrom", "edge", "returnFromFunction", "string", None),
    ("startline", "edge", "startline", "int", None),
    ("assumption", "edge", "assumption", "string", None),
    (
        "assumption.scope",
        "edge",
        "assumption.scope",
        "string",
        None,
    ),
    ("control", "edge", "control", "string", None),
];

/// A witness under construction: nodes are numbered in order, each edge goes from the last
/// node to a new one.
struct Doc {
    text: String,
    last_node: usize,
}

impl Doc {
    fn new(meta: &WitnessMeta, witness_type: &str) -> Doc {
        let mut text = String::new();
        text.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
        text.push_str(
            "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
             xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n",
        );
        for (id, domain, name, ty, default) in KEYS {
            let _ = write!(
                text,
                " <key id=\"{id}\" for=\"{domain}\" attr.name=\"{name}\" attr.type=\"{ty}\""
            );
            match default {
                Some(d) => {
                    let _ = writeln!(text, ">\n  <default>{d}</default>\n </key>");
                }
                None => text.push_str("/>\n"),
            }
        }
        text.push_str(" <graph edgedefault=\"directed\">\n");
        let graph_data = [
            ("witness-type", witness_type.to_string()),
            ("sourcecodelang", "C".to_string()),
            ("producer", meta.producer.clone()),
            ("specification", meta.specification.clone()),
            ("programfile", meta.program_file.display().to_string()),
            ("programhash", meta.program_hash.clone()),
            ("architecture", meta.data_model.architecture().to_string()),
            ("creationtime", iso8601_utc(meta.creation_time)),
        ];
        for (key, value) in graph_data {
            let _ = writeln!(text, "  <data key=\"{key}\">{}</data>", escape(&value));
        }
        text.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
        Doc { text, last_node: 0 }
    }

    /// An edge from the last node to a new node, carrying `data` (key, value) pairs.
    fn edge(&mut self, data: &[(&str, String)], violation: bool) {
        let (from, to) = (self.last_node, self.last_node + 1);
        if violation {
            let _ = writeln!(
                self.text,
                "  <node id=\"N{to}\">\n   <data key=\"violation\">true</data>\n  </node>"
            );
        } else {
            let _ = writeln!(self.text, "  <node id=\"N{to}\"/>");
        }
        let _ = writeln!(self.text, "  <edge source=\"N{from}\" target=\"N{to}\">");
        for (key, value) in data {
            let _ = writeln!(self.text, "   <data key=\"{key}\">{}</data>", escape(value));
        }
        self.text.push_str("  </edge>\n");
        self.last_node = to;
    }

    fn finish(mut self) -> String {
        self.text.push_str(" </graph>\n</graphml>\n");
        self.text
    }
}

/// Check what the writer relies on: exactly one [`Step::Violation`] and it is last; a thread
/// acts only after it is created; a thread is created once.
pub(super) fn validate(trace: &Trace) -> Result<(), WitnessError> {
    let invalid = |why: String| Err(WitnessError::InvalidTrace(why));
    let mut alive = vec![0u32];
    for (i, step) in trace.steps.iter().enumerate() {
        if !alive.contains(&step.thread) {
            return invalid(format!(
                "step {i}: thread {} acts before it is created",
                step.thread
            ));
        }
        match &step.kind {
            Step::CreateThread { child, .. } => {
                if alive.contains(child) {
                    return invalid(format!("step {i}: thread {child} is created twice"));
                }
                alive.push(*child);
            }
            Step::Violation if i + 1 != trace.steps.len() => {
                return invalid(format!("step {i}: violation is not the last step"));
            }
            _ => {}
        }
    }
    match trace.steps.last() {
        Some(step) if step.kind == Step::Violation => Ok(()),
        _ => invalid("the trace does not end in a violation".into()),
    }
}

/// The violation witness of `trace` as a string.
pub fn violation_witness(meta: &WitnessMeta, trace: &Trace) -> Result<String, WitnessError> {
    validate(trace)?;
    let mut doc = Doc::new(meta, "violation_witness");
    let mut steps = trace.steps.iter().peekable();
    while let Some(step) = steps.next() {
        let mut data: Vec<(&str, String)> = vec![("threadId", step.thread.to_string())];
        if let Some(line) = step.line {
            data.push(("startline", line.to_string()));
        }
        let mut violation = false;
        match &step.kind {
            Step::Assign { lhs: name, value } | Step::NondetInput { name, value } => {
                data.push(("assumption", format!("{name} == {value};")));
                data.push(("assumption.scope", step.function.clone()));
            }
            Step::CreateThread { child, entry } => {
                data.push(("createThread", child.to_string()));
                doc.edge(&data, false);
                doc.edge(
                    &[
                        ("threadId", child.to_string()),
                        ("enterFunction", entry.clone()),
                    ],
                    false,
                );
                // The engine may report the child's entry itself: it is already written.
                if let Some(next) = steps.peek() {
                    if next.thread == *child
                        && next.kind == Step::EnterFunction
                        && next.function == *entry
                    {
                        steps.next();
                    }
                }
                continue;
            }
            Step::Access => {}
            Step::EnterFunction => data.push(("enterFunction", step.function.clone())),
            Step::Return => data.push(("returnFrom", step.function.clone())),
            Step::Branch { taken } => {
                let control = if *taken {
                    "condition-true"
                } else {
                    "condition-false"
                };
                data.push(("control", control.to_string()));
            }
            Step::Violation => violation = true,
        }
        doc.edge(&data, violation);
    }
    Ok(doc.finish())
}

/// Write the violation witness of `trace` to `out`.
pub fn write_violation_witness(
    mut out: impl Write,
    meta: &WitnessMeta,
    trace: &Trace,
) -> Result<(), WitnessError> {
    out.write_all(violation_witness(meta, trace)?.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// A correctness witness without invariants: the entry node alone (the weakest claim a
/// validator accepts: it re-verifies the program on its own).
pub fn correctness_witness(meta: &WitnessMeta) -> String {
    Doc::new(meta, "correctness_witness").finish()
}

/// A correctness witness with invariants: per `(line, function, C expression)` a node that
/// carries the invariant (scoped to the function), reached from the entry by an edge at that
/// line.
pub fn correctness_witness_with_invariants(
    meta: &WitnessMeta,
    invariants: &[(u32, String, String)],
) -> String {
    let mut doc = Doc::new(meta, "correctness_witness");
    for (k, (line, function, value)) in invariants.iter().enumerate() {
        let n = k + 1;
        let _ = writeln!(
            doc.text,
            "  <node id=\"N{n}\">\n   <data key=\"invariant\">{}</data>\n   \
             <data key=\"invariant.scope\">{}</data>\n  </node>",
            escape(value),
            escape(function)
        );
        let _ = writeln!(
            doc.text,
            "  <edge source=\"N0\" target=\"N{n}\">\n   <data key=\"startline\">{line}</data>\n  </edge>"
        );
    }
    doc.finish()
}

/// Write the correctness witness to `out`.
pub fn write_correctness_witness(mut out: impl Write, meta: &WitnessMeta) -> io::Result<()> {
    out.write_all(correctness_witness(meta).as_bytes())?;
    out.flush()
}
