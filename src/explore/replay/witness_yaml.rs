//! Reading a YAML violation witness (format 2.x, `violation_sequence`; 2.2's `thread_id`s) into
//! the replay's [`Witness`], and checking its waypoints against the program before any run.
//!
//! Each `follow` waypoint becomes one witness edge of its thread, in segment order: an
//! `assumption` `x == v` (or any other condition, kept only as a place), a `function_return`
//! `\result == v` (a nondet input), a `branching`, and a thread-creating `function_enter` at a
//! `pthread_create` (it creates the next thread number: main is 0). The final segment's
//! `target`s are what a confirming run must reach: the violation in that thread at that line,
//! or — two targets — a data race between those two threads at those lines.
//!
//! Malformed (an input error): not YAML of the format, and the forms replay cannot follow
//! (`avoid` waypoints; a target outside the final segment; more than two targets).
//! Rejected before running (the witness then describes no execution of the program): a
//! `thread_id` no earlier waypoint created, two racing targets in one thread, a line that is no statement of a function the
//! thread can run (its entry function and what that calls, `main` with the initialisers for
//! thread 0), and a `function_enter` where no thread is created.

use std::collections::{BTreeSet, HashSet};

use super::witness_read::{memsafety_kind, parse_assumption, Witness, WitnessEdge};
use crate::ir::{Callee, FuncId, InstrKind, Program};
use crate::witness::yaml::{Action, Entry, WaypointType};

/// Whether `text` looks like a YAML witness rather than GraphML.
pub fn is_yaml(text: &str) -> bool {
    !text.trim_start().starts_with('<')
}

/// The witness of a YAML violation witness. Errors are one readable line.
pub fn parse_yaml_witness(text: &str) -> Result<Witness, String> {
    let entries: Vec<Entry> =
        yaml_serde::from_str(text).map_err(|e| format!("not a YAML witness: {e}"))?;
    let entry = entries
        .iter()
        .find(|e| e.entry_type == "violation_sequence")
        .ok_or("no violation_sequence entry (not a violation witness)")?;
    let version = &entry.metadata.format_version;
    if !version.starts_with("2.") {
        return Err(format!("format version {version} (2.x expected)"));
    }
    let task = &entry.metadata.task;
    let specification = match task.specification.trim() {
        "" => None,
        s if s.starts_with("CHECK") => Some(s.to_string()),
        // A memory-safety witness names the subproperty it violates: replay checks the
        // property, and only a violation of that kind at the target's place confirms it.
        s if memsafety_kind(s).is_some() => {
            Some(crate::svcomp::property::VALID_MEMSAFETY_SPEC.to_string())
        }
        s => Some(format!("CHECK( init(main()), LTL({s}) )")),
    };
    let architecture = match task.data_model.as_str() {
        "ILP32" => Some("32bit".to_string()),
        "LP64" => Some("64bit".to_string()),
        _ => None,
    };
    let mut edges = Vec::new();
    let mut targets = Vec::new();
    let mut threads = 1u32;
    let last = entry.content.len().checked_sub(1).ok_or("no segments")?;
    for (si, seg) in entry.content.iter().enumerate() {
        if seg.segment.is_empty() {
            return Err(format!("segment {si} is empty"));
        }
        for item in &seg.segment {
            let w = &item.waypoint;
            if w.action == Action::Avoid {
                return Err(format!("segment {si}: avoid waypoints are not supported"));
            }
            let thread = w.thread_id.unwrap_or(0);
            let line = Some(w.location.line);
            let constraint = w.constraint.as_ref().map_or("", |c| c.value.as_str());
            let mut edge = WitnessEdge {
                thread,
                line,
                ..WitnessEdge::default()
            };
            match w.kind {
                WaypointType::Target => {
                    if si != last {
                        return Err(format!("segment {si}: a target before the final segment"));
                    }
                    targets.push((thread, w.location.line));
                }
                _ if si == last => {
                    return Err(format!(
                        "segment {si}: the final segment holds targets only"
                    ));
                }
                WaypointType::FunctionEnter => {
                    edge.create_thread = Some(threads);
                    threads += 1;
                }
                WaypointType::Assumption | WaypointType::FunctionReturn => {
                    edge.assumptions = parse_assumption(constraint);
                }
                WaypointType::Branching => {}
            }
            if w.kind != WaypointType::Target && seg.segment.len() != 1 {
                return Err(format!(
                    "segment {si}: {} waypoints where one is expected",
                    seg.segment.len()
                ));
            }
            edges.push(edge);
        }
    }
    if !(1..=2).contains(&targets.len()) {
        return Err(format!(
            "{} targets (one, or two for a race)",
            targets.len()
        ));
    }
    Ok(Witness {
        edges,
        architecture,
        specification,
        targets,
        mem_kind: memsafety_kind(task.specification.trim()),
    })
}

