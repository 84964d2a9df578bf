//! A concrete, deterministic interpreter of the IR with explicit threads: the machine state
//! (memory objects, thread frames, mutexes) and one scheduler-visible step of one thread. It is
//! the shared base of witness replay and of the explorers.
//!
//! Memory is a set of objects (every variable instance, every heap block) holding bytes;
//! pointers are (object, offset) and their provenance is kept beside the bytes, so that a
//! pointer stored in memory and read back still names its object. Anything this interpreter
//! cannot give an exact C meaning (undefined behaviour, unknown pointers, floats) ends the run
//! as a [`RunEnd::Trap`]: a run never claims more than the program can do.
//!
//! The semantics are symbolic execution's (`crate::symex`): a failed assumption, `exit`,
//! `abort`, a return from `main` and a division by zero stop the thread that does them (for
//! the reachability of an error this is exact: the other threads' later steps could as well
//! have come first); loops and recursion are bounded as by `--unwind` ([`Bounds`]); a declared
//! local starts indeterminate, so reading it before a write is a nondet input.
//!
//! Modules: `memory` (objects, places, loads and stores), `eval` (expressions), `exec`
//! (data and control instructions), `threads` (calls, returns, threads and synchronisation),
//! `canon` (the canonical form of a state, for stateful search), `queries` (what the
//! schedulers ask of a state), `shadow` and `pin` (the symbolic shadow of concolic runs).

mod canon;
mod eval;
mod exec;
mod memory;
mod memsafety;
mod pin;
mod queries;
pub use canon::{CanonInfo, Canonical};
pub use memory::summary;
mod shadow;
mod threads;

use std::collections::{BTreeMap, HashMap, HashSet};

use super::concolic::{term::SymId, Handle};
use crate::ir::{FuncId, InstrId, InstrKind, Loc, LoopId, Program, TypeId, VarId};

pub(crate) use eval::norm;
use eval::Cx;

/// A memory object: its owner (0: the program's globals; t + 1: made by thread t) and its
/// number among the owner's objects.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjId {
    pub owner: u32,
    pub index: u32,
}

/// What a scalar value points to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prov {
    Obj(ObjId),
    Func(FuncId),
}

/// A scalar: its bits (extended to 64 by the signedness of its type; a pointer's bits are its
/// byte offset), for pointers the object it points into, and in a concolic run the 64-bit
/// term over the nondet inputs that the bits are computed from (`None`: they depend on none).
/// A pointer never has a term (see `shadow`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    pub bits: u64,
    pub prov: Option<Prov>,
    pub sym: Option<SymId>,
}

impl Scalar {
    pub fn int(bits: u64) -> Scalar {
        Scalar {
            bits,
            prov: None,
            sym: None,
        }
    }
    /// A pointer (no term).
    pub fn ptr(bits: u64, prov: Option<Prov>) -> Scalar {
        Scalar {
            bits,
            prov,
            sym: None,
        }
    }
    /// The same value (the C `==` on scalars: bits and provenance, the term aside).
    fn same(self, o: Scalar) -> bool {
        self.bits == o.bits && self.prov == o.prov
    }
    fn truthy(self) -> bool {
        self.bits != 0 || self.prov.is_some()
    }
}

/// The pointers stored in a range of bytes: (offset, what it points to, size in bytes).
pub type Provs = Vec<(u64, Prov, u8)>;

/// A value: a scalar, or the bytes of a struct/union with the pointers stored in them.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    Bytes(Vec<u8>, Provs),
}

/// A loop or recursion bound that a run would exceed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoundHit {
    Loop { func: FuncId, lp: LoopId },
    Recursion(FuncId),
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// A failed assertion or a `reach_error` call.
    Violation { thread: usize, loc: Loc },
    /// Every thread finished or stopped.
    Finished,
    /// Undefined or unsupported behaviour: the run cannot go on exactly. `at` is the
    /// instruction that trapped, where the step knows it.
    Trap { what: String, at: Option<Loc> },
    /// No thread can move, and some have not finished.
    Deadlock,
    /// A loop or a recursion would run past its bound, and the bound is asserted.
    Bound {
        hit: BoundHit,
        thread: usize,
        loc: Loc,
    },
}

