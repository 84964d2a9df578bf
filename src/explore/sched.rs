//! The scheduler interface of the explorers over the interpreter: which threads are enabled,
//! and one visible step of one thread with everything a partial-order reduction needs to
//! know about it (its accesses, the locks it takes and releases, the threads it creates, its
//! nondet choices). A step inside an atomic section runs on to the section's end: no other
//! thread can move in between, so the whole section is one step. A prefix is restored from a
//! snapshot: [`Machine`] is cheap to clone.

use super::interp::{Access, Machine, NondetRequest, ObjId, RunEnd, Target, Value};
use crate::ir::{InstrKind, Loc};

/// A nondet value of a step: the value taken and how many there are (`0 .. domain`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub value: u64,
    pub domain: u64,
}

/// One shared access or synchronisation operation of a step, for traces and witnesses.
#[derive(Clone, Debug)]
pub struct Item {
    pub loc: Loc,
    pub access: Option<Access>,
}

/// A nondet input of a step.
#[derive(Clone, Debug)]
pub struct Input {
    pub loc: Loc,
    pub value: u64,
    pub bits: u32,
    pub signed: bool,
}

/// One visible step of a thread.
#[derive(Clone, Debug)]
pub struct Step {
    pub thread: usize,
    /// Where the step started.
    pub loc: Loc,
    pub accesses: Vec<Access>,
    /// The exact values of the shared memory reads among `accesses`, in their order.
    pub values: Vec<Value>,
    /// A mutex taken, and whether taking it could have blocked (lock, condition wake-up) or
    /// not (a successful trylock).
    pub acquire: Option<((ObjId, u64), bool)>,
    /// A mutex released (unlock, the first half of a condition wait).
    pub release: Option<(ObjId, u64)>,
    /// Threads this step created.
    pub created: Vec<usize>,
    pub items: Vec<Item>,
    pub inputs: Vec<Input>,
    pub choices: Vec<Choice>,
    /// The run ended with this step.
    pub end: Option<RunEnd>,
    /// The step is an atomic section of several instructions.
    pub atomic: bool,
}

impl Step {
    /// The step thread `t` of `m` is about to take, before it does anything.
    pub fn at(m: &Machine, t: usize) -> Step {
        Step {
            thread: t,
            loc: m.position(t).map(|(_, l)| l).unwrap_or_default(),
            accesses: Vec::new(),
            values: Vec::new(),
            acquire: None,
            release: None,
            created: Vec::new(),
            items: Vec::new(),
            inputs: Vec::new(),
            choices: Vec::new(),
            end: None,
            atomic: false,
        }
    }

    /// Whether the two steps conflict (some access of one conflicts with one of the other).
    pub fn conflicts(&self, o: &Step) -> bool {
        conflict(&self.accesses, &o.accesses)
    }
}

/// Whether two access sets conflict.
pub fn conflict(a: &[Access], b: &[Access]) -> bool {
    a.iter().any(|x| b.iter().any(|y| x.conflicts(y)))
}

/// Largest domain of a nondet value the explorers enumerate.
pub const MAX_DOMAIN: u64 = 2;

/// Which values of a nondet input a step takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Domains {
    /// Inputs with at most this many values are enumerated in full.
    pub max: u64,
    /// A wider input is an error ([`Unenumerable`]) unless this is set; it then takes only
    /// its first `sample` values (`0 .. sample`): an under-approximation, for searches that
    /// only look for violations (every run they find is a real run).
    pub sample: Option<u64>,
}

impl From<u64> for Domains {
    /// Enumerate inputs of at most `max` values, refuse wider ones.
    fn from(max: u64) -> Domains {
        Domains { max, sample: None }
    }
}

/// A nondet input whose values cannot be enumerated: where it is read.
#[derive(Clone, Debug)]
pub struct Unenumerable(pub Loc);

/// Runs one visible step of thread `t` on `m`. The step's nondet values are `forced` first,
/// then 0 (each recorded as a [`Choice`]); an input with more than [`MAX_DOMAIN`] values is
/// an error.
pub fn run_step(m: &mut Machine, t: usize, forced: &[u64]) -> Result<Step, Unenumerable> {
    let mut step = Step::at(m, t);
    while !run_into(m, t, forced, MAX_DOMAIN.into(), &mut step)? {
        if m.in_atomic(t) && m.runnable().contains(&t) {
            step.atomic = true;
        } else {
            break;
        }
    }
    Ok(step)
}

