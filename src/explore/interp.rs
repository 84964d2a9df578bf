//! A concrete, deterministic interpreter of the IR with explicit threads: the machine state
//! (memory objects, thread frames, mutexes) and one scheduler-visible step of one thread.
//!
//! Memory is a set of objects (every variable instance, every heap block) holding bytes;
//! pointers are (object, offset) and their provenance is kept beside the bytes, so that a
//! pointer stored in memory and read back still names its object. Anything this interpreter
//! cannot give an exact C meaning (undefined behaviour, unknown pointers, floats) ends the run
//! as a [`RunEnd::Trap`]: a run never claims more than the program can do.

use std::collections::BTreeMap;

use cranelift_entity::EntityRef;

use crate::ir::{
    BinOp, Callee, Expr, ExprKind, FuncId, InstrId, InstrKind, Loc, Place, PlaceBase, Program,
    Proj, Type, TypeId, UnOp, VarId,
};

/// Index of a memory object.
pub type ObjId = u32;

/// What a scalar value points to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prov {
    Obj(ObjId),
    Func(FuncId),
}

/// A scalar: its bits (extended to 64 by the signedness of its type; a pointer's bits are its
/// byte offset) and, for pointers, the object it points into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    pub bits: u64,
    pub prov: Option<Prov>,
}

