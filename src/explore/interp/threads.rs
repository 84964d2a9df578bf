//! Calls and returns (with the recursion bound), and the thread and synchronisation
//! instructions: create, join, exit, atomic sections, mutexes, condition variables. Each
//! logs the synchronisation it does as an [`Access`] so that the explorers order it.

use std::collections::BTreeMap;

use super::eval::Cx;
use super::{
    trap, Access, BoundHit, Frame, Machine, Prov, Scalar, Status, Target, Thread, Value, R,
};
use crate::ir::{Callee, Expr, FuncId, InstrId, InstrKind, Place, Type};

impl<'p> Machine<'p> {
    pub(super) fn has_code(&self, f: FuncId) -> bool {
        self.prog.funcs[f]
            .body
            .as_ref()
            .is_some_and(|b| !b.instrs.is_empty())
    }

    /// A frame of `f` whose objects belong to `owner` (thread + 1).
    pub(super) fn new_frame(&mut self, owner: u32, f: FuncId) -> R<Frame> {
        let func = &self.prog.funcs[f];
        if func.body.as_ref().is_none_or(|b| b.instrs.is_empty()) {
            return trap(format!("call of '{}' without a body", func.name));
        }
        let mut vars = BTreeMap::new();
        for &v in func.params.iter().chain(func.locals.iter()) {
            let o = self.new_var_object(owner, Some(v), self.prog.vars[v].ty);
            vars.insert(v, o);
        }
        Ok(Frame {
            func: f,
            pc: InstrId::from_u32(0),
            vars,
            pending: None,
            loops: Vec::new(),
            via_back: false,
            atomic_call: false,
            heads: Vec::new(),
        })
    }

    /// The thread-local instances of a new thread, and its `tls_init` frame on top.
    pub(super) fn add_tls(&mut self, owner: u32, t: &mut Thread) -> R<()> {
        for (v, d) in self.prog.globals() {
            if d.thread_local {
                let o = self.new_var_object(owner, Some(v), d.ty);
                t.tls.insert(v, o);
            }
        }
        if self.has_code(self.prog.tls_init) {
            let f = self.new_frame(owner, self.prog.tls_init)?;
            t.frames.push(f);
        }
        Ok(())
    }

    pub(super) fn callee(&self, cx: &mut Cx, c: &Callee) -> R<FuncId> {
        match c {
            Callee::Direct(g) => Ok(*g),
            Callee::Indirect(e) => match self.eval_scalar(cx, e)? {
                Scalar {
                    prov: Some(Prov::Func(g)),
                    bits: 0,
                    sym: None,
                } => Ok(g),
                _ => trap("call through an invalid function pointer"),
            },
        }
    }

    pub(super) fn push_call(
        &mut self,
        t: usize,
        g: FuncId,
        args: Vec<Value>,
        dst: Option<Place>,
        atomic: bool,
    ) -> R<()> {
        if let Some(b) = &self.bounds {
            let depth = self.threads[t]
                .frames
                .iter()
                .filter(|f| f.func == g)
                .count() as u32;
            if depth >= b.unwind.max(1) {
                let assertions = b.assertions;
                return self.bound_hit(t, BoundHit::Recursion(g), assertions);
            }
        }
        let mut frame = self.new_frame(t as u32 + 1, g)?;
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
        frame.atomic_call = atomic;
        if atomic {
            self.thread_mut(t).atomic += 1;
        }
        self.frame_mut(t).pending = Some(dst);
        self.thread_mut(t).frames.push(frame);
        Ok(())
    }

    /// Returns from the current frame; the value goes to the caller's destination (a shared
    /// destination is a write of its own step when the return value needed a fresh read).
    pub(super) fn do_return(&mut self, cx: &mut Cx, v: Option<Value>) -> R<()> {
        let t = cx.t;
        let frame = self
            .thread_mut(t)
            .frames
            .pop()
            .expect("return from a frame");
        let dst = match self.threads[t].frames.last().map(|c| c.pending.clone()) {
            Some(Some(Some(d))) => {
                let target = self.place(cx, &d).and_then(|p| {
                    if self.shared(&d) {
                        cx.before_write()?;
                    }
                    Ok(p)
                });
                match target {
                    Ok(p) => Some((p, d.ty)),
                    Err(e) => {
                        self.thread_mut(t).frames.push(frame);
                        return Err(e);
                    }
                }
            }
            _ => None,
        };
        if frame.atomic_call {
            let a = &mut self.thread_mut(t).atomic;
            *a = a.saturating_sub(1);
        }
        if self.threads[t].frames.is_empty() {
            let rv = match v {
                Some(Value::Scalar(s)) => Some(s),
                _ => None,
            };
            // A return from main ends the program: main's objects stay (the other threads'
            // steps after it could as well have come before it).
            if t != 0 {
                for o in frame.vars.values() {
                    self.kill(*o);
                }
            }
            self.finish_thread(t, rv);
            return Ok(());
        }
        for o in frame.vars.values() {
            self.kill(*o);
        }
        // A frame started directly (init, tls_init) resumes at its current instruction.
        let caller = self.frame_mut(t);
        if caller.pending.take().is_some() {
            caller.pc = InstrId::from_u32(caller.pc.as_u32() + 1);
            if let Some(((o, off), ty)) = dst {
                let Some(v) = v else {
                    return trap("use of the value of a function returning none");
                };
                self.store(o, off, ty, &v)?;
            }
        }
        Ok(())
    }

    fn finish_thread(&mut self, t: usize, v: Option<Scalar>) {
        self.sync(Target::Done(t), true);
        let tls: Vec<_> = self.threads[t].tls.values().copied().collect();
        let th = self.thread_mut(t);
        th.frames.clear();
        th.status = Status::Done(v);
        th.atomic = 0;
        if t != 0 {
            for o in tls {
                self.kill(o);
            }
        }
    }

