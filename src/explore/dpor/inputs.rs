//! The input side of a concolic exploration: the inputs the nodes of the current prefix run
//! with, the solver for the other way of a decision, and the replay that puts the prefix
//! under other inputs (see `concolic::search`).

use std::collections::HashSet;

use super::hb::Event;
use super::Node;
use crate::explore::concolic::split::{Splitter, Values};
use crate::explore::concolic::{Decision, Handle};
use crate::explore::interp::Machine;
use crate::explore::sched;
use crate::verdict::UnknownReason;

/// The symbolic side of a concolic exploration: the shared state, the solver, and the inputs
/// every node of the current prefix was run with.
pub(super) struct Inputs {
    pub h: Handle,
    pub split: Splitter,
    pub values: Values,
    /// The input paths (decision sets) of the complete runs.
    pub paths: HashSet<Vec<(u32, bool)>>,
}

impl Inputs {
    /// The input path of the run so far, as a set.
    pub fn path(&self) -> Vec<(u32, bool)> {
        let mut p: Vec<(u32, bool)> = self
            .h
            .borrow()
            .log
            .iter()
            .map(|d| (cranelift_entity::EntityRef::index(d.cond) as u32, d.taken))
            .collect();
        p.sort_unstable();
        p
    }
}

pub(super) fn internal(what: &str) -> UnknownReason {
    UnknownReason::unsupported(format!("{what} (internal error)"))
}

/// Puts the whole current prefix under other input values, which keep its path condition:
/// its steps are replayed from the start with them (the same threads and choices), so that
/// every node's machine and every event's values come from one run with those inputs (a
/// printed trace and its witness must). The replay must make the same decisions.
pub(super) fn rebase<'p>(
    initial: &Machine<'p>,
    inp: &mut Inputs,
    stack: &mut [Node<'p>],
    events: &mut [Event],
    values: &Values,
) -> Result<(), UnknownReason> {
    let top_pc = stack.last().expect("a node").pc;
    let want: Vec<Decision> = inp.h.borrow().log[..top_pc].to_vec();
    {
        let mut k = inp.h.borrow_mut();
        k.set_values((**values).clone());
        k.truncate(0);
    }
    let mut m = initial.clone();
    for (k, e) in events.iter_mut().enumerate() {
        stack[k].machine = m.clone();
        let choices: Vec<u64> = e.step.choices.iter().map(|c| c.value).collect();
        let step = sched::run_step(&mut m, e.thread(), &choices)
            .map_err(|_| internal("a replay under solved inputs met another input"))?;
        let same = step.end.is_none()
            && step.choices == e.step.choices
            && step.accesses.len() == e.step.accesses.len()
            && step
                .accesses
                .iter()
                .zip(&e.step.accesses)
                .all(|(a, b)| a.target == b.target && a.write == b.write)
            && inp.h.borrow().log.len() == stack[k + 1].pc;
        if !same {
            return Err(internal("a replay under solved inputs ran differently"));
        }
        e.step = step;
    }
    stack.last_mut().expect("a node").machine = m;
    if inp.h.borrow().log != want {
        return Err(internal(
            "a replay under solved inputs did not make the decisions they were solved for",
        ));
    }
    inp.values = values.clone();
    Ok(())
}