impl Scalar {
    pub fn int(bits: u64) -> Scalar {
        Scalar { bits, prov: None }
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

/// A memory object.
#[derive(Clone, Debug)]
struct Object {
    bytes: Vec<u8>,
    /// Offset → (what the pointer stored there points to, its size in bytes).
    provs: BTreeMap<u64, (Prov, u8)>,
    alive: bool,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// A failed assertion or a `reach_error` call.
    Violation { thread: usize, loc: Loc },
    /// `main` returned or the program halted (`exit`, `abort`).
    Finished,
    /// An `assume` was false: the run does not count.
    Discarded,
    /// Undefined or unsupported behaviour: the run cannot go on exactly.
    Trap(String),
    /// No thread can move.
    Deadlock,
}

/// One activation of a function.
#[derive(Clone, Debug)]
struct Frame {
    func: FuncId,
    pc: InstrId,
    vars: BTreeMap<VarId, ObjId>,
    /// Set while this frame waits for a callee: where the callee's result goes.
    pending: Option<Option<Place>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    Running,
    /// Inside `pthread_cond_wait`: the mutex was released, it must be taken again.
    CondWaiting,
    Done(Option<Scalar>),
}

#[derive(Clone, Debug)]
struct Thread {
    frames: Vec<Frame>,
    tls: BTreeMap<VarId, ObjId>,
    status: Status,
    atomic: u32,
    /// Shared reads already done by the current, unfinished instruction.
    memo: Vec<Value>,
}

/// A nondet value request: thread, location, width in bits and signedness of the value.
pub struct NondetRequest {
    pub thread: usize,
    pub loc: Loc,
    pub bits: u32,
    pub signed: bool,
}

/// The whole machine state; cheap enough to clone for a depth-first search.
#[derive(Clone, Debug)]
pub struct Machine<'p> {
    prog: &'p Program,
    objects: Vec<Object>,
    globals: BTreeMap<VarId, ObjId>,
    threads: Vec<Thread>,
    /// Locked mutexes (object, offset) → owner thread.
    mutexes: BTreeMap<(ObjId, u64), usize>,
    /// Instructions executed so far.
    pub steps: u64,
    /// `main` returned: the program ended (`pthread_exit` in main lets the others go on).
    main_returned: bool,
    /// The line of every shared access (and synchronisation operation) of the last
    /// [`Machine::step`]: what the accesses of a witness are matched against.
    pub last_shared: Vec<u32>,
}

/// Why an instruction stopped: the run ended, or the thread yields between two shared
/// accesses of one instruction.
#[derive(Debug)]
enum Stop {
    End(RunEnd),
    Yield,
}

type R<T> = Result<T, Stop>;

/// Most register-only instructions run in one step.
const INVISIBLE_RUN: u32 = 10_000;
/// Largest object (bytes) a run may allocate or touch at once.
const MAX_OBJECT: u64 = 1 << 24;

fn trap<T>(msg: impl Into<String>) -> R<T> {
    Err(Stop::End(RunEnd::Trap(msg.into())))
}

/// Evaluation context of one instruction of thread `t`: the values of the shared reads done
/// in earlier steps of the same instruction (`memo`, consumed in evaluation order from
/// `pos`), and how many fresh shared reads this step may still do.
struct Cx {
    t: usize,
    memo: Vec<Value>,
    pos: usize,
    budget: u32,
    /// A shared write was done.
    wrote: bool,
}

impl Cx {
    fn unlimited(t: usize, memo: Vec<Value>) -> Cx {
        Cx {
            t,
            memo,
            pos: 0,
            budget: u32::MAX,
            wrote: false,
        }
    }
}

/// Truncate to `bits` and extend by `signed` (the canonical form of a scalar's bits).
fn norm(v: u64, bits: u32, signed: bool) -> u64 {
    if bits >= 64 || bits == 0 {
        return v;
    }
    let mask = (1u64 << bits) - 1;
    let v = v & mask;
    if signed && (v >> (bits - 1)) & 1 == 1 {
        v | !mask
    } else {
        v
    }
}

impl<'p> Machine<'p> {
    /// The initial state: globals zeroed, thread 0 about to run `init`, then `tls_init`, then
    /// `main`.
    pub fn new(prog: &'p Program) -> Result<Machine<'p>, RunEnd> {
        match Machine::start(prog) {
            Ok(m) => Ok(m),
            Err(Stop::End(e)) => Err(e),
            Err(Stop::Yield) => Err(RunEnd::Trap("yield before start".into())),
        }
    }

    fn start(prog: &'p Program) -> R<Machine<'p>> {
        let main = match prog.main {
            Some(m) => m,
            None => return trap("the program has no main"),
        };
        let mut m = Machine {
            prog,
            objects: Vec::new(),
            globals: BTreeMap::new(),
            threads: Vec::new(),
            mutexes: BTreeMap::new(),
            steps: 0,
            main_returned: false,
            last_shared: Vec::new(),
        };
        for (v, d) in prog.globals() {
            if !d.thread_local {
                let o = m.new_var_object(d.ty);
                m.globals.insert(v, o);
            }
        }
        let main_frame = m.new_frame(main)?;
        let mut t = Thread {
            frames: vec![main_frame],
            tls: BTreeMap::new(),
            status: Status::Running,
            atomic: 0,
            memo: Vec::new(),
        };
        m.add_tls(&mut t)?;
        if m.has_code(prog.init) {
            let init = m.new_frame(prog.init)?;
            t.frames.push(init);
        }
        m.threads.push(t);
        // main's parameters (argc, argv) stay zero: a valid choice for the environment.
        Ok(m)
    }

    fn new_var_object(&mut self, ty: TypeId) -> ObjId {
        let size = self.prog.types.size_of(ty).unwrap_or(0);
        self.new_object(size)
    }

    fn new_object(&mut self, size: u64) -> ObjId {
        self.objects.push(Object {
            bytes: vec![0; size as usize],
            provs: BTreeMap::new(),
            alive: true,
        });
        (self.objects.len() - 1) as ObjId
    }

    fn has_code(&self, f: FuncId) -> bool {
        self.prog.funcs[f]
            .body
            .as_ref()
            .is_some_and(|b| !b.instrs.is_empty())
    }

    fn new_frame(&mut self, f: FuncId) -> R<Frame> {
        let func = &self.prog.funcs[f];
        if func.body.as_ref().is_none_or(|b| b.instrs.is_empty()) {
            return trap(format!("call of '{}' without a body", func.name));
        }
        let mut vars = BTreeMap::new();
        for &v in func.params.iter().chain(func.locals.iter()) {
            let o = self.new_var_object(self.prog.vars[v].ty);
            vars.insert(v, o);
        }
        Ok(Frame {
            func: f,
            pc: InstrId::new(0),
            vars,
            pending: None,
        })
    }

    /// The thread-local instances of a new thread, and its `tls_init` frame on top.
    fn add_tls(&mut self, t: &mut Thread) -> R<()> {
        for (v, d) in self.prog.globals() {
            if d.thread_local {
                let o = self.new_var_object(d.ty);
                t.tls.insert(v, o);
            }
        }
        if self.has_code(self.prog.tls_init) {
            let f = self.new_frame(self.prog.tls_init)?;
            t.frames.push(f);
        }
        Ok(())
    }

    pub fn num_threads(&self) -> usize {
        self.threads.len()
    }

    pub fn is_done(&self, t: usize) -> bool {
        matches!(self.threads[t].status, Status::Done(_))
    }

    /// The instruction thread `t` executes next.
    fn next_instr(&self, t: usize) -> Option<(FuncId, InstrId)> {
        let th = &self.threads[t];
        if self.is_done(t) {
            return None;
        }
        th.frames.last().map(|f| (f.func, f.pc))
    }

    fn instr(&self, f: FuncId, i: InstrId) -> &'p crate::ir::Instr {
        let body = self.prog.funcs[f].body.as_ref().expect("frames run bodies");
        &body.instrs[i]
    }

    /// Threads that can take a step now (respecting atomic sections and blocking operations).
    pub fn runnable(&self) -> Vec<usize> {
        if let Some(a) = self.threads.iter().position(|t| t.atomic > 0) {
            return if self.enabled(a) { vec![a] } else { Vec::new() };
        }
        (0..self.threads.len())
            .filter(|&t| self.enabled(t))
            .collect()
    }

    /// Whether thread `t` could take a step if scheduled (a trap counts as a step).
    pub fn enabled(&self, t: usize) -> bool {
        let Some((f, i)) = self.next_instr(t) else {
            return false;
        };
        let instr = self.instr(f, i);
        let memo = &self.threads[t].memo;
        let lock_free = |m: &Expr| match self.eval(&mut Cx::unlimited(t, memo.clone()), m) {
            Ok(Value::Scalar(Scalar {
                bits,
                prov: Some(Prov::Obj(o)),
            })) => !self.mutexes.contains_key(&(o, bits)),
            _ => true,
        };
        match &instr.kind {
            InstrKind::MutexLock(m) => lock_free(m),
            InstrKind::CondWait { mutex, .. } => {
                self.threads[t].status != Status::CondWaiting || lock_free(mutex)
            }
            InstrKind::ThreadJoin { thread, .. } => {
                match self.eval(&mut Cx::unlimited(t, memo.clone()), thread) {
                    Ok(Value::Scalar(s)) => match self.threads.get(s.bits as usize) {
                        Some(_) => self.is_done(s.bits as usize),
                        None => true,
                    },
                    _ => true,
                }
            }
            _ => true,
        }
    }

    /// Whether an instruction touches only the registers of its own frame (no shared state,
    /// no thread or lock operation): a scheduler need not interleave before it.
    fn invisible(&self, t: usize) -> bool {
        let Some((f, i)) = self.next_instr(t) else {
            return false;
        };
        let instr = self.instr(f, i);
        let local_kind = matches!(
            instr.kind,
            InstrKind::Skip
                | InstrKind::Decl(_)
                | InstrKind::Assign { .. }
                | InstrKind::Nondet { .. }
                | InstrKind::Goto { .. }
        );
        if !local_kind {
            return false;
        }
        let mut ok = true;
        let vars = &self.prog.vars;
        let check_place = |p: &Place, ok: &mut bool| match &p.base {
            PlaceBase::Deref(_) => *ok = false,
            PlaceBase::Var(v) => {
                if vars[*v].is_global() || vars[*v].address_taken {
                    *ok = false
                }
            }
        };
        match &instr.kind {
            InstrKind::Assign { dst, .. } | InstrKind::Nondet { dst } => check_place(dst, &mut ok),
            _ => {}
        }
        instr.kind.walk_exprs(&mut |e| {
            if let ExprKind::Read(p) = &e.kind {
                check_place(p, &mut ok);
            }
        });
        ok
    }

    /// Execute one step of thread `t`: one instruction, then every following instruction of
    /// the same thread that touches only its own frame. `Err` ends the run.
    pub fn step(
        &mut self,
        t: usize,
        nondet: &mut dyn FnMut(&NondetRequest) -> u64,
    ) -> Result<(), RunEnd> {
        self.last_shared.clear();
        let r = self.exec(t, nondet).and_then(|()| {
            // Bounded, so that a thread spinning on its own registers still yields.
            let mut n = 0;
            while n < INVISIBLE_RUN && self.invisible(t) {
                self.exec(t, nondet)?;
                n += 1;
            }
            Ok(())
        });
        match r {
            Ok(()) | Err(Stop::Yield) if self.main_returned => Err(RunEnd::Finished),
            Ok(()) | Err(Stop::Yield) if self.runnable().is_empty() => {
                if self
                    .threads
                    .iter()
                    .all(|th| matches!(th.status, Status::Done(_)))
                {
                    Err(RunEnd::Finished)
                } else {
                    Err(RunEnd::Deadlock)
                }
            }
            Ok(()) | Err(Stop::Yield) => Ok(()),
            Err(Stop::End(e)) => Err(e),
        }
    }

    fn frame(&self, t: usize) -> &Frame {
        self.threads[t]
            .frames
            .last()
            .expect("a running thread has a frame")
    }
    fn frame_mut(&mut self, t: usize) -> &mut Frame {
        self.threads[t]
            .frames
            .last_mut()
            .expect("a running thread has a frame")
    }
    fn advance(&mut self, t: usize) {
        let f = self.frame_mut(t);
        f.pc = InstrId::new(f.pc.index() + 1);
    }

    /// One step of the current instruction of thread `t`: at most one fresh shared read, and
    /// a shared write only in a step without one (so that other threads can interleave
    /// between the accesses of `x = x + 1`).
    fn exec(&mut self, t: usize, nondet: &mut dyn FnMut(&NondetRequest) -> u64) -> R<()> {
        let memo = std::mem::take(&mut self.threads[t].memo);
        let mut cx = Cx {
            t,
            memo,
            pos: 0,
            budget: 1,
            wrote: false,
        };
        // Initialisers are not steps of the witness (their lines are the declarations').
        let at = self
            .next_instr(t)
            .filter(|&(f, _)| f != self.prog.init && f != self.prog.tls_init)
            .map(|(f, i)| self.instr(f, i));
        let waking = self.threads[t].status == Status::CondWaiting;
        let held = |m: &Machine| m.mutexes.values().filter(|&&o| o == t).count();
        let trylock = at.is_some_and(|i| matches!(i.kind, InstrKind::MutexTryLock { .. }));
        let held_before = if trylock { held(self) } else { 0 };
        let r = self.exec_in(&mut cx, nondet);
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
            self.threads[t].memo = cx.memo;
        }
        r
    }

