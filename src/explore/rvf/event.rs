//! Events of the reads-value-from exploration and what they observe.
//!
//! An event is one visible step of the interpreter (`sched::run_step`), named by its thread
//! and its position in the thread. A thread is deterministic given what its steps observe,
//! so an event is fixed by its thread, its position and the observations of its thread's
//! earlier events; running the same event again and seeing the same observations gives the
//! same step (accesses, values written, end).
//!
//! What a step observes ([`Obs`]):
//! - a shared memory read: its exact value (the bytes and the pointers they carry), not its
//!   source: the reads-value-from equivalence compares values only;
//! - a synchronisation object it depends on: the step that last wrote it. Every mutex
//!   operation (acquisition, trylock, release, init, destroy; a condition wait's release
//!   and its wake-up, which are a release and an acquisition) observes its mutex, a join
//!   the joined thread's end, a thread creation the thread table (it takes the next thread
//!   number). As in the paper's mutex extension every acquisition has exactly one good
//!   write (the release it follows); unlike it, a release is a read too (see `run`);
//! - a nondet value chosen by the step (enumerated like a read of a free input);
//! - for a write to an object that can die (a heap or stack object, not a global): that the
//!   object was alive. Whether such a write traps depends on whether another thread freed
//!   the object first, so it is not a non-read event: as one, the exploration would run it
//!   early in every extension and never meet the order in which it hits a dead object.
//!
//! A step that observes nothing (a write to a global, a thread's end) is a *non-read*
//! event: it is always enabled and its effect depends on its thread alone.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::explore::interp::{Machine, Target, Value};
use crate::explore::sched::{self, Choice, Step, Unenumerable};

/// An event: thread, position in the thread (0-based).
pub type EvId = (usize, u32);

/// A synchronisation object as an ordered key: kind, object, offset.
pub type SyncKey = (u8, u32, u32, u64);

/// Last writer of every synchronisation object written so far.
pub type SyncWriters = BTreeMap<SyncKey, EvId>;

/// One observation of a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Obs {
    /// The exact value a shared memory read returned.
    Mem(Value),
    /// The event that last wrote a synchronisation object (none: never written).
    Sync(Option<EvId>),
    /// A nondet value the step took.
    Choice(u64),
    /// A write found its object (one that can die) alive.
    Alive,
}

