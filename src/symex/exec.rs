//! The executor: the [`Symex`] state, [`run`] (initialisers, then the threads one after
//! another), the checks, and the dispatch of instructions that neither jump nor call to the
//! module of their concern: `function_call` (bodies, loops, calls), `threads` (create, join),
//! `atomic` (atomic sections, mutexes), `builtins` (allocation, `memset`, `memcpy`), `objects`
//! (memory objects by identity), `access` (places and memory events), `eval` (expressions).

use std::collections::{HashMap, HashSet, VecDeque};

use cranelift_entity::{EntityRef, SecondaryMap};
use encoder::{BitVec, Encoder, Equation, Location, Thread};
use solver_glue::Lit;

use solver_glue::ClauseLog;

use super::access::OpenAccess;
use super::memory::{Memory, ObjId};
use super::state::{State, Val, VarKey, THREAD_FRAME};
use super::{
    unsupported, Check, CheckKind, EventInfo, Formula, NondetInput, SymexError, SymexOptions,
    SymexOutput, ThreadInfo,
};
use crate::ir::{FuncId, InstrKind, Loc, Place, Program, Type, VarId};
use crate::sharing::{AbsObj, Sharing};

/// A thread instance waiting to be executed.
pub(super) struct ThreadInst {
    pub info: ThreadInfo,
    pub arg: Option<Val>,
    /// True iff the thread ran to its end (return or `pthread_exit`).
    pub done: Lit,
    /// The condition `done` is made equal to once the thread has run: the disjunction of the
    /// guards of its ends, a circuit over its reads (false until then). `twin_segments` follows
    /// it for joined twins, whose ends a join observes.
    pub finished: Lit,
    /// Its return value (pointer width).
    pub ret: BitVec,
    /// The thread that created it (none for main).
    pub parent: Option<usize>,
    /// For a thread `main` created (or a descendant of one), how many events the equation had
    /// when `main` created it (or that ancestor): `main`'s events below are before the create in
    /// its program order, hence happen before every event of this thread. None for `main`.
    pub main_mark: Option<usize>,
    /// What makes it distinguishable from a thread with the same entry and argument
    /// (`symmetry`): it called `pthread_self`, a read took `main`'s value, or it made objects.
    pub distinct: Distinct,
}

/// One `pthread_join` executed, as symmetry breaking needs to know it (`symmetry::joins`).
#[derive(Clone, Debug)]
pub(super) struct JoinCall {
    /// The joining thread instance.
    pub thread: usize,
    /// Its join points (indices into `Equation::joins`), one per thread the handle may name.
    pub joins: std::ops::Range<usize>,
    /// The path's guard before the call, and after it (the join returned).
    pub guard_in: Lit,
    pub guard_out: Lit,
    /// The checks the call added (indices into `Symex::checks`).
    pub checks: std::ops::Range<usize>,
    /// The handle names one thread, whatever the values (one join point, hit always).
    pub single: bool,
    /// The joined thread's return value may be stored (a non-null `retval`).
    pub reads_ret: bool,
}

/// Why a thread instance may behave differently from its twins (`symmetry`).
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Distinct {
    /// It called `pthread_self` (its number is a value it can compute with).
    pub identity: bool,
    /// A read took `main`'s value at its create (`main_values`), which depends on the create.
    pub folded: bool,
    /// It made a heap or stack object that another thread may access or whose address a use
    /// may observe (their numbers, in pointers, differ between twins; `symmetry`).
    pub objects: bool,
}

