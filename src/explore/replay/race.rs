//! Confirming a data race: a state of the witness-guided search in which two threads' next
//! steps are conflicting data accesses, not both atomic (SV-COMP's "can occur one directly
//! after the other": from this state either can go first, the other right after it).
//!
//! Each runnable thread's next visible step (a whole atomic section for a thread about to
//! enter one) is run on a copy of the state, its nondet values 0 (one of the values they can
//! take: the state reached is one of the program's); a step that traps is not taken as an
//! access. The check is the same as dpor's
//! (`dpor::data_race`): bytes of one object, one a write, the lifetime of an object aside.

use crate::explore::interp::{Access, Machine, Target};
use crate::explore::sched;
use crate::ir::Loc;

/// Two racing steps from one state: (thread, where its access is) each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub first: (usize, Loc),
    pub second: (usize, Loc),
}

fn data(a: &Access) -> bool {
    matches!(a.target, Target::Mem { len, .. } if len != u64::MAX)
}

/// Steps a thread may take without a data access before the one that races (see
/// [`next_steps`]).
const LOOKAHEAD: usize = 16;
/// Interpreter steps of one atomic section looked into.
const SECTION_STEPS: u32 = 10_000;

/// The next steps of the runnable threads of `m` that are data accesses: thread, accesses,
/// whether atomic, where. A thread whose next steps access nothing another thread can observe
/// (its start, local computation) is looked past, up to [`LOOKAHEAD`] steps: after them every
/// other thread's next step is still the same, so the data access that follows is enabled
/// together with it — the state they reach is a state of the program in which the two can
/// occur one directly after the other. A step with any access (a lock, a free) ends the look.
fn next_steps(m: &Machine) -> Vec<(usize, sched::Step)> {
    let mut out = Vec::new();
    for t in m.runnable() {
        let mut copy = m.clone();
        for _ in 0..LOOKAHEAD {
            let Ok(step) = sched::run_bounded(&mut copy, t, &[], u64::MAX, SECTION_STEPS) else {
                break;
            };
            let trapped = matches!(step.end, Some(crate::explore::interp::RunEnd::Trap { .. }));
            if trapped {
                break;
            }
            if step.accesses.iter().any(data) {
                out.push((t, step));
                break;
            }
            if step.end.is_some() || !step.accesses.is_empty() || !copy.runnable().contains(&t) {
                break;
            }
        }
    }
    out
}

/// A data race between two threads' next steps in `m`, if there is one.
pub fn at(m: &Machine) -> Option<Race> {
    at_matching(m, &|_| true)
}

/// A data race between two threads' next steps in `m` that `accept` takes, if there is one.
pub fn at_matching(m: &Machine, accept: &dyn Fn(&Race) -> bool) -> Option<Race> {
    let steps = next_steps(m);
    for (i, (t1, s1)) in steps.iter().enumerate() {
        for (t2, s2) in &steps[i + 1..] {
            if s1.atomic && s2.atomic {
                continue;
            }
            for a in s1.accesses.iter().filter(|a| data(a)) {
                for b in s2.accesses.iter().filter(|b| data(b)) {
                    if a.conflicts(b) {
                        let loc = |s: &sched::Step, x: &Access| {
                            s.items
                                .iter()
                                .find(|it| it.access.as_ref() == Some(x))
                                .map_or(s.loc, |it| it.loc)
                        };
                        let race = Race {
                            first: (*t1, loc(s1, a)),
                            second: (*t2, loc(s2, b)),
                        };
                        if accept(&race) {
                            return Some(race);
                        }
                    }
                }
            }
        }
    }
    None
}