    fn exec_in(&mut self, cx: &mut Cx, nondet: &mut dyn FnMut(&NondetRequest) -> u64) -> R<()> {
        let t = cx.t;
        let Some((f, i)) = self.next_instr(t) else {
            return trap(format!("thread {t} cannot run"));
        };
        let body_len = self.prog.funcs[f]
            .body
            .as_ref()
            .map_or(0, |b| b.instrs.len());
        let instr = self.instr(f, i);
        self.steps += 1;
        match &instr.kind {
            InstrKind::Skip | InstrKind::Decl(_) => self.advance(t),
            InstrKind::Assign { dst, src } => {
                let v = self.eval(cx, src)?;
                let (o, off) = self.place(cx, dst)?;
                if self.shared(dst) {
                    if cx.budget == 0 {
                        return Err(Stop::Yield);
                    }
                    cx.wrote = true;
                }
                self.store(o, off, dst.ty, &v)?;
                self.advance(t);
            }
            InstrKind::Nondet { dst } => {
                let ty = dst.ty;
                let types = &self.prog.types;
                if !types.is_integer(ty) && !types.is_pointer(ty) {
                    return trap("nondet value of a non-scalar type");
                }
                let bits = types.bits(ty);
                let signed = types.is_signed(ty);
                let raw = nondet(&NondetRequest {
                    thread: t,
                    loc: instr.loc,
                    bits,
                    signed,
                });
                let v = if matches!(types.get(ty), Type::Bool) {
                    (raw != 0) as u64
                } else {
                    norm(raw, bits, signed)
                };
                let (o, off) = self.place(cx, dst)?;
                cx.wrote |= self.shared(dst);
                self.store(o, off, ty, &Value::Scalar(Scalar::int(v)))?;
                self.advance(t);
            }
            InstrKind::Assume(c) => {
                if !self.eval_scalar(cx, c)?.truthy() {
                    return Err(Stop::End(RunEnd::Discarded));
                }
                self.advance(t);
            }
            InstrKind::Assert { cond, .. } => {
                if !self.eval_scalar(cx, cond)?.truthy() {
                    return Err(Stop::End(RunEnd::Violation {
                        thread: t,
                        loc: instr.loc,
                    }));
                }
                self.advance(t);
            }
            InstrKind::Goto { target, cond, .. } => {
                let jump = match cond {
                    Some(c) => self.eval_scalar(cx, c)?.truthy(),
                    None => true,
                };
                if jump {
                    self.frame_mut(t).pc = *target;
                } else {
                    self.advance(t);
                }
            }
            InstrKind::Call { dst, callee, args } => {
                let g = self.callee(cx, callee)?;
                let vals = args
                    .iter()
                    .map(|a| self.eval(cx, a))
                    .collect::<R<Vec<_>>>()?;
                self.push_call(t, g, vals, dst.clone())?;
            }
            InstrKind::Return(e) => {
                let v = match e {
                    Some(e) => Some(self.eval(cx, e)?),
                    None => None,
                };
                self.do_return(t, v)?;
            }
            InstrKind::Halt => return Err(Stop::End(RunEnd::Finished)),
            InstrKind::ThreadCreate { handle, entry, arg } => {
                let g = self.callee(cx, entry)?;
                let a = self.eval(cx, arg)?;
                let id = self.threads.len();
                let mut frame = self.new_frame(g)?;
                if let Some(&p) = self.prog.funcs[g].params.first() {
                    let o = frame.vars[&p];
                    self.store(o, 0, self.prog.vars[p].ty, &a)?;
                }
                frame.pending = None;
                let mut th = Thread {
                    frames: vec![frame],
                    tls: BTreeMap::new(),
                    status: Status::Running,
                    atomic: 0,
                    memo: Vec::new(),
                };
                self.add_tls(&mut th)?;
                self.threads.push(th);
                let (o, off) = self.place(cx, handle)?;
                self.store(o, off, handle.ty, &Value::Scalar(Scalar::int(id as u64)))?;
                self.advance(t);
            }
            InstrKind::ThreadJoin { thread, retval } => {
                let id = self.eval_scalar(cx, thread)?;
                let id = id.bits as usize;
                if id >= self.threads.len() || id == t {
                    return trap("join of an unknown thread");
                }
                let Status::Done(rv) = self.threads[id].status else {
                    return trap("join of a running thread");
                };
                if let Some(r) = retval {
                    let (o, off) = self.deref(self.eval_scalar(cx, r)?)?;
                    let vp = self
                        .prog
                        .types
                        .find(&Type::Void)
                        .and_then(|v| self.prog.types.find(&Type::Pointer(v)));
                    let Some(vp) = vp else {
                        return trap("join: no void* type");
                    };
                    let v = rv.unwrap_or(Scalar::int(0));
                    self.store(o, off, vp, &Value::Scalar(v))?;
                }
                self.advance(t);
            }
            InstrKind::ThreadExit(e) => {
                let v = self.eval_scalar(cx, e)?;
                self.finish_thread(t, Some(v));
            }
            InstrKind::ThreadSelf { dst } => {
                let (o, off) = self.place(cx, dst)?;
                self.store(o, off, dst.ty, &Value::Scalar(Scalar::int(t as u64)))?;
                self.advance(t);
            }
            InstrKind::AtomicBegin => {
                self.threads[t].atomic += 1;
                self.advance(t);
            }
            InstrKind::AtomicEnd => {
                let a = &mut self.threads[t].atomic;
                *a = a.saturating_sub(1);
                self.advance(t);
            }
            InstrKind::MutexInit(m) | InstrKind::MutexDestroy(m) => {
                let key = self.deref(self.eval_scalar(cx, m)?)?;
                self.mutexes.remove(&key);
                self.advance(t);
            }
            InstrKind::MutexLock(m) => {
                let key = self.deref(self.eval_scalar(cx, m)?)?;
                if self.mutexes.contains_key(&key) {
                    return trap("lock of a held mutex");
                }
                self.mutexes.insert(key, t);
                self.advance(t);
            }
            InstrKind::MutexUnlock(m) => {
                let key = self.deref(self.eval_scalar(cx, m)?)?;
                if self.mutexes.get(&key) != Some(&t) {
                    return trap("unlock of a mutex the thread does not hold");
                }
                self.mutexes.remove(&key);
                self.advance(t);
            }
            InstrKind::MutexTryLock { mutex, dst } => {
                let key = self.deref(self.eval_scalar(cx, mutex)?)?;
                let busy = self.mutexes.contains_key(&key);
                if !busy {
                    self.mutexes.insert(key, t);
                }
                if let Some(d) = dst {
                    let (o, off) = self.place(cx, d)?;
                    let v = if busy { 16 } else { 0 };
                    self.store(o, off, d.ty, &Value::Scalar(Scalar::int(v)))?;
                }
                self.advance(t);
            }
            InstrKind::CondInit(_)
            | InstrKind::CondSignal(_)
            | InstrKind::CondBroadcast(_)
            | InstrKind::CondDestroy(_) => self.advance(t),
            InstrKind::CondWait { mutex, .. } => {
                let key = self.deref(self.eval_scalar(cx, mutex)?)?;
                if self.threads[t].status == Status::CondWaiting {
                    // Waking up (signalled or spuriously): take the mutex again.
                    if self.mutexes.contains_key(&key) {
                        return trap("wake-up while the mutex is held");
                    }
                    self.mutexes.insert(key, t);
                    self.threads[t].status = Status::Running;
                    self.advance(t);
                } else {
                    if self.mutexes.get(&key) != Some(&t) {
                        return trap("condition wait without holding the mutex");
                    }
                    self.mutexes.remove(&key);
                    self.threads[t].status = Status::CondWaiting;
                }
            }
            InstrKind::Alloc { dst, size, .. } => {
                let n = self.eval_scalar(cx, size)?;
                if n.prov.is_some() || n.bits > MAX_OBJECT {
                    return trap("allocation too large");
                }
                let o = self.new_object(n.bits);
                if let Some(d) = dst {
                    let (po, off) = self.place(cx, d)?;
                    let v = Scalar {
                        bits: 0,
                        prov: Some(Prov::Obj(o)),
                    };
                    self.store(po, off, d.ty, &Value::Scalar(v))?;
                }
                self.advance(t);
            }
            InstrKind::Free(p) => {
                let s = self.eval_scalar(cx, p)?;
                if s.prov.is_none() && s.bits == 0 {
                    self.advance(t);
                } else {
                    let (o, off) = self.deref(s)?;
                    if off != 0 || !self.objects[o as usize].alive {
                        return trap("free of a pointer that is not a live allocation");
                    }
                    self.objects[o as usize].alive = false;
                    self.advance(t);
                }
            }
            InstrKind::Memset { dst, byte, len } => {
                let (o, off) = self.deref(self.eval_scalar(cx, dst)?)?;
                let b = self.eval_scalar(cx, byte)?.bits as u8;
                let n = self.eval_scalar(cx, len)?.bits;
                if n > MAX_OBJECT {
                    return trap("memory operation too large");
                }
                let bytes = vec![b; n as usize];
                self.write_bytes(o, off, &bytes, &[])?;
                self.advance(t);
            }
            InstrKind::Memcpy { dst, src, len } => {
                let (d, doff) = self.deref(self.eval_scalar(cx, dst)?)?;
                let (s, soff) = self.deref(self.eval_scalar(cx, src)?)?;
                let n = self.eval_scalar(cx, len)?.bits;
                if n > MAX_OBJECT {
                    return trap("memory operation too large");
                }
                let (bytes, provs) = self.read_bytes(s, soff, n)?;
                self.write_bytes(d, doff, &bytes, &provs)?;
                self.advance(t);
            }
        }
        // Falling off the end of a body is a return without value.
        if let Some(fr) = self.threads[t].frames.last() {
            if fr.func == f && fr.pc.index() >= body_len && !self.is_done(t) {
                self.do_return(t, None)?;
            }
        }
        Ok(())
    }