/// Runs one step of thread `t` on `m` as [`run_step`] does, on to the end of an atomic
/// section, but for at most `limit` steps of the interpreter ([`Machine::step`]): the
/// stateful search's transition, where a section that does not end stops in a state of its
/// own. Nondet values are `forced` first, then 0; an input with more than `max_domain` values
/// is an error.
pub fn run_bounded(
    m: &mut Machine,
    t: usize,
    forced: &[u64],
    max_domain: impl Into<Domains>,
    limit: u32,
) -> Result<Step, Unenumerable> {
    let max_domain = max_domain.into();
    let mut step = Step::at(m, t);
    let mut n = 1;
    while !run_into(m, t, forced, max_domain, &mut step)? {
        if n < limit && m.in_atomic(t) && m.runnable().contains(&t) {
            step.atomic = true;
            n += 1;
        } else {
            break;
        }
    }
    Ok(step)
}

/// One [`Machine::step`] of thread `t`, recorded into `step`; true when the run ended.
fn run_into(
    m: &mut Machine,
    t: usize,
    forced: &[u64],
    domains: Domains,
    step: &mut Step,
) -> Result<bool, Unenumerable> {
    let mut bad: Option<Loc> = None;
    let kind = m.next_kind(t);
    let waking = m.cond_waiting(t);
    let file = m.position(t).map_or(0, |(_, l)| l.file);
    let threads_before = m.num_threads();
    let choices = &mut step.choices;
    let inputs = &mut step.inputs;
    let r = m.step(t, &mut |req: &NondetRequest| {
        // A symbolic input of a concolic run: its value is given, it is no choice.
        if let Some(value) = req.given {
            inputs.push(Input {
                loc: req.loc,
                value,
                bits: req.bits,
                signed: req.signed,
            });
            return value;
        }
        let mut domain = if req.boolean || req.bits == 1 {
            2
        } else {
            1u64.checked_shl(req.bits).unwrap_or(u64::MAX)
        };
        let value = forced.get(choices.len()).copied().unwrap_or(0);
        if domain > domains.max {
            match domains.sample {
                Some(n) => domain = n,
                None => {
                    bad.get_or_insert(req.loc);
                }
            }
        }
        choices.push(Choice { value, domain });
        inputs.push(Input {
            loc: req.loc,
            value,
            bits: req.bits,
            signed: req.signed,
        });
        value
    });
    if let Some(l) = bad {
        return Err(Unenumerable(l));
    }
    let mutex = m.accesses.iter().find_map(|a| match a.target {
        Target::Mutex(o, off) => Some((o, off)),
        _ => None,
    });
    if let (Some(key), Some(kind)) = (mutex, kind) {
        match kind {
            InstrKind::MutexLock(_) => step.acquire = Some((key, true)),
            InstrKind::CondWait { .. } if waking => step.acquire = Some((key, true)),
            InstrKind::CondWait { .. } | InstrKind::MutexUnlock(_) => step.release = Some(key),
            InstrKind::MutexTryLock { .. } if m.holds(t, key) => step.acquire = Some((key, false)),
            _ => {}
        }
    }
    let creates = m.num_threads() > threads_before;
    step.created.extend(threads_before..m.num_threads());
    let mut mem = m
        .accesses
        .iter()
        .filter(|a| matches!(a.target, Target::Mem { .. }));
    // A creation is the trace's creation of the thread (the witness's create edge), not
    // an access of it: the equation has no event for it, nor for the handle write of a
    // handle only its creator uses.
    for &line in m.last_shared.iter().filter(|_| !creates) {
        step.items.push(Item {
            loc: Loc { file, line },
            access: mem.next().copied(),
        });
    }
    step.accesses.extend(m.accesses.iter().copied());
    step.values.extend(m.read_values.iter().cloned());
    match r {
        Err(e) => {
            step.end = Some(e);
            Ok(true)
        }
        Ok(()) => Ok(false),
    }
}