/// What an access touches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Bytes `off .. off + len` of an object (`len` is `u64::MAX` for the whole object: its
    /// lifetime).
    Mem { obj: ObjId, off: u64, len: u64 },
    /// A mutex (its object and offset): lock, unlock, trylock, condition waits.
    Mutex(ObjId, u64),
    /// The thread table (a `pthread_create` takes the next thread number).
    Threads,
    /// Whether thread t has finished (written when it does, read by a join).
    Done(usize),
    /// All memory: a step whose accesses are over-approximated (conflicts with every memory
    /// access).
    Everything,
    /// All global variables (conflicts with every access to one).
    Globals,
}

/// One access of a step to state other threads can observe.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    pub target: Target,
    pub write: bool,
    /// The value read or written (bits of a scalar, a hash of longer byte strings, 0 for
    /// synchronisation).
    pub value: u64,
}

impl Access {
    /// Whether the two accesses conflict: they touch the same thing and one writes (all
    /// mutex and thread-table operations change them).
    pub fn conflicts(&self, o: &Access) -> bool {
        match (self.target, o.target) {
            (
                Target::Mem { obj, off, len },
                Target::Mem {
                    obj: obj2,
                    off: off2,
                    len: len2,
                },
            ) => {
                obj == obj2
                    && (self.write || o.write)
                    && off < off2.saturating_add(len2)
                    && off2 < off.saturating_add(len)
            }
            (Target::Everything, Target::Mem { .. } | Target::Everything | Target::Globals)
            | (Target::Mem { .. } | Target::Globals, Target::Everything)
            | (Target::Globals, Target::Globals) => true,
            (Target::Globals, Target::Mem { obj, .. })
            | (Target::Mem { obj, .. }, Target::Globals) => obj.owner == 0,
            (Target::Mutex(a, x), Target::Mutex(b, y)) => a == b && x == y,
            (Target::Threads, Target::Threads) => true,
            (Target::Done(a), Target::Done(b)) => a == b && (self.write || o.write),
            _ => false,
        }
    }
}

impl Target {
    /// Whether the two have a cell (or a synchronisation object) in common: an access to one
    /// conflicts with a write to the other, or they are the same target.
    pub fn overlaps(&self, o: &Target) -> bool {
        let w = Access {
            target: *self,
            write: true,
            value: 0,
        };
        let a = Access {
            target: *o,
            write: false,
            value: 0,
        };
        self == o || w.conflicts(&a)
    }
}

/// Loop and recursion bounds, as `--unwind`: a loop's back edge is taken at most `unwind - 1`
/// times per entry of the loop (its head passed `unwind` times), a function is active at most
/// `unwind` times in one thread's call stack.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub unwind: u32,
    /// Per-loop bounds, keyed `FUNCTION.N`.
    pub unwindset: HashMap<String, u32>,
    /// A run past a bound is a [`RunEnd::Bound`] (true) or stops its thread (false: the
    /// executions within the bound only).
    pub assertions: bool,
    /// A thread that comes to a loop's back edge after an iteration without a visible effect
    /// stops there, as in symbolic execution (see `symex::spin` for why that loses no
    /// reachable error).
    pub spin_reduction: bool,
    /// A failed assertion stops its thread (a property other than unreach-call is checked).
    pub asserts_stop: bool,
    /// A signed operation that overflows is the violation (no-overflow).
    pub overflow_checks: bool,
    /// Invalid dereferences and frees, and memory lost when main returns, are the violation
    /// (valid-memsafety, see `memsafety`).
    pub memsafety: bool,
}

