//! no-data-race in dpor: a data race is a reversible race (`hb::races`) of two data accesses.
//!
//! SV-COMP's data race: two accesses of different threads to the same memory, at least one
//! a write and not both atomic, that can occur one directly after the other. In a run, the
//! new event n and an earlier event e of another thread that no third event orders between
//! them (happens-before through program order, creation, joins, mutexes and conflicting
//! accesses: `hb::races`) can be made adjacent by moving the steps between them that do not
//! depend on e to before it, and dropping those that depend on e but not n's: so they
//! race iff their accesses conflict on memory bytes and they are not both steps of atomic
//! sections. Conversely, two accesses both enabled in a reachable state are unordered in the
//! run that takes them one after the other, and source-DPOR explores a run of every
//! Mazurkiewicz trace; happens-before, hence the race, is the same in every run of a trace.
//! (Sleep-set blocked runs are cut short, but their traces are explored elsewhere.)
//!
//! Synchronisation is no data: mutexes, the thread table and the end flags a join reads are
//! targets of their own. The lifetime of an object (`Target::Mem` with `len == u64::MAX`, a
//! declaration or a return) is no access here, as in symbolic execution, which has no event
//! for it; a `free` also logs a write of all the object's bytes (`Machine::free_object`),
//! which is one, as symbolic execution's free is a write of every cell under this property.
//! A target that stands for many (`Everything`, `Globals`) conflicting with memory
//! cannot be decided: the caller gives up.

use super::hb::{self, Event};
use crate::explore::interp::{Access, Target};
use crate::explore::sched::Step;

/// What the race check found for the new event.
pub enum Found {
    None,
    /// `events[i]` races with the new event: its access index among `events[i]`'s items and
    /// the new event's.
    Race {
        i: usize,
        first: usize,
        second: usize,
    },
    /// A conflict with an access standing for many targets.
    Undecided,
}

fn data(a: &Access) -> bool {
    matches!(a.target, Target::Mem { len, .. } if len != u64::MAX)
}

fn vague(a: &Access) -> bool {
    matches!(a.target, Target::Everything | Target::Globals)
}

/// The item of `s` whose access is `a` (the first with it).
fn item_of(s: &Step, a: &Access) -> usize {
    s.items
        .iter()
        .position(|it| it.access.as_ref() == Some(a))
        .unwrap_or(s.items.len().saturating_sub(1))
}

/// The first data race of `n` (the event just made) with an event of `events`.
pub fn find(events: &[Event], n: &Event) -> Found {
    for i in hb::races(events, n) {
        let e = &events[i];
        if e.step.atomic && n.step.atomic {
            continue;
        }
        for a in &e.step.accesses {
            for b in &n.step.accesses {
                if !a.conflicts(b) {
                    continue;
                }
                if (vague(a) && (data(b) || vague(b))) || (vague(b) && data(a)) {
                    return Found::Undecided;
                }
                if data(a) && data(b) {
                    return Found::Race {
                        i,
                        first: item_of(&e.step, a),
                        second: item_of(&n.step, b),
                    };
                }
            }
        }
    }
    Found::None
}

/// The steps of the race's run, adjacent: the events before `events[i]`, those after it that
/// happen before `n` (none depends on `events[i]`, or the race would be ordered), then
/// `events[i]` and `n`.
pub fn run<'a>(events: &'a [Event], i: usize, n: &'a Event) -> Vec<&'a Step> {
    let mut steps: Vec<&Step> = events[..i].iter().map(|e| &e.step).collect();
    steps.extend(
        events[i + 1..]
            .iter()
            .filter(|x| x.before(&n.clock))
            .map(|x| &x.step),
    );
    steps.push(&events[i].step);
    steps.push(&n.step);
    steps
}