pub(super) struct Symex<'a, 'b, 's> {
    pub prog: &'a Program,
    pub opts: &'a SymexOptions,
    /// What the sharing pass predicted: objects, points-to sets, private objects.
    pub sharing: &'a Sharing,
    pub enc: &'b mut Encoder<'s>,
    pub eq: Equation,
    pub mem: Memory,
    pub local_obj: HashMap<VarKey, ObjId>,
    /// Lock state of each mutex, keyed by the mutex's address.
    pub locks: HashMap<(ObjId, u64), Location>,
    /// While the initialisers run, memory is this map (cell → value) instead of events.
    pub init_mode: bool,
    pub init_vals: HashMap<(ObjId, u64), BitVec>,
    pub threads: Vec<ThreadInst>,
    pub todo: VecDeque<usize>,
    pub cur: Thread,
    pub cur_number: u32,
    pub frame: u32,
    pub next_frame: u32,
    pub call_stack: Vec<FuncId>,
    /// `pthread_exit` points of the current thread: (guard, value).
    pub exits: Vec<(Lit, BitVec)>,
    pub loc: Loc,
    pub event_info: SecondaryMap<encoder::Event, EventInfo>,
    pub checks: Vec<Check>,
    pub nondets: Vec<NondetInput>,
    /// The abstract object of each object (index = object number; none for NULL).
    pub abs: Vec<Option<AbsObj>>,
    /// The objects of globals and functions (one each).
    pub singles: HashMap<AbsObj, ObjId>,
    /// The owner (thread number) of each private object, set by its first access.
    pub private_owner: HashMap<ObjId, u32>,
    /// Nondet initial values of private cells.
    pub private_init: HashMap<(ObjId, u64), BitVec>,
    /// Nondet initial values of shared cells a thread read before the initial writes are made
    /// (`Symex::main_value`); the initial write takes the same value.
    pub shared_init: HashMap<(ObjId, u64), BitVec>,
    /// The write events of each location, in order.
    pub writes_at: HashMap<Location, Vec<encoder::Event>>,
    /// Where reads may take `main`'s value on a guess.
    pub guess: &'a Guessing,
    /// The reads that took `main`'s value: (location, the reader's `ThreadInst::main_mark`,
    /// abstract object, offset), checked once every thread has run.
    pub guesses: Vec<(Location, usize, AbsObj, u64)>,
    /// Whether one of them was a guess beyond what the sharing pass says.
    pub guessed: bool,
    /// Accesses through computed pointers that objects made later may still take.
    pub open: Vec<OpenAccess>,
    /// Facts the sharing pass did not predict (empty unless the pass has a bug).
    pub unpredicted: Vec<String>,
    /// Private objects a second thread touched (they are not private any more).
    pub broken: HashSet<ObjId>,
    /// The guards of the current thread's effects so far (writes, creates, allocations), in
    /// order: the spin reduction asks whether a stretch of a path had any.
    pub effects: Vec<Lit>,
    /// The effects that take (true) or release (false) one known mutex, by index.
    pub lock_effects: HashMap<usize, (Location, bool)>,
    /// What the spin reduction cut, and the loops and waits already counted.
    pub spin: super::spin::SpinStats,
    pub spin_seen: HashSet<(FuncId, crate::ir::LoopId, Option<crate::ir::InstrId>)>,
    /// The state at the previous pass of each `pthread_cond_wait` (per call frame).
    pub wait_snaps: HashMap<(u32, FuncId, crate::ir::InstrId), super::spin::Snapshot>,
    /// Liveness of the function bodies met so far.
    pub live: HashMap<FuncId, std::rc::Rc<crate::ir::liveness::Liveness>>,
    /// Whether a `pthread_mutex_trylock` occurs anywhere (it can see a mutex held).
    pub has_trylock: bool,
    /// The abstract objects whose objects are byte objects (`memory::Object::bytes`).
    pub bytewise: &'a HashSet<AbsObj>,
    /// Abstract objects found to need byte objects: the execution goes on (to find all of
    /// them in one round) but its result is no verdict, [`run`] executes again with them among
    /// [`Symex::bytewise`].
    pub widen: HashSet<AbsObj>,
    /// Alive flags and the deferred checks of valid-memsafety (`memsafety`).
    pub live_state: super::memsafety::Liveness,
    /// Every `pthread_join` executed, in execution order (`symmetry::joins`).
    pub join_calls: Vec<JoinCall>,
}