    fn callee(&self, cx: &mut Cx, c: &Callee) -> R<FuncId> {
        match c {
            Callee::Direct(g) => Ok(*g),
            Callee::Indirect(e) => match self.eval_scalar(cx, e)? {
                Scalar {
                    prov: Some(Prov::Func(g)),
                    bits: 0,
                } => Ok(g),
                _ => trap("call through an invalid function pointer"),
            },
        }
    }

    fn push_call(&mut self, t: usize, g: FuncId, args: Vec<Value>, dst: Option<Place>) -> R<()> {
        let frame = self.new_frame(g)?;
        let params = self.prog.funcs[g].params.clone();
        // The extra arguments of a variadic function are evaluated and dropped (the function
        // cannot read them without va_arg, which is not supported), as symex does.
        let variadic = matches!(
            self.prog.types.get(self.prog.funcs[g].ty),
            Type::Func { variadic: true, .. }
        );
        if params.len() != args.len() && !(variadic && args.len() > params.len()) {
            return trap(format!(
                "call of '{}' with a wrong number of arguments",
                self.prog.funcs[g].name
            ));
        }
        for (p, a) in params.iter().zip(&args) {
            self.store(frame.vars[p], 0, self.prog.vars[*p].ty, a)?;
        }
        self.frame_mut(t).pending = Some(dst);
        self.threads[t].frames.push(frame);
        Ok(())
    }