/// The functions a thread entering `entry` can run: `entry` and what it calls, directly or
/// not; every function when a call is indirect.
fn reachable(prog: &Program, entry: FuncId) -> HashSet<FuncId> {
    let mut seen = HashSet::from([entry]);
    let mut todo = vec![entry];
    while let Some(f) = todo.pop() {
        let Some(body) = prog.funcs[f].body.as_ref() else {
            continue;
        };
        for i in body.instrs.values() {
            match &i.kind {
                InstrKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } if seen.insert(*g) => todo.push(*g),
                InstrKind::Call {
                    callee: Callee::Indirect(_),
                    ..
                } => return prog.funcs.keys().collect(),
                _ => {}
            }
        }
    }
    seen
}

/// Lines of the statements of `funcs`.
fn lines(prog: &Program, funcs: &HashSet<FuncId>) -> BTreeSet<u32> {
    prog.defined_funcs()
        .filter(|(f, _, _)| funcs.contains(f))
        .flat_map(|(_, _, b)| b.instrs.values().map(|i| i.loc.line))
        .collect()
}

/// Check the waypoints of a YAML witness against `prog`: every thread is created at a
/// `pthread_create`, and every waypoint is at a statement its thread can execute.
pub fn check_waypoints(prog: &Program, w: &Witness) -> Result<(), String> {
    if let [(a, _), (b, _)] = w.targets.as_slice() {
        if a == b {
            return Err(format!("the two racing accesses are both in thread {a}"));
        }
    }
    let mut per_thread: Vec<BTreeSet<u32>> = Vec::new();
    let mut main_funcs: HashSet<FuncId> = HashSet::from([prog.init, prog.tls_init]);
    if let Some(m) = prog.main {
        main_funcs.extend(reachable(prog, m));
    }
    per_thread.push(lines(prog, &main_funcs));
    for (k, e) in w.edges.iter().enumerate() {
        let line = e.line.unwrap_or(0);
        let mine = per_thread
            .get(e.thread as usize)
            .ok_or_else(|| format!("waypoint {k}: thread_id {} is not created yet", e.thread))?;
        if !mine.contains(&line) {
            return Err(format!(
                "waypoint {k}: line {line} is no statement thread {} can execute",
                e.thread
            ));
        }
        if e.create_thread.is_some() {
            let mut funcs = HashSet::from([prog.tls_init]);
            let mut any = false;
            for (_, _, b) in prog.defined_funcs() {
                for i in b.instrs.values().filter(|i| i.loc.line == line) {
                    if let InstrKind::ThreadCreate { entry, .. } = &i.kind {
                        any = true;
                        match entry {
                            Callee::Direct(f) => funcs.extend(reachable(prog, *f)),
                            Callee::Indirect(_) => funcs.extend(prog.funcs.keys()),
                        }
                    }
                }
            }
            if !any {
                return Err(format!(
                    "waypoint {k}: function_enter at line {line}, where no thread is created"
                ));
            }
            per_thread.push(lines(prog, &funcs));
        }
    }
    Ok(())
}