impl Bounds {
    /// Loops unrolled `unwind` times with the bound asserted, and no reduction or other
    /// property switched on: the plain bounds of an unreach-call exploration.
    pub fn asserted(unwind: u32) -> Bounds {
        Bounds {
            unwind,
            unwindset: HashMap::new(),
            assertions: true,
            spin_reduction: false,
            asserts_stop: false,
            overflow_checks: false,
            memsafety: false,
        }
    }
}

/// A thread's state at a loop head, for the spin reduction: its effect count and its live
/// private variables' objects.
#[derive(Clone, Debug, PartialEq)]
struct HeadMark {
    lp: LoopId,
    effects: u64,
    atomic: u32,
    vars: Vec<(ObjId, memory::Object)>,
}

/// One activation of a function.
#[derive(Clone, Debug, PartialEq)]
struct Frame {
    func: FuncId,
    pc: InstrId,
    vars: BTreeMap<VarId, ObjId>,
    /// Set while this frame waits for a callee: where the callee's result goes.
    pending: Option<Option<crate::ir::Place>>,
    /// Back edges taken per loop since the loop was entered.
    loops: Vec<(LoopId, u32)>,
    /// The last jump was a back edge (the loop head is not entered anew).
    via_back: bool,
    /// The call opened an atomic section (an indirect call of an atomic function).
    atomic_call: bool,
    /// The state at the last pass of each loop head (spin reduction only).
    heads: Vec<HeadMark>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    Running,
    /// Inside `pthread_cond_wait`: the mutex was released, it must be taken again.
    CondWaiting,
    Done(Option<Scalar>),
    /// Stopped for good without finishing (a failed assumption, `exit`, a division by zero):
    /// a join of it waits forever.
    Stopped,
}

#[derive(Clone, Debug, PartialEq)]
struct Thread {
    /// The function it was started with (kept after it finished, for traces).
    entry: FuncId,
    frames: Vec<Frame>,
    tls: BTreeMap<VarId, ObjId>,
    status: Status,
    atomic: u32,
    /// The entry is an atomic function: the section opens with the thread's first step.
    atomic_entry: bool,
    /// Shared reads already done by the current, unfinished instruction.
    memo: Vec<Value>,
    /// Writes, synchronisation writes and allocations of the steps it finished.
    effects: u64,
    /// Symbolic inputs it has read (concolic runs).
    inputs: u32,
}

/// A nondet value request: thread, location, width in bits and signedness of the value.
pub struct NondetRequest {
    pub thread: usize,
    pub loc: Loc,
    pub bits: u32,
    pub signed: bool,
    /// The value is a `_Bool` (0 or 1).
    pub boolean: bool,
    /// The value is a symbolic input of a concolic run, and this is its value: the callee
    /// must return it (it only records it).
    pub given: Option<u64>,
}