    fn do_return(&mut self, t: usize, v: Option<Value>) -> R<()> {
        let frame = self.threads[t].frames.pop().expect("return from a frame");
        for o in frame.vars.values() {
            self.objects[*o as usize].alive = false;
        }
        let Some(caller) = self.threads[t].frames.last_mut() else {
            self.main_returned |= t == 0;
            let rv = match v {
                Some(Value::Scalar(s)) => Some(s),
                _ => None,
            };
            self.finish_thread(t, rv);
            return Ok(());
        };
        // A frame started directly (init, tls_init) resumes at its current instruction.
        if let Some(dst) = caller.pending.take() {
            caller.pc = InstrId::new(caller.pc.index() + 1);
            if let Some(d) = dst {
                let Some(v) = v else {
                    return trap("use of the value of a function returning none");
                };
                let (o, off) = self.place(&mut Cx::unlimited(t, Vec::new()), &d)?;
                self.store(o, off, d.ty, &v)?;
            }
        }
        Ok(())
    }

    fn finish_thread(&mut self, t: usize, v: Option<Scalar>) {
        let th = &mut self.threads[t];
        th.frames.clear();
        th.status = Status::Done(v);
        th.atomic = 0;
        for o in th.tls.values() {
            self.objects[*o as usize].alive = false;
        }
    }