/// Runs symbolic execution of `prog` (which must have `main`): the circuits go to a
/// [`ClauseLog`], the result is a value any engine can encode.
///
/// Objects start with one cell per scalar. An execution that meets two accesses to one object
/// of different extents (or a `memset`/`memcpy` the object's cells do not fit, or a computed
/// offset of a width the object has no scalar of) is discarded, and the execution starts over
/// with every object of those abstract objects modelled byte by byte. The set only grows, by
/// at least one abstract object a round, so this ends; the execution that completes is exact
/// for every object (a typed object had no disagreeing accesses on any path, a byte object
/// models every access as its bytes).
///
/// Reads of cells only `main` writes take `main`'s value without an event (`main_values`);
/// for a cell whose object a thread may write, that is a guess the finished execution checks,
/// and an execution with a wrong guess is discarded too: it starts over without guessing those
/// cells, after a second wrong round without guessing, after a third without `main`'s values
/// (so at most three extra rounds, and none where no guess is wrong).
pub fn run(
    prog: &Program,
    sharing: &Sharing,
    opts: &SymexOptions,
) -> Result<SymexOutput, SymexError> {
    let mut bytewise = HashSet::new();
    let mut guess = Guessing {
        level: GuessLevel::Guess,
        banned: HashSet::new(),
    };
    loop {
        let mut widen = HashSet::new();
        let mut wrong = WrongGuesses::default();
        let out = execute(
            prog, sharing, opts, &bytewise, &guess, &mut widen, &mut wrong,
        );
        let redo = !wrong.cells.is_empty() || (out.is_err() && wrong.guessed);
        if redo && guess.level != GuessLevel::Off {
            // A failed execution after a guess is redone too: the failure might come from
            // a value the guess gave. The first wrong round bans its cells; the next lowers
            // the level (guesses off, then main's values off), so this ends.
            if guess.banned.is_empty()
                && !wrong.cells.is_empty()
                && guess.level == GuessLevel::Guess
            {
                guess.banned.extend(wrong.cells);
            } else {
                guess.level = match guess.level {
                    GuessLevel::Guess => GuessLevel::Static,
                    _ => GuessLevel::Off,
                };
            }
            bytewise.extend(widen);
            continue;
        }
        if widen.is_empty() || widen.is_subset(&bytewise) {
            return out;
        }
        bytewise.extend(widen);
    }
}

/// Which reads may take `main`'s value (`main_values`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum GuessLevel {
    /// Where the sharing pass says only `main` writes the object, and on a guess elsewhere.
    Guess,
    /// Only where the sharing pass says only `main` writes the object.
    Static,
    /// Nowhere.
    Off,
}

/// Which cells a thread may read by `main`'s value on a guess (`main_values`).
#[derive(Clone, Debug)]
pub(super) struct Guessing {
    pub level: GuessLevel,
    /// Cells (abstract object, offset) a previous round guessed wrong.
    pub banned: HashSet<(AbsObj, u64)>,
}

/// What an execution found of its guesses.
#[derive(Clone, Debug, Default)]
pub(super) struct WrongGuesses {
    /// Whether it guessed (beyond what the sharing pass says).
    pub guessed: bool,
    /// The cells it guessed wrong.
    pub cells: HashSet<(AbsObj, u64)>,
}

/// One symbolic execution with the objects of `bytewise` as byte objects; the abstract
/// objects found to need byte objects go to `widen` (the result is then an error).
fn execute(
    prog: &Program,
    sharing: &Sharing,
    opts: &SymexOptions,
    bytewise: &HashSet<AbsObj>,
    guess: &Guessing,
    widen: &mut HashSet<AbsObj>,
    wrong: &mut WrongGuesses,
) -> Result<SymexOutput, SymexError> {
    let main = match prog.main {
        Some(m) => m,
        None => return unsupported("no main function"),
    };
    let mut log = ClauseLog::default();
    let mut enc = Encoder::new(&mut log);
    let ptr_bits = prog.types.ptr_bits() as u32;
    let eq = Equation::new(enc.tru());
    let mut sx = Symex {
        prog,
        opts,
        sharing,
        enc: &mut enc,
        eq,
        mem: Memory::new(ptr_bits),
        local_obj: HashMap::new(),
        locks: HashMap::new(),
        init_mode: true,
        init_vals: HashMap::new(),
        threads: Vec::new(),
        todo: VecDeque::new(),
        cur: Thread::from_u32(0),
        cur_number: 0,
        frame: THREAD_FRAME,
        next_frame: THREAD_FRAME + 1,
        call_stack: Vec::new(),
        exits: Vec::new(),
        loc: Loc::default(),
        event_info: SecondaryMap::new(),
        checks: Vec::new(),
        nondets: Vec::new(),
        abs: vec![None],
        singles: HashMap::new(),
        private_owner: HashMap::new(),
        private_init: HashMap::new(),
        shared_init: HashMap::new(),
        writes_at: HashMap::new(),
        guess,
        guesses: Vec::new(),
        guessed: false,
        open: Vec::new(),
        unpredicted: Vec::new(),
        broken: HashSet::new(),
        effects: Vec::new(),
        lock_effects: HashMap::new(),
        spin: Default::default(),
        spin_seen: HashSet::new(),
        wait_snaps: HashMap::new(),
        live: HashMap::new(),
        has_trylock: prog.defined_funcs().any(|(_, _, b)| {
            b.instrs
                .values()
                .any(|i| matches!(i.kind, InstrKind::MutexTryLock { .. }))
        }),
        bytewise,
        widen: HashSet::new(),
        live_state: Default::default(),
        join_calls: Vec::new(),
    };
    let done = sx.execute_threads(main);
    wrong.guessed = sx.guessed;
    if done.is_ok() {
        wrong.cells = sx.wrong_guesses();
        if !wrong.cells.is_empty() {
            return unsupported("a guessed value of a cell only main writes was wrong (redone)");
        }
    }
    if !sx.widen.is_empty() {
        let names: Vec<String> = sx
            .mem
            .objects
            .keys()
            .filter(|o| sx.abs[o.index()].is_some_and(|a| sx.widen.contains(&a)))
            .map(|o| sx.mem.objects[o].name.clone())
            .take(3)
            .collect();
        *widen = std::mem::take(&mut sx.widen);
        return unsupported(format!(
            "accesses of different sizes to one memory object ({})",
            names.join(", ")
        ));
    }
    done?;
    sx.finish_init_writes();
    if opts.symmetry {
        sx.break_symmetry();
    }
    let Symex {
        eq,
        event_info,
        checks,
        nondets,
        threads,
        unpredicted,
        spin,
        locks,
        ..
    } = sx;
    let mut sync_locations: Vec<encoder::Location> = locks.into_values().collect();
    sync_locations.sort();
    let state = enc.into_state();
    Ok(SymexOutput {
        equation: eq,
        event_info,
        checks,
        nondets,
        threads: threads.into_iter().map(|t| t.info).collect(),
        unpredicted,
        spin,
        sync_locations,
        formula: Formula { log, state },
    })
}