/// A step whose accesses the exploration cannot model exactly.
#[derive(Clone, Debug)]
pub enum Unmodelled {
    /// A nondet input with too many values.
    Input(Unenumerable),
    /// An over-approximated access (all memory, all globals).
    Access(&'static str),
}

/// The kinds of synchronisation object, the first part of a `SyncKey`.
pub const MUTEX: u8 = 0;
pub const DONE: u8 = 2;
/// The thread table's key (a thread creation writes it).
pub const THREADS: SyncKey = (1, 0, 0, 0);

fn sync_key(t: &Target) -> Option<SyncKey> {
    match *t {
        Target::Mutex(o, off) => Some((MUTEX, o.owner, o.index, off)),
        Target::Threads => Some(THREADS),
        Target::Done(t) => Some((DONE, t as u32, 0, 0)),
        _ => None,
    }
}

/// An event as the instances of VerifySC know it (`EvData`), shared: the exploration clones
/// an instance for every child and keeps every explored one in its memo, and a child's
/// instance is its parent's plus a few events, so the events themselves are shared between
/// instances instead of copied (a clone is a reference count; at 6 threads of the lock
/// counter the copies took a third of the CPU time and most of the 340 MB). Immutable once
/// made, so sharing changes nothing an instance means; equality is equality of the data.
#[derive(Clone, Debug)]
pub struct Ev(Arc<EvData>);

impl std::ops::Deref for Ev {
    type Target = EvData;
    fn deref(&self) -> &EvData {
        &self.0
    }
}

/// Changing an event copies it first when another instance shares it.
impl std::ops::DerefMut for Ev {
    fn deref_mut(&mut self) -> &mut EvData {
        Arc::make_mut(&mut self.0)
    }
}

impl From<EvData> for Ev {
    fn from(d: EvData) -> Ev {
        Ev(Arc::new(d))
    }
}

impl PartialEq for Ev {
    fn eq(&self, o: &Ev) -> bool {
        Arc::ptr_eq(&self.0, &o.0) || *self.0 == *o.0
    }
}

/// What an event observed and the nondet values it took (to run it again the same way).
#[derive(Clone, Debug, PartialEq)]
pub struct EvData {
    pub obs: Vec<Obs>,
    pub choices: Vec<u64>,
    /// It observes but writes nothing shared: running it early never disables another event
    /// (the greedy rule of VerifySC).
    pub pure_read: bool,
    /// The synchronisation objects it reads, with the writer it observes (the closure).
    pub sync_reads: Vec<(SyncKey, Option<EvId>)>,
    /// The synchronisation objects it writes (the closure).
    pub sync_writes: Vec<SyncKey>,
    /// The shared memory it reads (greedy rule 1b of VerifySC and the closure's memory reads).
    /// Fixed by the event like everything else its step does.
    pub reads: Vec<Target>,
    /// The shared memory it writes, with the summary of the bytes written
    /// (`interp::summary`): whether a wait's address is the same in every witness, and the
    /// closure's good writes of a memory read.
    pub writes: Vec<(Target, u64)>,
    /// Some cell it writes holds a value with a term over the symbolic inputs afterwards:
    /// the summaries in `writes` are this run's bytes, not the same for every input on the
    /// path condition, and the closure leaves the reads of such cells to VerifySC.
    pub writes_symbolic: bool,
}

impl EvData {
    /// Its shared memory reads, each with the value it observes.
    pub fn mem_reads(&self) -> impl Iterator<Item = (&Target, &Value)> {
        let values = self.obs.iter().filter_map(|o| match o {
            Obs::Mem(v) => Some(v),
            _ => None,
        });
        self.reads.iter().zip(values)
    }
}

/// A step run from a state: the state after it, the step and its observations.
pub struct Ran<'p> {
    pub machine: Machine<'p>,
    pub step: Step,
    pub obs: Vec<Obs>,
    pub sync: SyncWriters,
    sync_reads: Vec<(SyncKey, Option<EvId>)>,
    sync_writes: Vec<SyncKey>,
}

impl Ran<'_> {
    pub fn event(&self) -> Ev {
        Ev::from(EvData {
            obs: self.obs.clone(),
            choices: self.step.choices.iter().map(|c| c.value).collect(),
            pure_read: !self.step.accesses.iter().any(|a| a.write),
            sync_reads: self.sync_reads.clone(),
            sync_writes: self.sync_writes.clone(),
            reads: self
                .step
                .accesses
                .iter()
                .filter(|a| !a.write && matches!(a.target, Target::Mem { .. }))
                .map(|a| a.target)
                .collect(),
            writes: self
                .step
                .accesses
                .iter()
                .filter(|a| a.write && matches!(a.target, Target::Mem { .. }))
                .map(|a| (a.target, a.value))
                .collect(),
            writes_symbolic: self
                .step
                .accesses
                .iter()
                .any(|a| a.write && self.machine.has_shadow(&a.target)),
        })
    }
}