    /// The object and offset a pointer designates.
    fn deref(&self, p: Scalar) -> R<(ObjId, u64)> {
        match p.prov {
            Some(Prov::Obj(o)) => Ok((o, p.bits)),
            Some(Prov::Func(_)) => trap("dereference of a function pointer"),
            None if p.bits == 0 => trap("null pointer dereference"),
            None => trap("dereference of a pointer to no known object"),
        }
    }

    /// Whether reading or writing the place is an access other threads may observe.
    fn shared(&self, p: &Place) -> bool {
        match &p.base {
            PlaceBase::Deref(_) => true,
            PlaceBase::Var(v) => {
                let d = &self.prog.vars[*v];
                (d.is_global() && !d.thread_local) || d.address_taken
            }
        }
    }

    fn var_object(&self, t: usize, v: VarId) -> R<ObjId> {
        let d = &self.prog.vars[v];
        let found = if d.is_global() {
            if d.thread_local {
                self.threads[t].tls.get(&v)
            } else {
                self.globals.get(&v)
            }
        } else {
            self.frame(t).vars.get(&v)
        };
        match found {
            Some(o) => Ok(*o),
            None => trap(format!("variable '{}' is not in scope", d.name)),
        }
    }

    /// The object and byte offset of a place.
    fn place(&self, cx: &mut Cx, p: &Place) -> R<(ObjId, u64)> {
        let (o, mut off) = match &p.base {
            PlaceBase::Var(v) => (self.var_object(cx.t, *v)?, 0),
            PlaceBase::Deref(e) => self.deref(self.eval_scalar(cx, e)?)?,
        };
        for pr in &p.projs {
            match pr {
                Proj::Field { offset, .. } => off = off.wrapping_add(*offset),
                Proj::Index { index, elem_size } => {
                    let i = self.eval_scalar(cx, index)?;
                    if i.prov.is_some() {
                        return trap("pointer used as an array index");
                    }
                    off = off.wrapping_add(i.bits.wrapping_mul(*elem_size));
                }
            }
        }
        let ptr_bits = self.prog.types.ptr_bits() as u32;
        Ok((o, norm(off, ptr_bits, false)))
    }

    fn check(&self, o: ObjId, off: u64, n: u64) -> R<()> {
        let obj = &self.objects[o as usize];
        if !obj.alive {
            return trap("access to a dead object");
        }
        if off
            .checked_add(n)
            .is_none_or(|e| e > obj.bytes.len() as u64)
        {
            return trap("out-of-bounds access");
        }
        Ok(())
    }

    fn read_bytes(&self, o: ObjId, off: u64, n: u64) -> R<(Vec<u8>, Provs)> {
        self.check(o, off, n)?;
        let obj = &self.objects[o as usize];
        let bytes = obj.bytes[off as usize..(off + n) as usize].to_vec();
        let provs = obj
            .provs
            .range(off..off + n)
            .filter(|(k, (_, sz))| **k + *sz as u64 <= off + n)
            .map(|(k, (p, sz))| (k - off, *p, *sz))
            .collect();
        Ok((bytes, provs))
    }

