//! What the schedulers ask of a state: the threads and where they are, which can move or are
//! blocked and on what, what a wait reads, and the state's fingerprint.

use super::eval::Cx;
use super::memory::summary;
use super::{Machine, ObjId, Prov, Scalar, Status, Target, Value};
use crate::ir::{FuncId, InstrId, InstrKind, PlaceBase, Program, VarId};

impl<'p> Machine<'p> {
    pub fn program(&self) -> &'p Program {
        self.prog
    }

    pub fn num_threads(&self) -> usize {
        self.threads.len()
    }

    pub fn is_done(&self, t: usize) -> bool {
        matches!(self.threads[t].status, Status::Done(_))
    }

    /// Finished or stopped: the thread takes no further step.
    pub fn is_over(&self, t: usize) -> bool {
        matches!(self.threads[t].status, Status::Done(_) | Status::Stopped)
    }

    /// Stopped for good without finishing (a failed assumption, `exit`, a trap).
    pub fn is_stopped(&self, t: usize) -> bool {
        self.threads[t].status == Status::Stopped
    }

    /// Whether thread `t` holds the mutex `key`.
    pub fn holds(&self, t: usize, key: (ObjId, u64)) -> bool {
        self.mutexes.get(&key) == Some(&t)
    }

    /// Whether thread `t` waits in `pthread_cond_wait` for its mutex.
    pub fn cond_waiting(&self, t: usize) -> bool {
        self.threads[t].status == Status::CondWaiting
    }

    /// A hash of the memory (every object's bytes, pointers and liveness): equal states give
    /// equal fingerprints (for bucketing states before [`Machine::same_state`]).
    pub fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for objs in &self.objects {
            objs.len().hash(&mut h);
            for o in objs {
                o.bytes.hash(&mut h);
                o.provs.hash(&mut h);
                o.alive.hash(&mut h);
                o.undef.hash(&mut h);
            }
        }
        self.mutexes.hash(&mut h);
        h.finish()
    }

    /// Whether two states are the same (memory, threads, mutexes), counters aside.
    pub fn same_state(&self, o: &Machine) -> bool {
        self.objects == o.objects && self.threads == o.threads && self.mutexes == o.mutexes
    }

    /// Where each frame of thread `t` is, outermost first.
    pub fn frames(&self, t: usize) -> Vec<(FuncId, InstrId)> {
        if self.is_over(t) {
            return Vec::new();
        }
        self.threads[t]
            .frames
            .iter()
            .map(|f| (f.func, f.pc))
            .collect()
    }

    /// The function thread `t` was started with, finished or not.
    pub fn entry(&self, t: usize) -> Option<FuncId> {
        self.threads.get(t).map(|th| th.entry)
    }

    /// The global variable an object is, if it is one.
    pub fn global_of(&self, o: ObjId) -> Option<VarId> {
        self.globals.iter().find(|(_, &g)| g == o).map(|(v, _)| *v)
    }

    /// The object of a global variable (not thread-local).
    pub fn global_obj(&self, v: VarId) -> Option<ObjId> {
        self.globals.get(&v).copied()
    }

    /// Whether thread `t` is inside an atomic section (no other thread may run).
    pub fn in_atomic(&self, t: usize) -> bool {
        self.threads[t].atomic > 0
    }

    /// Whether thread `t`'s next step opens the atomic section of its entry function (a
    /// `__VERIFIER_atomic_` function started as a thread).
    pub fn opens_atomic(&self, t: usize) -> bool {
        self.threads[t].atomic_entry
    }

    /// The instruction thread `t` executes next.
    pub fn next_instr(&self, t: usize) -> Option<(FuncId, InstrId)> {
        let th = &self.threads[t];
        if self.is_over(t) {
            return None;
        }
        th.frames.last().map(|f| (f.func, f.pc))
    }

    pub(super) fn instr(&self, f: FuncId, i: InstrId) -> &'p crate::ir::Instr {
        let body = self.prog.funcs[f].body.as_ref().expect("frames run bodies");
        &body.instrs[i]
    }

    /// The instruction thread `t` executes next, if any.
    pub fn next_kind(&self, t: usize) -> Option<&'p InstrKind> {
        self.next_instr(t).map(|(f, i)| &self.instr(f, i).kind)
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
        let lock_free =
            |m: &crate::ir::Expr| match self.eval(&mut Cx::unlimited(t, memo.clone()), m) {
                Ok(Value::Scalar(Scalar {
                    bits,
                    prov: Some(Prov::Obj(o)),
                    ..
                })) => !self.mutexes.contains_key(&(o, bits)),
                _ => true,
            };
        match &instr.kind {
            InstrKind::MutexLock(m) => lock_free(m),
            InstrKind::CondWait { mutex, .. } => {
                self.threads[t].status != Status::CondWaiting || lock_free(mutex)
            }
            // An unknown or input-dependent handle: the join traps when it runs.
            InstrKind::ThreadJoin { thread, .. } => match self.join_handle(t, thread) {
                Some(j) if j < self.threads.len() => self.is_done(j),
                _ => true,
            },
            _ => true,
        }
    }

    /// The shared memory thread `t`'s next step reads to find what it waits for, when it
    /// is a wait (a lock, a condition wait's wake-up, a join): whether the step is enabled
    /// depends on these cells besides the synchronisation objects. Empty for any other step;
    /// `None` when the evaluation stops before it is known.
    pub fn wait_reads(&self, t: usize) -> Option<Vec<Target>> {
        let Some((f, i)) = self.next_instr(t) else {
            return Some(Vec::new());
        };
        let e = match &self.instr(f, i).kind {
            InstrKind::MutexLock(m) => m,
            InstrKind::CondWait { mutex, .. } => mutex,
            InstrKind::ThreadJoin { thread, .. } => thread,
            _ => return Some(Vec::new()),
        };
        let mut cx = Cx::unlimited(t, self.threads[t].memo.clone());
        self.eval(&mut cx, e).ok()?;
        Some(cx.reads.iter().map(|a| a.target).collect())
    }

    /// The summary (`summary`) of the bytes of a cell of a global variable in this state, the
    /// way a write of them is logged; `None` for any other cell. main's frame (and its
    /// initialiser's frame and thread-locals) also belongs to owner 0, but is not one: its
    /// locals start indeterminate, and a read of indeterminate bytes fills them with a
    /// nondet value without a logged write (`fill_undefined`). `start` makes the globals
    /// first, so they are the objects of owner 0 numbered below their count. `None` too for
    /// a cell whose bytes depend on a symbolic input in part or whole (`has_shadow`): its
    /// concrete bytes hold for this run's inputs only, and the rvf explorer must decide the
    /// same for every input on the path condition (see `rvf::inputs`).
    pub fn global_summary(&self, cell: &Target) -> Option<u64> {
        let Target::Mem { obj, off, len } = *cell else {
            return None;
        };
        if obj.owner != 0 || obj.index as usize >= self.globals.len() || self.has_shadow(cell) {
            return None;
        }
        let (bytes, _) = self.read_bytes(obj, off, len).ok()?;
        Some(summary(&bytes))
    }

    /// Whether some byte of the memory cell `cell` has a term over the symbolic inputs in
    /// this state (a concolic run only; false for any other target).
    pub fn has_shadow(&self, cell: &Target) -> bool {
        let Target::Mem { obj, off, len } = *cell else {
            return false;
        };
        super::memory::overlapping(&self.obj(obj).syms, off, len)
            .next()
            .is_some()
    }

    /// The thread whose progress thread `t` waits for, when its next step cannot run: the
    /// holder of the mutex it would take, or the thread it would join. None for a thread
    /// that does not exist (yet).
    pub fn waits_for(&self, t: usize) -> Option<usize> {
        if t >= self.threads.len() || self.enabled(t) {
            return None;
        }
        let (f, i) = self.next_instr(t)?;
        if let InstrKind::ThreadJoin { thread, .. } = &self.instr(f, i).kind {
            return self.join_handle(t, thread);
        }
        self.blocked_on(t)
            .and_then(|k| self.mutexes.get(&k).copied())
    }

    /// The thread number a join of thread `t` names by `thread`, when its value is known
    /// (not input-dependent, no evaluation error).
    pub(super) fn join_handle(&self, t: usize, thread: &crate::ir::Expr) -> Option<usize> {
        let memo = self.threads[t].memo.clone();
        match self.eval(&mut Cx::unlimited(t, memo), thread) {
            Ok(Value::Scalar(s)) if s.sym.is_none() => Some(s.bits as usize),
            _ => None,
        }
    }

    /// The mutex thread `t` waits for: its next step takes a mutex another thread holds.
    pub fn blocked_on(&self, t: usize) -> Option<(ObjId, u64)> {
        let (f, i) = self.next_instr(t)?;
        let m = match &self.instr(f, i).kind {
            InstrKind::MutexLock(m) => m,
            InstrKind::CondWait { mutex, .. } if self.cond_waiting(t) => mutex,
            _ => return None,
        };
        let memo = self.threads[t].memo.clone();
        match self.eval(&mut Cx::unlimited(t, memo), m) {
            Ok(Value::Scalar(Scalar {
                bits,
                prov: Some(Prov::Obj(o)),
                sym: None,
            })) if self.mutexes.get(&(o, bits)).is_some_and(|&h| h != t) => Some((o, bits)),
            _ => None,
        }
    }

    /// Whether an instruction touches only the registers of its own frame (no shared state,
    /// no thread or lock operation): a scheduler need not interleave before it.
    pub(super) fn invisible(&self, t: usize) -> bool {
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
        let check_place = |p: &crate::ir::Place, ok: &mut bool| match &p.base {
            PlaceBase::Deref(_) => *ok = false,
            PlaceBase::Var(v) => {
                if vars[*v].is_global() || self.reachable_local(*v) {
                    *ok = false
                }
            }
        };
        match &instr.kind {
            InstrKind::Assign { dst, .. } | InstrKind::Nondet { dst } => check_place(dst, &mut ok),
            _ => {}
        }
        instr.kind.walk_exprs(&mut |e| {
            if let crate::ir::ExprKind::Read(p) = &e.kind {
                check_place(p, &mut ok);
            }
        });
        ok
    }
}
