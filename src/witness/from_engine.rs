//! Turning an engine counterexample into the witness writer's [`witness::Trace`], and writing
//! witness files.
//!
//! The engine trace lists the shared accesses in interleaving order and the inputs per thread;
//! the witness needs every thread created (by its parent, at its creation line) before it acts.
//! Each thread is created where its parent creates it: right after the parent's last access
//! before the `pthread_create` (a replay follows the parent's steps in that order); failing
//! that, just before the thread's first step (its parent first, if that is not yet created).
//! Every shared access is an edge. Reads of global integer variables carry assumptions
//! `x == v` with `v` in the variable's own type; other cells (pointers, struct members, array
//! elements, locks) and writes give none, since a wrong assumption would make a validator
//! reject a true counterexample.

use std::path::Path;

use crate::ir::{Loc, Program, VarKind};
use crate::trace::{Trace, TraceInput};
use crate::witness::{self, Step, TraceStep};

/// The witness trace of `trace`. Lines are given only for locations in `program_file` (a
/// location in an included header has no line of the program file).
pub fn from_engine_trace(prog: &Program, trace: &Trace, program_file: &Path) -> witness::Trace {
    let line = |loc: Loc| -> Option<u32> {
        let file = prog.files.get(loc.file as usize)?;
        let name = program_file.file_name()?.to_str()?;
        (Path::new(file).file_name()?.to_str()? == name).then_some(loc.line)
    };
    let entry = |t: u32| -> String {
        trace
            .threads
            .get(t as usize)
            .map_or_else(|| "main".to_string(), |(f, _)| f.clone())
    };
    let mut steps: Vec<TraceStep> = Vec::new();
    let mut created = vec![false; trace.threads.len().max(1)];
    created[0] = true;
    let create = |t: u32, created: &mut Vec<bool>, steps: &mut Vec<TraceStep>| {
        // The chain of not-yet-created ancestors, outermost first.
        let mut chain = Vec::new();
        let mut cur = t;
        while (cur as usize) < created.len() && !created[cur as usize] && !chain.contains(&cur) {
            chain.push(cur);
            cur = trace.parents.get(cur as usize).copied().unwrap_or(0);
        }
        for &c in chain.iter().rev() {
            let parent = trace.parents.get(c as usize).copied().unwrap_or(0);
            let site = trace.threads[c as usize].1;
            steps.push(TraceStep::new(
                parent,
                line(site),
                &entry(parent),
                Step::CreateThread {
                    child: c,
                    entry: entry(c),
                },
            ));
            created[c as usize] = true;
        }
    };

    // Inputs of each thread, in program order, each placed before the thread's first event at
    // or after its line.
    let mut pending: Vec<Vec<&TraceInput>> = vec![Vec::new(); created.len()];
    // The step of each racing access, when the trace is a race.
    let mut race_steps: [Option<usize>; 2] = [None, None];
    for inp in &trace.inputs {
        if let Some(p) = pending.get_mut(inp.thread as usize) {
            p.push(inp);
        }
    }
    let input_step = |inp: &TraceInput| {
        TraceStep::new(
            inp.thread,
            line(inp.loc),
            &entry(inp.thread),
            Step::NondetInput {
                name: "\\result".to_string(),
                value: inp.value,
            },
        )
    };
    for (k, ev) in trace.events.iter().enumerate() {
        if ev.thread as usize >= created.len() {
            continue;
        }
        // Threads created right after the parent's previous access, in the parent's place.
        for (c, at) in trace.created_after.iter().enumerate() {
            if *at == Some(k) && c < created.len() {
                create(c as u32, &mut created, &mut steps);
            }
        }
        create(ev.thread, &mut created, &mut steps);
        let queue = &mut pending[ev.thread as usize];
        while queue.first().is_some_and(|i| i.loc.line <= ev.loc.line) {
            steps.push(input_step(queue.remove(0)));
        }
        // Every shared access is an edge, so that a validator can follow the interleaving;
        // reads of C variables also state the value read.
        let kind = if ev.write {
            None
        } else {
            read_assumption(prog, &ev.what, ev.value, ev.bits)
        };
        if let Some(r) = trace.race {
            for (slot, &at) in race_steps.iter_mut().zip(r.iter()) {
                if at == k {
                    *slot = Some(steps.len());
                }
            }
        }
        steps.push(TraceStep::new(
            ev.thread,
            line(ev.loc),
            &entry(ev.thread),
            kind.unwrap_or(Step::Access),
        ));
    }
    // Inputs not yet placed, thread by thread (the violating thread's last).
    let v = trace.violation_thread;
    let mut order: Vec<u32> = (0..created.len() as u32).filter(|&t| t != v).collect();
    order.push(v);
    for t in order {
        let queue = std::mem::take(&mut pending[t as usize]);
        if queue.is_empty() {
            continue;
        }
        create(t, &mut created, &mut steps);
        steps.extend(queue.into_iter().map(input_step));
    }
    if (v as usize) < created.len() {
        create(v, &mut created, &mut steps);
    }
    steps.push(TraceStep::new(
        v,
        line(trace.violation_loc),
        &entry(v),
        Step::Violation,
    ));
    let race = match race_steps {
        [Some(a), Some(b)] => Some([a, b]),
        _ => None,
    };
    witness::Trace {
        steps,
        violation: trace.violation,
        race,
    }
}

/// `x == v` for a read of the global integer variable `x` (cell `x` or `x+0`), with `v` in
/// `x`'s type.
fn read_assumption(prog: &Program, cell: &str, value: u64, bits: u32) -> Option<Step> {
    let base = match cell.rsplit_once('+') {
        Some((b, "0")) => b,
        Some(_) => return None,
        None => cell,
    };
    let (_, var) = prog
        .vars
        .iter()
        .find(|(_, v)| v.name == base && v.kind == VarKind::Global && !v.thread_local)?;
    let types = &prog.types;
    if !types.is_integer(var.ty) || types.bits(var.ty) != bits || bits == 0 || bits > 64 {
        return None;
    }
    let value = if types.is_signed(var.ty) && bits < 128 && value >> (bits - 1) & 1 == 1 {
        value as i128 - (1i128 << bits)
    } else {
        value as i128
    };
    Some(Step::Assign {
        lhs: var.source_name.clone(),
        value,
    })
}

/// Write the violation witness of `wt` to `path`.
pub fn write_violation(
    path: &Path,
    wt: &witness::Trace,
    meta: &witness::WitnessMeta,
) -> Result<(), String> {
    let file = std::fs::File::create(path)
        .map_err(|e| format!("cannot write witness {}: {e}", path.display()))?;
    witness::write_violation_witness(std::io::BufWriter::new(file), meta, wt)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Write the YAML (format 2.2) violation witness of `wt` to `path`.
pub fn write_violation_yaml(
    path: &Path,
    wt: &witness::Trace,
    meta: &witness::WitnessMeta,
) -> Result<(), String> {
    let text = witness::violation_witness_yaml(meta, wt)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, text).map_err(|e| format!("cannot write witness {}: {e}", path.display()))
}

/// Write the correctness witness to `path`.
pub fn write_correctness(path: &Path, meta: &witness::WitnessMeta) -> Result<(), String> {
    let file = std::fs::File::create(path)
        .map_err(|e| format!("cannot write witness {}: {e}", path.display()))?;
    witness::write_correctness_witness(std::io::BufWriter::new(file), meta)
        .map_err(|e| format!("cannot write witness {}: {e}", path.display()))
}
