//! The happens-before relation of the current run as vector clocks, and race detection in
//! the sense of source-DPOR: the events of earlier threads that the new event is in a
//! reversible race with, and the initials of the reversed sequence.

use crate::explore::interp::Target;
use crate::explore::sched::Step;

/// An executed event: its step, its position in its thread (1-based) and its vector clock
/// (per thread, the position of the latest event of that thread that happens before it).
#[derive(Clone, Debug)]
pub struct Event {
    pub step: Step,
    pub idx: u32,
    pub clock: Vec<u32>,
}

impl Event {
    pub fn thread(&self) -> usize {
        self.step.thread
    }
    /// Whether `self` happens before (or is) an event with clock `c`.
    pub fn before(&self, c: &[u32]) -> bool {
        c.get(self.thread()).copied().unwrap_or(0) >= self.idx
    }
}

fn join(a: &mut Vec<u32>, b: &[u32]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

/// The event `step` makes after `events`: program order, creation, and every conflicting
/// earlier event happen before it.
pub fn event(events: &[Event], step: Step) -> Event {
    let p = step.thread;
    let mut clock = Vec::new();
    let mut idx = 1;
    match events.iter().rposition(|e| e.thread() == p) {
        Some(j) => {
            clock = events[j].clock.clone();
            idx = events[j].idx + 1;
        }
        None => {
            if let Some(c) = events.iter().find(|e| e.step.created.contains(&p)) {
                clock = c.clock.clone();
            }
        }
    }
    for e in events {
        if e.step.conflicts(&step) {
            join(&mut clock, &e.clock);
        }
    }
    if clock.len() <= p {
        clock.resize(p + 1, 0);
    }
    clock[p] = idx;
    Event { step, idx, clock }
}

/// Whether `e` and `n` (later) conflict in a way the order of which could be reversed: not
/// only through a thread's end awaited by a join, nor through a mutex `e` releases and `n`
/// waits for.
fn reversible_conflict(e: &Step, n: &Step) -> bool {
    e.accesses.iter().any(|a| {
        n.accesses.iter().any(|b| {
            if !a.conflicts(b) {
                return false;
            }
            match a.target {
                Target::Done(_) => false,
                Target::Mutex(o, off) => {
                    !(e.release == Some((o, off))
                        && n.acquire
                            .is_some_and(|(k, blocking)| blocking && k == (o, off)))
                }
                _ => true,
            }
        })
    })
}

/// The events of `events` in a reversible race with `n` (the event just made after them):
/// a conflict of another thread that no other event between them orders; and, for a lock
/// acquisition, the previous acquisition of the same mutex by another thread (its critical
/// section could have come after).
pub fn races(events: &[Event], n: &Event) -> Vec<usize> {
    let p = n.thread();
    let po_pred = events.iter().rposition(|e| e.thread() == p);
    let creator = events.iter().position(|e| e.step.created.contains(&p));
    let direct: Vec<usize> = (0..events.len())
        .filter(|&j| Some(j) == po_pred || Some(j) == creator || events[j].step.conflicts(&n.step))
        .collect();
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if e.thread() == p || !reversible_conflict(&e.step, &n.step) {
            continue;
        }
        let shadowed = direct.iter().any(|&j| j > i && e.before(&events[j].clock));
        if !shadowed {
            out.push(i);
        }
    }
    if let Some((key, true)) = n.step.acquire {
        let synced = po_pred.map(|j| events[j].clock.clone()).unwrap_or_default();
        let prev = events
            .iter()
            .rposition(|e| e.thread() != p && e.step.acquire.is_some_and(|(k, _)| k == key));
        if let Some(i) = prev {
            if !events[i].before(&synced) && !out.contains(&i) {
                out.push(i);
            }
        }
    }
    out
}

/// The threads that can start the reversed race of `events[i]` with `n`: the initials of
/// the events after `events[i]` that do not happen after it, followed by `n`. Initial =
/// no earlier event of the sequence happens before it.
pub fn initials(events: &[Event], i: usize, n: &Event) -> Vec<usize> {
    let e = &events[i];
    let v: Vec<&Event> = events[i + 1..]
        .iter()
        .filter(|x| !e.before(&x.clock))
        .chain(std::iter::once(n))
        .collect();
    let mut out = Vec::new();
    for (k, x) in v.iter().enumerate() {
        let preceded = v[..k].iter().any(|y| y.before(&x.clock));
        if !preceded && !out.contains(&x.thread()) {
            out.push(x.thread());
        }
    }
    out
}