/// The whole machine state; cheap enough to clone for a depth-first search.
#[derive(Clone, Debug)]
pub struct Machine<'p> {
    prog: &'p Program,
    /// Objects by owner, then number (see [`ObjId`]).
    /// Shared with the clones until written (`Arc::make_mut`): the explorers clone the
    /// machine at every step and most steps write one object at most.
    objects: Vec<Vec<std::sync::Arc<memory::Object>>>,
    /// Fixed once the machine is built: shared by the clones.
    globals: std::sync::Arc<BTreeMap<VarId, ObjId>>,
    /// Shared with the clones until changed, like the objects.
    threads: Vec<std::sync::Arc<Thread>>,
    /// Locked mutexes (object, offset) → owner thread.
    mutexes: BTreeMap<(ObjId, u64), usize>,
    bounds: Option<Bounds>,
    /// A signed `+ - * / %`, unary minus or `<<` (in `int` or wider) whose result does not
    /// fit its type ends the run as a violation there; a failed assertion stops its thread.
    overflow_checks: bool,
    asserts_stop: bool,
    /// Check valid-memsafety (see `memsafety`).
    memsafety: bool,
    /// The valid-memsafety violation that ended the run, if one did.
    pub mem_violation: Option<crate::verdict::Violation>,
    /// Instructions executed so far.
    pub steps: u64,
    /// The line of every shared access (and synchronisation operation) of the last
    /// [`Machine::step`]: what the accesses of a witness are matched against.
    pub last_shared: Vec<u32>,
    /// The accesses of the last [`Machine::step`] to state other threads can observe.
    pub accesses: Vec<Access>,
    /// The exact values (pointers included) of the shared memory reads among `accesses`, in
    /// their order: an access logs only a summary of its value.
    pub read_values: Vec<Value>,
    /// Liveness of the bodies with loops (spin reduction only), shared by the clones.
    live: std::sync::Arc<HashMap<FuncId, crate::ir::liveness::Liveness>>,
    /// Address-taken locals and parameters that the sharing pass finds private to one thread
    /// instance (`crate::sharing`), shared by the clones: their accesses are not scheduling
    /// points, as in symbolic execution, where they are not events either.
    private_locals: std::sync::Arc<HashSet<VarId>>,
    /// Writes of the last [`Machine::step`] to private objects whose address is taken
    /// (`Object::escapes`): not accesses, but effects (`effects` of the thread).
    hidden_writes: u64,
    /// The symbolic state of a concolic run, shared by the clones.
    conc: Option<Handle>,
    /// Per thread, a hash of the branch decisions it made (its path).
    paths: Vec<u64>,
    /// A step ends after the first instruction that takes a nondet value, instead of
    /// running on through the thread-local instructions after it (see
    /// [`Machine::split_at_inputs`]).
    split_inputs: bool,
    /// Nondet values taken so far.
    inputs_taken: u64,
}

/// The address-taken locals and parameters whose abstract object (one for all its frames)
/// the sharing pass finds private: at most one thread instance can ever access it, since no
/// pointer to it reaches another instance. The pass over-approximates (see
/// `crate::sharing`), and `Machine::deref` checks the prediction on every dereference:
/// another thread's dereference traps as unsupported, so a wrong prediction gives UNKNOWN,
/// never a run whose accesses were not scheduled. (The check is at the dereference, so a
/// thread that only computes such an object's field address also gets UNKNOWN.)
fn private_locals(prog: &Program) -> HashSet<VarId> {
    let sharing = crate::sharing::Sharing::analyse(prog);
    prog.vars
        .iter()
        .filter(|(v, d)| {
            !d.is_global()
                && d.address_taken
                && !sharing.is_shared(crate::sharing::AbsObj::Local(*v))
        })
        .map(|(v, _)| v)
        .collect()
}

/// Why an instruction stopped: the run ended, the thread yields between two shared accesses
/// of one instruction, the thread stops for good, or a read met an indeterminate value.
#[derive(Debug)]
enum Stop {
    End(RunEnd),
    Yield,
    ThreadStops,
    Undefined(ObjId, u64, TypeId),
}

type R<T> = Result<T, Stop>;

/// Most register-only instructions run in one step.
const INVISIBLE_RUN: u32 = 10_000;

fn trap<T>(msg: impl Into<String>) -> R<T> {
    Err(Stop::End(RunEnd::Trap {
        what: msg.into(),
        at: None,
    }))
}