    fn write_bytes(
        &mut self,
        o: ObjId,
        off: u64,
        bytes: &[u8],
        provs: &[(u64, Prov, u8)],
    ) -> R<()> {
        let n = bytes.len() as u64;
        self.check(o, off, n)?;
        let obj = &mut self.objects[o as usize];
        obj.bytes[off as usize..(off + n) as usize].copy_from_slice(bytes);
        // Pointers overlapping the written range lose their provenance.
        let start = off.saturating_sub(8);
        let stale: Vec<u64> = obj
            .provs
            .range(start..off + n)
            .filter(|(k, (_, sz))| **k + *sz as u64 > off)
            .map(|(k, _)| *k)
            .collect();
        for k in stale {
            obj.provs.remove(&k);
        }
        for (k, p, sz) in provs {
            obj.provs.insert(off + k, (*p, *sz));
        }
        Ok(())
    }

    fn load(&self, o: ObjId, off: u64, ty: TypeId) -> R<Value> {
        let types = &self.prog.types;
        let Some(size) = types.size_of(ty) else {
            return trap("read of an object of unknown size");
        };
        if types.is_float(ty) {
            return trap("unsupported: floating point");
        }
        let (bytes, provs) = self.read_bytes(o, off, size)?;
        if types.is_integer(ty) || types.is_pointer(ty) {
            let mut raw = 0u64;
            for (k, b) in bytes.iter().enumerate() {
                raw |= (*b as u64) << (8 * k);
            }
            let bits = norm(raw, types.bits(ty), types.is_signed(ty));
            let prov = match provs.as_slice() {
                [(0, p, sz)] if *sz as u64 == size => Some(*p),
                _ => None,
            };
            Ok(Value::Scalar(Scalar { bits, prov }))
        } else {
            Ok(Value::Bytes(bytes, provs))
        }
    }

    fn store(&mut self, o: ObjId, off: u64, ty: TypeId, v: &Value) -> R<()> {
        let types = &self.prog.types;
        let Some(size) = types.size_of(ty) else {
            return trap("write of an object of unknown size");
        };
        match v {
            Value::Scalar(s) => {
                if size > 8 {
                    return trap("scalar stored into an aggregate");
                }
                let bytes: Vec<u8> = (0..size).map(|k| (s.bits >> (8 * k)) as u8).collect();
                let provs: Vec<(u64, Prov, u8)> =
                    s.prov.map(|p| (0, p, size as u8)).into_iter().collect();
                self.write_bytes(o, off, &bytes, &provs)
            }
            Value::Bytes(b, p) => {
                if b.len() as u64 != size {
                    return trap("aggregate of the wrong size");
                }
                self.write_bytes(o, off, b, p)
            }
        }
    }

    fn eval_scalar(&self, cx: &mut Cx, e: &Expr) -> R<Scalar> {
        match self.eval(cx, e)? {
            Value::Scalar(s) => Ok(s),
            Value::Bytes(..) => trap("aggregate where a scalar is expected"),
        }
    }

    /// The value of an expression in thread `t`'s current frame.
    fn eval(&self, cx: &mut Cx, e: &Expr) -> R<Value> {
        let types = &self.prog.types;
        let bits = types.bits(e.ty);
        let signed = types.is_signed(e.ty);
        let int = |v: u64| Ok(Value::Scalar(Scalar::int(norm(v, bits, signed))));
        match &e.kind {
            ExprKind::Const(v) => Ok(Value::Scalar(Scalar::int(*v))),
            ExprKind::Read(p) => {
                let (o, off) = self.place(cx, p)?;
                if !self.shared(p) {
                    return self.load(o, off, p.ty);
                }
                if let Some(v) = cx.memo.get(cx.pos) {
                    cx.pos += 1;
                    return Ok(v.clone());
                }
                if cx.budget == 0 {
                    return Err(Stop::Yield);
                }
                cx.budget -= 1;
                let v = self.load(o, off, p.ty)?;
                cx.memo.push(v.clone());
                cx.pos += 1;
                Ok(v)
            }
            ExprKind::AddrOf(p) => {
                let (o, off) = self.place(cx, p)?;
                Ok(Value::Scalar(Scalar {
                    bits: off,
                    prov: Some(Prov::Obj(o)),
                }))
            }
            ExprKind::FuncAddr(f) => Ok(Value::Scalar(Scalar {
                bits: 0,
                prov: Some(Prov::Func(*f)),
            })),
            ExprKind::Unary(op, a) => {
                let a = self.eval_scalar(cx, a)?;
                match op {
                    UnOp::LogNot => int(!a.truthy() as u64),
                    _ if a.prov.is_some() => trap("arithmetic on a pointer"),
                    UnOp::Neg => int(a.bits.wrapping_neg()),
                    UnOp::BitNot => int(!a.bits),
                }
            }
            ExprKind::Ite(c, a, b) => {
                if self.eval_scalar(cx, c)?.truthy() {
                    self.eval(cx, a)
                } else {
                    self.eval(cx, b)
                }
            }
            ExprKind::Cast(a) => {
                let v = self.eval_scalar(cx, a)?;
                if types.is_float(e.ty) || types.is_float(a.ty) {
                    return trap("unsupported: floating point");
                }
                if matches!(types.get(e.ty), Type::Bool) {
                    return int(v.truthy() as u64);
                }
                if types.is_void(e.ty) {
                    return Ok(Value::Scalar(v));
                }
                if v.prov.is_some() && bits < types.ptr_bits() as u32 {
                    return trap("pointer truncated by a cast");
                }
                Ok(Value::Scalar(Scalar {
                    bits: norm(v.bits, bits, signed),
                    prov: v.prov,
                }))
            }
            ExprKind::PtrAdd(p, d) => {
                let p = self.eval_scalar(cx, p)?;
                let d = self.eval_scalar(cx, d)?;
                if d.prov.is_some() {
                    return trap("pointer added to a pointer");
                }
                let pb = types.ptr_bits() as u32;
                Ok(Value::Scalar(Scalar {
                    bits: norm(p.bits.wrapping_add(d.bits), pb, false),
                    prov: p.prov,
                }))
            }
            ExprKind::PtrDiff(a, b) => {
                let a = self.eval_scalar(cx, a)?;
                let b = self.eval_scalar(cx, b)?;
                if a.prov != b.prov {
                    return trap("difference of pointers into different objects");
                }
                int(a.bits.wrapping_sub(b.bits))
            }
            ExprKind::Binary(op, a, b) => {
                let opty = a.ty;
                let a = self.eval_scalar(cx, a)?;
                let b = self.eval_scalar(cx, b)?;
                self.binary(*op, opty, a, b, bits, signed)
            }
        }
    }

