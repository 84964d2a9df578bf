//! Reading a counterexample trace off a model: [`Trace::build`] turns the solver's model and a
//! total order of the events into the interleaving of shared accesses that reaches the error.
//! The trace's data types live in [`crate::trace`], below both the engines and the verdict.

use encoder::{Encoder, Equation, Event};

use crate::ir::{Loc, Program};
use crate::symex::SymexOutput;
use crate::trace::{Trace, TraceEvent, TraceInput};

impl Trace {
    /// Builds the trace of `order` (a total order of the executed events) under the model
    /// `enc` holds, violated at `at` (the failed check's place and thread).
    pub fn build(
        prog: &Program,
        out: &SymexOutput,
        enc: &Encoder,
        order: &[Event],
        at: (Loc, encoder::Thread),
    ) -> Trace {
        let eq: &Equation = &out.equation;
        // The threads are those the execution creates, numbered as the run numbers them: main
        // 0, then in the order of their instances. Symbolic execution numbers an instance for
        // every create it unwinds, also those the model does not reach (a loop's iterations
        // that did not run); a replay, like a validator counting `pthread_create` calls, never
        // sees those, so twostage_3's fourth instance is the run's thread 3, and a witness that
        // called it 4 led the replay astray.
        let live: Vec<&crate::symex::ThreadInfo> = out
            .threads
            .iter()
            .filter(|ti| ti.number == 0 || enc.value(ti.guard))
            .collect();
        let number = |t: encoder::Thread| {
            live.iter()
                .position(|ti| ti.thread == t)
                .map_or(u32::MAX, |k| k as u32)
        };
        // The bytes of one access to a byte object are one step, shown at its first byte.
        let shown: Vec<Event> = order
            .iter()
            .copied()
            .filter(|&e| eq.events[e].thread != eq.init_thread())
            .filter(|&e| out.event_info[e].head.is_none())
            .collect();
        let position: std::collections::HashMap<Event, usize> =
            shown.iter().enumerate().map(|(k, &e)| (e, k)).collect();
        let events = shown
            .iter()
            .map(|&e| {
                let d = &eq.events[e];
                // An access of several bytes: their values joined, lowest byte first.
                let (mut value, mut bits) = (enc.bv_value_u64(&d.value), d.value.width());
                for &r in &out.event_info[e].rest {
                    let v = &eq.events[r].value;
                    if bits < 64 {
                        value |= enc.bv_value_u64(v) << bits;
                    }
                    bits += v.width();
                }
                TraceEvent {
                    thread: number(d.thread),
                    loc: out.event_info[e].loc,
                    what: eq.locations[d.location].name.clone(),
                    write: d.is_write(),
                    value,
                    bits,
                }
            })
            .collect();
        let inputs = out
            .nondets
            .iter()
            .filter(|n| enc.value(n.guard))
            .map(|n| TraceInput {
                thread: number(n.thread),
                loc: n.loc,
                value: if n.signed {
                    enc.bv_value_i64(&n.value) as i128
                } else {
                    enc.bv_value_u64(&n.value) as i128
                },
            })
            .collect();
        let threads = live
            .iter()
            .map(|t| (prog.funcs[t.entry].name.clone(), t.loc))
            .collect();
        // The equation records who created whom; main has no create edge.
        let parents = live
            .iter()
            .map(|t| {
                eq.creates
                    .iter()
                    .find(|c| c.child == t.thread)
                    .map_or(0, |c| number(c.parent))
            })
            .collect();
        // A thread whose parent made no access before creating it is created right after
        // the parent itself (main: before everything); thread numbers grow with creation, so
        // the parent's place is known first.
        let mut created_after: Vec<Option<usize>> = Vec::with_capacity(live.len());
        for t in &live {
            let place = eq
                .creates
                .iter()
                .position(|c| c.child == t.thread)
                .and_then(|k| {
                    let parent = eq.creates[k].parent;
                    let items = &eq.threads[parent].items;
                    let at = items
                        .iter()
                        .position(|i| *i == encoder::ThreadItem::Create(k))?;
                    let after_access = items[..at].iter().rev().find_map(|i| match i {
                        encoder::ThreadItem::Event(e) => position.get(e).map(|p| p + 1),
                        _ => None,
                    });
                    let p = number(parent) as usize;
                    after_access.or(if p == 0 {
                        Some(0)
                    } else {
                        created_after.get(p).copied().flatten()
                    })
                });
            created_after.push(place);
        }
        Trace {
            events,
            inputs,
            violation_loc: at.0,
            violation_thread: number(at.1),
            violation: crate::verdict::Violation::UnreachCall,
            race: None,
            threads,
            parents,
            created_after,
        }
    }

    /// The trace as text, one step a line.
    pub fn render(&self, prog: &Program) -> String {
        let mut s = String::new();
        s.push_str("Counterexample (interleaving of shared accesses):\n");
        for (i, (f, loc)) in self.threads.iter().enumerate() {
            if i == 0 {
                s.push_str(&format!("  thread 0: {f}\n"));
            } else {
                s.push_str(&format!(
                    "  thread {i}: {f}, created at {}\n",
                    prog.loc_str(*loc)
                ));
            }
        }
        for inp in &self.inputs {
            s.push_str(&format!(
                "  input   thread {} {}: nondet = {}\n",
                inp.thread,
                prog.loc_str(inp.loc),
                inp.value
            ));
        }
        for (k, e) in self.events.iter().enumerate() {
            let signed = if e.bits < 64 && e.value >> (e.bits - 1) & 1 == 1 {
                format!(" ({})", (e.value as i64) - (1i64 << e.bits))
            } else {
                String::new()
            };
            s.push_str(&format!(
                "  {:>4}  thread {} {:<24} {} {} = {}{}\n",
                k + 1,
                e.thread,
                prog.loc_str(e.loc),
                if e.write { "write" } else { "read " },
                e.what,
                e.value,
                signed
            ));
        }
        if let Some([i, j]) = self.race {
            s.push_str(&format!(
                "  data race: steps {} and {} (directly after each other)\n",
                i + 1,
                j + 1
            ));
        }
        s.push_str(&format!(
            "  violation in thread {} at {}\n",
            self.violation_thread,
            prog.loc_str(self.violation_loc)
        ));
        s
    }
}