impl<'p> Machine<'p> {
    /// The initial state: globals zeroed, thread 0 about to run `init`, then `tls_init`, then
    /// `main`; no loop or recursion bound.
    pub fn new(prog: &'p Program) -> Result<Machine<'p>, RunEnd> {
        Machine::with_bounds(prog, None)
    }

    /// Checks signed overflow from now on, and makes a failed assertion stop its thread
    /// (replay of a no-overflow witness, which runs without bounds).
    pub fn set_overflow_checks(&mut self, on: bool) {
        self.overflow_checks = on;
        self.asserts_stop |= on;
    }

    /// Checks valid-memsafety from now on, and makes a failed assertion stop its thread
    /// (replay of a valid-memsafety witness).
    pub fn set_memsafety(&mut self, on: bool) {
        self.memsafety = on;
        self.asserts_stop |= on;
    }

    /// The initial state with loop and recursion bounds.
    pub fn with_bounds(prog: &'p Program, bounds: Option<Bounds>) -> Result<Machine<'p>, RunEnd> {
        match Machine::start(prog, bounds) {
            Ok(m) => Ok(m),
            Err(Stop::End(e)) => Err(e),
            Err(_) => Err(RunEnd::Trap {
                what: "the program cannot start".into(),
                at: None,
            }),
        }
    }

    fn start(prog: &'p Program, bounds: Option<Bounds>) -> R<Machine<'p>> {
        let main = match prog.main {
            Some(m) => m,
            None => return trap("the program has no main"),
        };
        let mut m = Machine {
            prog,
            objects: Vec::new(),
            globals: Default::default(),
            threads: Vec::new(),
            mutexes: BTreeMap::new(),
            overflow_checks: bounds.as_ref().is_some_and(|b| b.overflow_checks),
            asserts_stop: bounds.as_ref().is_some_and(|b| b.asserts_stop),
            memsafety: bounds.as_ref().is_some_and(|b| b.memsafety),
            mem_violation: None,
            bounds,
            steps: 0,
            last_shared: Vec::new(),
            accesses: Vec::new(),
            read_values: Vec::new(),
            live: Default::default(),
            private_locals: std::sync::Arc::new(private_locals(prog)),
            hidden_writes: 0,
            conc: None,
            paths: vec![0],
            split_inputs: false,
            inputs_taken: 0,
        };
        if m.bounds.as_ref().is_some_and(|b| b.spin_reduction) {
            let live = prog
                .defined_funcs()
                .filter(|(_, _, b)| !b.loops.is_empty())
                .map(|(f, _, b)| (f, crate::ir::liveness::Liveness::of(b)))
                .collect();
            m.live = std::sync::Arc::new(live);
        }
        for (v, d) in prog.globals() {
            if !d.thread_local {
                let o = m.new_var_object(0, Some(v), d.ty);
                std::sync::Arc::make_mut(&mut m.globals).insert(v, o);
            }
        }
        let main_frame = m.new_frame(0, main)?;
        let mut t = Thread {
            entry: main,
            frames: vec![main_frame],
            tls: BTreeMap::new(),
            status: Status::Running,
            atomic: 0,
            atomic_entry: false,
            memo: Vec::new(),
            effects: 0,
            inputs: 0,
        };
        m.add_tls(0, &mut t)?;
        if m.has_code(prog.init) {
            let init = m.new_frame(0, prog.init)?;
            t.frames.push(init);
        }
        m.threads.push(std::sync::Arc::new(t));
        // main's parameters are given nondet values by its first instructions (the frontend
        // writes them), as in symbolic execution.
        Ok(m)
    }

    /// Execute one step of thread `t`: one instruction, then every following instruction of
    /// the same thread that touches only its own frame. `Err` ends the run: a violation, a
    /// trap, an asserted bound, or (after the step) no thread able to move.
    pub fn step(
        &mut self,
        t: usize,
        nondet: &mut dyn FnMut(&NondetRequest) -> u64,
    ) -> Result<(), RunEnd> {
        self.last_shared.clear();
        self.accesses.clear();
        self.hidden_writes = 0;
        self.read_values.clear();
        let inputs_before = self.inputs_taken;
        let r = self.exec(t, nondet).and_then(|()| {
            // Bounded, so that a thread spinning on its own registers still yields.
            let mut n = 0;
            while n < INVISIBLE_RUN
                && self.invisible(t)
                && !(self.split_inputs
                    && (self.inputs_taken > inputs_before
                        || matches!(self.next_kind(t), Some(InstrKind::Nondet { .. }))))
            {
                self.exec(t, nondet)?;
                n += 1;
            }
            Ok(())
        });
        let wrote = self.accesses.iter().filter(|a| a.write).count() as u64 + self.hidden_writes;
        self.thread_mut(t).effects += wrote;
        match r {
            Ok(()) | Err(Stop::Yield) => {}
            Err(Stop::ThreadStops) => self.stop_thread(t),
            // Under valid-memsafety an invalid access is the violation, where it trapped.
            Err(Stop::End(RunEnd::Trap { what, at: None }))
                if self.memsafety && memsafety::trap_violation(&what).is_some() =>
            {
                self.mem_violation = memsafety::trap_violation(&what);
                let loc = self.position(t).map(|(_, loc)| loc).unwrap_or_default();
                return Err(RunEnd::Violation { thread: t, loc });
            }
            // A trap leaves the thread at the instruction that trapped: that is where it was.
            Err(Stop::End(RunEnd::Trap { what, at: None })) => {
                let at = self.position(t).map(|(_, loc)| loc);
                return Err(RunEnd::Trap { what, at });
            }
            // An overflow found by an expression: the thread is at its instruction.
            Err(Stop::End(RunEnd::Violation {
                thread: usize::MAX, ..
            })) => {
                let loc = self.position(t).map(|(_, loc)| loc).unwrap_or_default();
                return Err(RunEnd::Violation { thread: t, loc });
            }
            Err(Stop::End(e)) => return Err(e),
            Err(Stop::Undefined(..)) => unreachable!("exec fills indeterminate values"),
        }
        if self.runnable().is_empty() {
            if (0..self.threads.len()).all(|t| self.is_over(t)) {
                return Err(RunEnd::Finished);
            }
            return Err(RunEnd::Deadlock);
        }
        Ok(())
    }

    /// Makes a step end before a nondet instruction (the next step starts with it) and after
    /// any other instruction that takes a nondet value (a read of an indeterminate local): an
    /// enumerating search then branches once per value of each input, where a run of
    /// thread-local instructions reading an input per iteration would make one step branch
    /// over every combination of them; and the states it stores sit before the input, where
    /// its variable is still dead. Ending a step early only adds scheduling points.
    pub fn split_at_inputs(&mut self) {
        self.split_inputs = true;
    }

    fn frame(&self, t: usize) -> &Frame {
        self.threads[t]
            .frames
            .last()
            .expect("a running thread has a frame")
    }
    /// Thread `t`, unshared from the clones of the machine.
    fn thread_mut(&mut self, t: usize) -> &mut Thread {
        std::sync::Arc::make_mut(&mut self.threads[t])
    }
    fn frame_mut(&mut self, t: usize) -> &mut Frame {
        self.thread_mut(t)
            .frames
            .last_mut()
            .expect("a running thread has a frame")
    }
    fn advance(&mut self, t: usize) {
        let f = self.frame_mut(t);
        f.pc = InstrId::from_u32(f.pc.as_u32() + 1);
    }

    /// One step of the current instruction of thread `t`: at most one fresh shared read, and
    /// a shared write only in a step without one (so that other threads can interleave
    /// between the accesses of `x = x + 1`).
    fn exec(&mut self, t: usize, nondet: &mut dyn FnMut(&NondetRequest) -> u64) -> R<()> {
        if std::mem::take(&mut self.thread_mut(t).atomic_entry) {
            self.thread_mut(t).atomic += 1;
        }
        // Initialisers are not steps of the witness (their lines are the declarations').
        let at = self
            .next_instr(t)
            .filter(|&(f, _)| f != self.prog.init && f != self.prog.tls_init)
            .map(|(f, i)| self.instr(f, i));
        let waking = self.threads[t].status == Status::CondWaiting;
        let held = |m: &Machine| m.mutexes.values().filter(|&&o| o == t).count();
        let trylock = at.is_some_and(|i| matches!(i.kind, InstrKind::MutexTryLock { .. }));
        let held_before = if trylock { held(self) } else { 0 };
        let memo = std::mem::take(&mut self.thread_mut(t).memo);
        let (r, cx) = loop {
            let mut cx = Cx::new(t, memo.clone(), 1);
            let mark = self.accesses.len();
            let vmark = self.read_values.len();
            match self.exec_in(&mut cx, nondet) {
                // A read of an indeterminate value: it is a nondet input; then the
                // instruction starts again (its evaluation has no effect before that read).
                Err(Stop::Undefined(o, off, ty)) => {
                    self.accesses.truncate(mark);
                    self.read_values.truncate(vmark);
                    self.fill_undefined(t, o, off, ty, nondet)?;
                }
                r => break (r, cx),
            }
        };
        let mut log = cx.reads.clone();
        log.append(&mut self.accesses);
        self.accesses = log;
        let mut values = cx.read_values.clone();
        values.append(&mut self.read_values);
        self.read_values = values;
        if let Some(instr) = at.filter(|i| i.loc.line != 0) {
            // As many accesses as the equation has events for the operation: a lock reads
            // and writes the lock cell (a failed trylock only reads it); a condition wait
            // unlocks, then (on waking) locks.
            let sync = match instr.kind {
                _ if r.is_err() => 0,
                InstrKind::MutexTryLock { .. } if held(self) <= held_before => 1,
                InstrKind::MutexLock(_) | InstrKind::MutexTryLock { .. } => 2,
                InstrKind::CondWait { .. } if waking => 2,
                // (The equation may also write the new thread's id to the handle: that edge
                // is passed over by the thread's next access.)
                InstrKind::ThreadCreate { .. }
                | InstrKind::MutexInit(_)
                | InstrKind::MutexUnlock(_)
                | InstrKind::CondWait { .. } => 1,
                _ => u32::from(cx.wrote),
            };
            let reads = 1 - cx.budget.min(1);
            let n = reads + sync;
            for _ in 0..n {
                self.last_shared.push(instr.loc.line);
            }
        }
        if let Err(Stop::Yield) = r {
            self.thread_mut(t).memo = cx.memo;
        }
        r
    }

    /// Gives an indeterminate scalar a nondet value (not a write other threads can see).
    fn fill_undefined(
        &mut self,
        t: usize,
        o: ObjId,
        off: u64,
        ty: TypeId,
        nondet: &mut dyn FnMut(&NondetRequest) -> u64,
    ) -> R<()> {
        let types = &self.prog.types;
        let (bits, signed) = (types.bits(ty), types.is_signed(ty));
        let size = types.size_of(ty).unwrap_or(0);
        let loc = self
            .next_instr(t)
            .map_or(Loc::default(), |(f, i)| self.instr(f, i).loc);
        let boolean = matches!(types.get(ty), crate::ir::Type::Bool);
        let req = NondetRequest {
            thread: t,
            loc,
            bits,
            signed,
            boolean,
            given: None,
        };
        let (raw, sym) = self.nondet_input(req, nondet);
        let v = if boolean { (raw != 0) as u64 } else { raw };
        // Written unlogged: the value is this thread's choice, not an access.
        let private = std::mem::replace(&mut self.obj_mut(o).private, true);
        let escapes = std::mem::replace(&mut self.obj_mut(o).escapes, false);
        let r = self.write_bytes(o, off, &vec_bytes(v, size), &[]);
        self.obj_mut(o).private = private;
        self.obj_mut(o).escapes = escapes;
        r?;
        if let Some(s) = sym {
            self.set_shadow(o, off, size, s);
        }
        Ok(())
    }

    /// The function thread `t` is in and the line of its next instruction.
    pub fn position(&self, t: usize) -> Option<(FuncId, Loc)> {
        self.next_instr(t).map(|(f, i)| (f, self.instr(f, i).loc))
    }
}

fn vec_bytes(v: u64, size: u64) -> Vec<u8> {
    (0..size).map(|k| (v >> (8 * k)) as u8).collect()
}
