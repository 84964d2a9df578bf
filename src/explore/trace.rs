//! The counterexample of an explorer as the SAT engines' [`Trace`]: the shared accesses of
//! the violating run in order, its nondet inputs and its threads, so that the verdict line,
//! the printed trace and the GraphML witness come from the same code.

use super::interp::{norm, Machine, Target};
use super::sched::Step;
use crate::ir::Loc;
use crate::trace::{Trace, TraceEvent, TraceInput};

/// The trace of the run made of `steps` (its last step violates at `loc` in `thread`);
/// `m` is any state of the run (for the names of objects).
pub fn build(m: &Machine, steps: &[&Step], thread: usize, loc: Loc) -> Trace {
    let prog = m.program();
    let name = |t: &Target| -> String {
        match *t {
            Target::Mem { obj, off, .. } => {
                let base = match m.global_of(obj) {
                    Some(v) => prog.vars[v].name.clone(),
                    None => format!("object{}.{}", obj.owner, obj.index),
                };
                if off == 0 {
                    base
                } else {
                    format!("{base}+{off}")
                }
            }
            Target::Mutex(o, _) => format!("mutex{}.{}", o.owner, o.index),
            Target::Threads => "threads".into(),
            Target::Done(t) => format!("thread{t}"),
            Target::Everything | Target::Globals => "memory".into(),
        }
    };
    let mut events = Vec::new();
    let mut inputs = Vec::new();
    let mut threads: Vec<(String, Loc)> = vec![(
        prog.main
            .map_or("main".into(), |f| prog.funcs[f].name.clone()),
        prog.main.map_or(Loc::default(), |f| prog.funcs[f].loc),
    )];
    let mut parents = vec![0u32];
    let mut created_after: Vec<Option<usize>> = vec![Some(0)];
    for s in steps {
        for c in &s.created {
            let entry = m
                .entry(*c)
                .map_or("?".into(), |f| prog.funcs[f].name.clone());
            while threads.len() <= *c {
                threads.push((String::new(), Loc::default()));
                parents.push(0);
                created_after.push(None);
            }
            threads[*c] = (entry, s.loc);
            parents[*c] = s.thread as u32;
            created_after[*c] = Some(events.len());
        }
        for inp in &s.inputs {
            let value = if inp.signed && inp.bits < 64 && inp.bits > 0 {
                let v = inp.value & ((1u64 << inp.bits) - 1);
                if v >> (inp.bits - 1) & 1 == 1 {
                    v as i128 - (1i128 << inp.bits)
                } else {
                    v as i128
                }
            } else {
                inp.value as i128
            };
            inputs.push(TraceInput {
                thread: s.thread as u32,
                loc: inp.loc,
                value,
            });
        }
        for it in &s.items {
            let (what, write, value, bits) = match &it.access {
                Some(a) => {
                    let bits = match a.target {
                        Target::Mem { len, .. } if len <= 8 => (len * 8) as u32,
                        _ => 64,
                    };
                    // A read's value is in the interpreter's canonical form (sign-extended
                    // for a signed type); the trace holds the access's own bits.
                    (name(&a.target), a.write, norm(a.value, bits, false), bits)
                }
                None => ("sync".into(), true, 0, 1),
            };
            events.push(TraceEvent {
                thread: s.thread as u32,
                loc: it.loc,
                what,
                write,
                value,
                bits,
            });
        }
    }
    Trace {
        events,
        inputs,
        violation_loc: loc,
        // A valid-memsafety violation names itself; any other is a failed assertion (an
        // engine checking another property renames it, see `explore::engines`).
        violation: m.mem_violation.unwrap_or_default(),
        race: None,
        violation_thread: thread as u32,
        threads,
        parents,
        created_after,
    }
}