    fn binary(
        &self,
        op: BinOp,
        opty: TypeId,
        a: Scalar,
        b: Scalar,
        bits: u32,
        signed: bool,
    ) -> R<Value> {
        use BinOp::*;
        let types = &self.prog.types;
        let obits = types.bits(opty).max(1);
        let res = |v: u64| Ok(Value::Scalar(Scalar::int(norm(v, bits, signed))));
        let boolean = |c: bool| Ok(Value::Scalar(Scalar::int(c as u64)));
        let mask = |v: u64| norm(v, obits, false);
        match op {
            LogAnd => return boolean(a.truthy() && b.truthy()),
            LogOr => return boolean(a.truthy() || b.truthy()),
            Eq => return boolean(a == b),
            Ne => return boolean(a != b),
            _ => {}
        }
        if a.prov.is_some() || b.prov.is_some() {
            return match op {
                ULt | ULe | UGt | UGe | SLt | SLe | SGt | SGe if a.prov == b.prov => self.binary(
                    op,
                    opty,
                    Scalar::int(a.bits),
                    Scalar::int(b.bits),
                    bits,
                    signed,
                ),
                Add if b.prov.is_none() => Ok(Value::Scalar(Scalar {
                    bits: norm(a.bits.wrapping_add(b.bits), bits, signed),
                    prov: a.prov,
                })),
                Sub if b.prov.is_none() => Ok(Value::Scalar(Scalar {
                    bits: norm(a.bits.wrapping_sub(b.bits), bits, signed),
                    prov: a.prov,
                })),
                Sub if a.prov == b.prov => res(a.bits.wrapping_sub(b.bits)),
                _ => trap(format!("unsupported: '{}' on pointers", op.symbol())),
            };
        }
        let (x, y) = (a.bits, b.bits);
        let (sx, sy) = (x as i64, y as i64);
        // The right operand of a shift keeps its own (promoted) type.
        let shift = |n: u64| -> R<u32> {
            if (n as i64) < 0 || n >= obits as u64 {
                trap("shift by a negative amount or by the width or more")
            } else {
                Ok(n as u32)
            }
        };
        match op {
            Add => res(x.wrapping_add(y)),
            Sub => res(x.wrapping_sub(y)),
            Mul => res(x.wrapping_mul(y)),
            SDiv | SRem | UDiv | URem if y == 0 => trap("division by zero"),
            SDiv => res(sx.wrapping_div(sy) as u64),
            SRem => res(sx.wrapping_rem(sy) as u64),
            UDiv => res(mask(x) / mask(y)),
            URem => res(mask(x) % mask(y)),
            Shl => res(x << shift(y)?),
            AShr => res((sx >> shift(y)?) as u64),
            LShr => res(mask(x) >> shift(y)?),
            BitAnd => res(x & y),
            BitOr => res(x | y),
            BitXor => res(x ^ y),
            SLt => boolean(sx < sy),
            SLe => boolean(sx <= sy),
            SGt => boolean(sx > sy),
            SGe => boolean(sx >= sy),
            ULt => boolean(mask(x) < mask(y)),
            ULe => boolean(mask(x) <= mask(y)),
            UGt => boolean(mask(x) > mask(y)),
            UGe => boolean(mask(x) >= mask(y)),
            Eq | Ne | LogAnd | LogOr => unreachable!("handled above"),
        }
    }

    /// The function thread `t` is in and the line of its next instruction.
    pub fn position(&self, t: usize) -> Option<(FuncId, Loc)> {
        self.next_instr(t).map(|(f, i)| (f, self.instr(f, i).loc))
    }
}