impl Symex<'_, '_, '_> {
    /// The initialisers, then main and every thread it creates, then the accesses that objects
    /// made later may take.
    fn execute_threads(&mut self, main: FuncId) -> Result<(), SymexError> {
        // The initialisers run before main, on memory that is not yet shared.
        let init_thread = self.eq.init_thread();
        self.cur = init_thread;
        let st = State::new(self.enc.tru());
        self.call(self.prog.init, Vec::new(), st)?;
        self.init_mode = false;

        let main_thread = self.eq.add_thread();
        let tru = self.enc.tru();
        let loc = self.prog.funcs[main].loc;
        self.spawn(main_thread, main, None, tru, loc)?;
        while let Some(i) = self.todo.pop_front() {
            self.run_thread(i)?;
        }
        self.close_open_accesses()
    }

    pub fn check(&mut self, kind: CheckKind, lit: Lit) {
        if self.enc.const_value(lit) == Some(false) {
            return;
        }
        self.checks.push(Check {
            kind,
            lit,
            loc: self.loc,
            thread: self.cur,
        });
    }

    /// Reports `msg` as reached when `lit` holds.
    pub fn unsupported_check(&mut self, msg: impl Into<String>, lit: Lit) {
        self.check(CheckKind::Unsupported(msg.into()), lit);
    }

    /// Instructions that neither jump nor call.
    pub(super) fn exec_simple(
        &mut self,
        kind: &InstrKind,
        s: &mut State,
    ) -> Result<(), SymexError> {
        match kind {
            // Sequential consistency: barriers order nothing more.
            InstrKind::Skip | InstrKind::Fence(_) => {}
            InstrKind::Approximate(a) => self.check(CheckKind::Approximate(*a), s.guard),
            InstrKind::Decl(v) => self.declare(*v, s)?,
            InstrKind::Assign { dst, src } => {
                let v = self.eval(src, s, None)?;
                let g = s.guard;
                self.write_place(dst, v, g, s)?;
            }
            InstrKind::Nondet { dst } => self.nondet_into(dst, s)?,
            InstrKind::Assume(c) => {
                let c = self.eval_cond(c, s)?;
                s.guard = self.enc.and(s.guard, c);
            }
            InstrKind::Assert { cond, prop } => {
                let c = self.eval_cond(cond, s)?;
                let bad = self.enc.and(s.guard, !c);
                self.check(CheckKind::Property(*prop), bad);
                s.guard = self.enc.and(s.guard, c);
            }
            InstrKind::ThreadCreate { handle, entry, arg } => {
                self.create_thread(handle, entry, arg, s)?
            }
            InstrKind::ThreadJoin { thread, retval } => self.join(thread, retval.as_ref(), s)?,
            InstrKind::ThreadSelf { dst } => self.thread_self(dst, s)?,
            InstrKind::AtomicBegin => self.atomic_begin(s),
            InstrKind::AtomicEnd => self.atomic_end(s)?,
            InstrKind::MutexInit(m) | InstrKind::MutexUnlock(m) => self.unlock(m, s)?,
            InstrKind::MutexLock(m) => self.lock(m, s)?,
            InstrKind::MutexTryLock { mutex, dst } => self.trylock(mutex, dst.as_ref(), s)?,
            InstrKind::CondWait { cond: _, mutex } => self.cond_wait(mutex, s)?,
            InstrKind::MutexDestroy(_)
            | InstrKind::CondInit(_)
            | InstrKind::CondSignal(_)
            | InstrKind::CondBroadcast(_)
            | InstrKind::CondDestroy(_) => {}
            InstrKind::Free(p) => self.free(p, s)?,
            InstrKind::Alloc {
                dst,
                size,
                zeroed,
                site,
                kind,
            } => self.alloc(dst.as_ref(), size, *zeroed, site.as_u32(), *kind, s)?,
            InstrKind::Memset { dst, byte, len } => self.memset(dst, byte, len, s)?,
            InstrKind::Memcpy { dst, src, len } => self.memcpy(dst, src, len, s)?,
            InstrKind::Goto { .. }
            | InstrKind::Call { .. }
            | InstrKind::Return(_)
            | InstrKind::Halt
            | InstrKind::ThreadExit(_) => unreachable!("handled by the body loop"),
        }
        Ok(())
    }

    pub(super) fn declare(&mut self, v: VarId, s: &mut State) -> Result<(), SymexError> {
        let var = &self.prog.vars[v];
        let ty = var.ty;
        if self.is_memory_var(v) {
            let key = (self.frame, v);
            if self.local_obj.contains_key(&key) {
                // A new lifetime of the same object: its value is indeterminate again.
                let place = Place::var(v, ty);
                self.nondet_value_into(&place, s, false)?;
            }
            // The first lifetime starts from the object's nondet initial value.
            self.obj_of_var(v)?;
        } else {
            let val = self.fresh_value(ty)?;
            s.vars.insert((self.frame, v), val);
        }
        Ok(())
    }

    pub fn zero_value(&mut self, ty: crate::ir::TypeId) -> Result<Val, SymexError> {
        let types = &self.prog.types;
        let aggregate = matches!(types.get(ty), Type::Array { .. } | Type::Struct(_));
        let leaves = super::memory::leaves(types, ty).or_else(unsupported)?;
        let vals = leaves
            .into_iter()
            .map(|(o, b)| (o, self.enc.bv_const(b, 0)))
            .collect();
        Ok(Val::from_leaves(vals, aggregate))
    }

    pub fn fresh_value(&mut self, ty: crate::ir::TypeId) -> Result<Val, SymexError> {
        let types = &self.prog.types;
        let aggregate = matches!(types.get(ty), Type::Array { .. } | Type::Struct(_));
        let leaves = super::memory::leaves(types, ty).or_else(unsupported)?;
        let bools = super::memory::bool_offsets(types, ty);
        let vals = leaves
            .into_iter()
            .map(|(o, b)| {
                // A `_Bool` holds 0 or 1 only: its other bits are zero.
                let v = if bools.contains(&o) {
                    let bit = self.enc.bv_fresh(1);
                    self.enc.bv_zero_extend(&bit, b)
                } else {
                    self.enc.bv_fresh(b)
                };
                (o, v)
            })
            .collect();
        Ok(Val::from_leaves(vals, aggregate))
    }

    pub(super) fn nondet_into(&mut self, dst: &Place, s: &mut State) -> Result<(), SymexError> {
        self.nondet_value_into(dst, s, true)
    }

    pub(super) fn nondet_value_into(
        &mut self,
        dst: &Place,
        s: &mut State,
        record: bool,
    ) -> Result<(), SymexError> {
        let v = self.fresh_value(dst.ty)?;
        if record {
            if let Val::Scalar(b) = &v {
                self.nondets.push(NondetInput {
                    thread: self.cur,
                    loc: self.loc,
                    guard: s.guard,
                    value: b.clone(),
                    signed: self.prog.types.is_signed(dst.ty),
                });
            }
        }
        let g = s.guard;
        self.write_place(dst, v, g, s)
    }

    /// Bit-vector resized to `bits`, extending by `signed`.
    pub fn resize(&mut self, v: &BitVec, bits: u32, signed: bool) -> BitVec {
        use std::cmp::Ordering::*;
        match v.width().cmp(&bits) {
            Equal => v.clone(),
            Greater => self.enc.bv_truncate(v, bits),
            Less if signed => self.enc.bv_sign_extend(v, bits),
            Less => self.enc.bv_zero_extend(v, bits),
        }
    }
}