    /// The thread stops for good, holding what it holds.
    pub(super) fn stop_thread(&mut self, t: usize) {
        let th = self.thread_mut(t);
        th.status = Status::Stopped;
        th.atomic = 0;
        th.memo.clear();
    }

    fn sync(&mut self, target: Target, write: bool) {
        self.accesses.push(Access {
            target,
            write,
            value: 0,
        });
    }

    /// The mutex an operand designates; evaluating it may read a shared pointer, in which
    /// case the operation itself waits for the next step.
    fn mutex(&mut self, cx: &mut Cx, m: &Expr) -> R<(super::ObjId, u64)> {
        let key = self.deref(cx.t, self.eval_scalar(cx, m)?)?;
        if self.memsafety {
            // The mutex lies in memory that must be live (valid-deref); the read orders the
            // operation with a free of the object for the explorers.
            self.check(key.0, key.1, 1)?;
            self.log(key.0, key.1, 1, false, 0);
        }
        cx.before_write()?;
        self.sync(Target::Mutex(key.0, key.1), true);
        Ok(key)
    }

    pub(super) fn exec_thread_op(&mut self, cx: &mut Cx, kind: &InstrKind) -> R<()> {
        let t = cx.t;
        match kind {
            InstrKind::ThreadCreate { handle, entry, arg } => {
                let g = self.callee(cx, entry)?;
                let a = self.eval(cx, arg)?;
                let (ho, hoff) = self.place(cx, handle)?;
                cx.before_write()?;
                let id = self.threads.len();
                self.sync(Target::Threads, true);
                let mut frame = self.new_frame(id as u32 + 1, g)?;
                if let Some(&p) = self.prog.funcs[g].params.first() {
                    let o = frame.vars[&p];
                    self.store(o, 0, self.prog.vars[p].ty, &a)?;
                }
                frame.pending = None;
                let mut th = Thread {
                    entry: g,
                    frames: vec![frame],
                    tls: BTreeMap::new(),
                    status: Status::Running,
                    atomic: 0,
                    atomic_entry: self.prog.funcs[g].atomic,
                    memo: Vec::new(),
                    effects: 0,
                    inputs: 0,
                };
                self.add_tls(id as u32 + 1, &mut th)?;
                self.threads.push(std::sync::Arc::new(th));
                self.paths.push(0);
                self.store(ho, hoff, handle.ty, &Value::Scalar(Scalar::int(id as u64)))?;
                self.advance(t);
            }
            InstrKind::ThreadJoin { thread, retval } => {
                let id = self.eval_scalar(cx, thread)?;
                if id.sym.is_some() {
                    return trap("unsupported: input-dependent thread handle");
                }
                let id = id.bits as usize;
                if id >= self.threads.len() || id == t {
                    return trap("join of an unknown thread");
                }
                let Status::Done(rv) = self.threads[id].status else {
                    return trap("join of a running thread");
                };
                let target = match retval {
                    Some(r) => Some(self.deref(cx.t, self.eval_scalar(cx, r)?)?),
                    None => None,
                };
                if target.is_some() {
                    cx.before_write()?;
                }
                self.sync(Target::Done(id), false);
                if let Some((o, off)) = target {
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
                if self.memsafety && t == 0 {
                    self.memtrack_at_exit()?;
                }
                self.finish_thread(t, Some(v));
            }
            InstrKind::ThreadSelf { dst } => {
                let (o, off) = self.place(cx, dst)?;
                if self.shared(dst) {
                    cx.before_write()?;
                }
                self.store(o, off, dst.ty, &Value::Scalar(Scalar::int(t as u64)))?;
                self.advance(t);
            }
            InstrKind::AtomicBegin => {
                self.thread_mut(t).atomic += 1;
                self.advance(t);
            }
            InstrKind::AtomicEnd => {
                let a = &mut self.thread_mut(t).atomic;
                *a = a.saturating_sub(1);
                self.advance(t);
            }
            InstrKind::MutexInit(m) | InstrKind::MutexDestroy(m) => {
                let key = self.mutex(cx, m)?;
                self.mutexes.remove(&key);
                self.advance(t);
            }
            InstrKind::MutexLock(m) => {
                let key = self.mutex(cx, m)?;
                if self.mutexes.contains_key(&key) {
                    return trap("lock of a held mutex");
                }
                self.mutexes.insert(key, t);
                self.advance(t);
            }
            InstrKind::MutexUnlock(m) => {
                let key = self.mutex(cx, m)?;
                if self.mutexes.get(&key) != Some(&t) {
                    return trap("unlock of a mutex the thread does not hold");
                }
                self.mutexes.remove(&key);
                self.advance(t);
            }
            InstrKind::MutexTryLock { mutex, dst } => {
                let key = self.mutex(cx, mutex)?;
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
                let key = self.mutex(cx, mutex)?;
                if self.threads[t].status == Status::CondWaiting {
                    // Waking up (signalled or spuriously): take the mutex again.
                    if self.mutexes.contains_key(&key) {
                        return trap("wake-up while the mutex is held");
                    }
                    self.mutexes.insert(key, t);
                    self.thread_mut(t).status = Status::Running;
                    self.advance(t);
                } else {
                    if self.mutexes.get(&key) != Some(&t) {
                        return trap("condition wait without holding the mutex");
                    }
                    self.mutexes.remove(&key);
                    self.thread_mut(t).status = Status::CondWaiting;
                }
            }
            other => unreachable!("not a thread operation: {other:?}"),
        }
        Ok(())
    }
}