/// Runs the next step of thread `t` (event `id`) from `m` with the nondet values `forced`
/// (then 0), and reads off its observations given the synchronisation writers `sync`.
pub fn run<'p>(
    m: &Machine<'p>,
    t: usize,
    idx: u32,
    forced: &[u64],
    sync: &SyncWriters,
) -> Result<Ran<'p>, Unmodelled> {
    let mut machine = m.clone();
    let step = sched::run_step(&mut machine, t, forced).map_err(Unmodelled::Input)?;
    let mut obs = Vec::new();
    let mut sync = sync.clone();
    let mut sync_reads = Vec::new();
    let mut sync_writes = Vec::new();
    let mut values = step.values.iter();
    for a in &step.accesses {
        match a.target {
            Target::Mem { .. } if !a.write => {
                let v = values
                    .next()
                    .cloned()
                    .ok_or(Unmodelled::Access("a read without its value"))?;
                obs.push(Obs::Mem(v));
            }
            // Globals (owner 0) never die.
            Target::Mem { obj, .. } if obj.owner != 0 => obs.push(Obs::Alive),
            Target::Mem { .. } => {}
            Target::Everything | Target::Globals => {
                return Err(Unmodelled::Access(
                    "an over-approximated access in the rvf explorer",
                ))
            }
            target => {
                let key = sync_key(&target).expect("a synchronisation target");
                // Every mutex operation observes the mutex's last writer, a release too:
                // an init or destroy frees the mutex whoever holds it, so whether a release
                // traps (the thread no longer holds it) depends on another thread, and as a
                // non-read event it would go into every extension right after its thread's
                // acquisition, never meeting the order with the init in between. Then the
                // writes of a mutex form a chain the instance fixes, so who holds it after
                // the instance is the same in every witness: the skip of waiting locks in
                // `mod.rs` rests on this. Only a thread's end (its done object) is a pure
                // write.
                let reads = !a.write || !matches!(target, Target::Done(_));
                if reads {
                    let writer = sync.get(&key).copied();
                    obs.push(Obs::Sync(writer));
                    sync_reads.push((key, writer));
                }
                if a.write {
                    sync.insert(key, (t, idx));
                    sync_writes.push(key);
                }
            }
        }
    }
    obs.extend(step.choices.iter().map(|c| Obs::Choice(c.value)));
    Ok(Ran {
        machine,
        step,
        obs,
        sync,
        sync_reads,
        sync_writes,
    })
}

/// The shared memory the next step of thread `t` (event `idx`) can read or write, run from
/// any state in which its thread is where it is in `m`: `None` when that can depend on what
/// the step reads. An instruction does at most one fresh shared read per step
/// (`Machine::step`), and where it reads or writes is computed from its thread's own state
/// (registers, the values its earlier steps read) and the nondet values it takes before,
/// so one run per vector of nondet values (`run_all`) finds every cell; only an atomic
/// section reads more than once in one step, and there the later accesses can go where an
/// earlier read points. A run from `m`
/// that ends the run or stops inside an atomic section may have stopped short of reads
/// the step makes from another state: an atomic section whose lock blocks in `m` (its
/// mutex named through memory) reads on where the lock passes
/// (`atomic_lock_blocked_at_node_false.c`).
pub fn next_cells(m: &Machine, t: usize, idx: u32, sync: &SyncWriters) -> Option<Vec<Target>> {
    let mut reads = Vec::new();
    for ran in run_all(m, t, idx, sync).ok()? {
        let ev = ran.event();
        if ran.step.atomic
            || ran.step.end.is_some()
            || ran.machine.in_atomic(t)
            || ev.reads.len() > 1
        {
            return None;
        }
        reads.extend(ev.reads.iter().copied());
        reads.extend(ev.writes.iter().map(|(w, _)| *w));
    }
    Some(reads)
}

/// Every outcome of the next step of thread `t`: one per vector of nondet values.
pub fn run_all<'p>(
    m: &Machine<'p>,
    t: usize,
    idx: u32,
    sync: &SyncWriters,
) -> Result<Vec<Ran<'p>>, Unmodelled> {
    enumerate(|forced| run(m, t, idx, forced, sync), |r| &r.step)
}

/// Every outcome of a step, one per vector of nondet values: `run` runs it with the values
/// given first (then 0), `step` reads off the step of an outcome (its choices and their
/// domains).
pub fn enumerate<R>(
    mut run: impl FnMut(&[u64]) -> Result<R, Unmodelled>,
    step: impl Fn(&R) -> &Step,
) -> Result<Vec<R>, Unmodelled> {
    let mut out = Vec::new();
    let mut pending: Vec<Vec<u64>> = vec![Vec::new()];
    while let Some(prefix) = pending.pop() {
        let r = run(&prefix)?;
        let choices: &[Choice] = &step(&r).choices;
        for (j, c) in choices.iter().enumerate().skip(prefix.len()) {
            for v in (0..c.domain).filter(|&v| v != c.value) {
                let mut alt: Vec<u64> = choices[..j].iter().map(|c| c.value).collect();
                alt.push(v);
                pending.push(alt);
            }
        }
        out.push(r);
    }
    Ok(out)
}
