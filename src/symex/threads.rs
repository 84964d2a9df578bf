//! Threads: every `pthread_create` executed is a thread instance, run later on its own with its
//! own locals; `pthread_join` waits for the end of the thread its handle names.

use cranelift_entity::EntityRef;
use encoder::{BitVec, Thread};
use solver_glue::Lit;

use super::access::Via;
use super::exec::{JoinCall, Symex, ThreadInst};
use super::memory::ObjKind;
use super::state::{State, Val, THREAD_FRAME};
use super::{unsupported, SymexError, ThreadInfo};
use crate::ir::{Callee, Expr, FuncId, Loc, Place, VarId};

impl Symex<'_, '_, '_> {
    /// Registers a new thread instance to run later.
    pub(super) fn spawn(
        &mut self,
        thread: Thread,
        entry: FuncId,
        arg: Option<Val>,
        guard: Lit,
        loc: Loc,
    ) -> Result<u32, SymexError> {
        if self.threads.len() >= self.opts.max_threads {
            // A `pthread_create` in a loop runs up to `unwind` times, so the limit grows with
            // the bound: a program that creates a thread per iteration meets the unwinding
            // bound, not the thread limit, as the bound deepens.
            let bound = self
                .opts
                .unwindset
                .values()
                .fold(self.opts.unwind, |a, &b| a.max(b));
            let per_bound = self
                .prog
                .thread_create_sites()
                .saturating_mul(bound as usize)
                .saturating_add(1);
            if self.threads.len() >= per_bound {
                let limit = self.opts.max_threads.max(per_bound);
                return unsupported(format!("more than {limit} threads"));
            }
        }
        let number = self.threads.len() as u32;
        let main_mark = match self.threads.get(self.cur_number as usize) {
            None => None,
            Some(_) if self.cur_number == 0 => Some(self.eq.events.len()),
            Some(parent) => parent.main_mark,
        };
        let done = self.enc.new_lit();
        let ret = self.enc.bv_fresh(self.mem.ptr_bits);
        self.threads.push(ThreadInst {
            info: ThreadInfo {
                thread,
                number,
                entry,
                loc,
                guard,
            },
            arg,
            done,
            finished: !self.enc.tru(),
            ret,
            parent: (!self.threads.is_empty()).then_some(self.cur_number as usize),
            main_mark,
            distinct: Default::default(),
        });
        self.todo.push_back(number as usize);
        Ok(number)
    }

    pub(super) fn run_thread(&mut self, i: usize) -> Result<(), SymexError> {
        let (thread, entry, guard, arg) = {
            let t = &self.threads[i];
            (t.info.thread, t.info.entry, t.info.guard, t.arg.clone())
        };
        self.cur = thread;
        self.cur_number = i as u32;
        self.exits.clear();
        let objects_before = self.mem.objects.len();
        let mut st = State::new(guard);
        // Thread-local variables start zeroed, then their initialisers run in this thread.
        let tls: Vec<(VarId, crate::ir::TypeId)> = self
            .prog
            .globals()
            .filter(|(_, v)| v.thread_local)
            .map(|(id, v)| (id, v.ty))
            .collect();
        for (v, ty) in tls {
            let zero = self.zero_value(ty)?;
            st.vars.insert((THREAD_FRAME, v), zero);
        }
        let mut st = self.call(self.prog.tls_init, Vec::new(), st)?.0;
        let func = &self.prog.funcs[entry];
        let args = match (arg, func.params.len()) {
            (Some(a), 1) => vec![a],
            (_, 0) => Vec::new(),
            (None, _) => Vec::new(),
            (Some(_), n) => {
                return unsupported(format!("thread entry {} with {n} parameters", func.name))
            }
        };
        // An atomic function as a thread's entry: the whole thread is one atomic section.
        let opened = func.atomic && self.open_atomic(&mut st);
        let (mut end, ret) = self.call(entry, args, st)?;
        self.close_atomic(&mut end, opened);
        // An object the thread makes tells it from its twins only through its number: not
        // when the object is private and nothing observes its address (`symmetry`).
        self.threads[i].distinct.objects =
            self.mem
                .objects
                .iter()
                .skip(objects_before)
                .filter(|(_, o)| matches!(o.kind, ObjKind::Local | ObjKind::Heap))
                .any(|(o, _)| {
                    self.abs.get(o.index()).copied().flatten().is_none_or(|a| {
                        self.sharing.is_shared(a) || self.sharing.address_observed(a)
                    })
                });
        let ptr_bits = self.mem.ptr_bits;
        let mut ends: Vec<(Lit, BitVec)> = std::mem::take(&mut self.exits);
        if i == 0 {
            // The end of the program for valid-memsafety's memtrack (a pthread_exit of main
            // is not: the program goes on with the other threads).
            self.program_end(end.guard, true);
            for (g, _) in &ends {
                self.program_end(*g, false);
            }
        }
        if !end.is_dead(self.enc) {
            let v = match ret {
                Some(Val::Scalar(b)) => self.resize(&b, ptr_bits, false),
                _ => self.enc.bv_const(ptr_bits, 0),
            };
            ends.push((end.guard, v));
        }
        let (done, ret_bv) = (self.threads[i].done, self.threads[i].ret.clone());
        let guards: Vec<Lit> = ends.iter().map(|e| e.0).collect();
        let finished = self.enc.or_all(&guards);
        self.threads[i].finished = finished;
        let eqv = self.enc.iff(done, finished);
        self.enc.assert_lit(eqv);
        for (g, v) in ends {
            let same = self.enc.bv_eq(&ret_bv, &v);
            self.enc.assert_implies(g, same);
        }
        Ok(())
    }

    /// `pthread_create`: a new thread instance per function the entry may name.
    pub(super) fn create_thread(
        &mut self,
        handle: &Place,
        entry: &Callee,
        arg: &Expr,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let a = self.eval(arg, s, None)?;
        let entries = match entry {
            Callee::Direct(f) => vec![(*f, s.guard)],
            Callee::Indirect(e) => {
                let bits = [a.scalar().map(|b| b.width())];
                self.resolve_function_pointer(e, &bits, s)?
            }
        };
        let bits = self.prog.types.bits(handle.ty);
        // The handle only matters where the path's guard holds: the last candidate is
        // the default, so a direct create stores a constant.
        let mut hv: Option<BitVec> = None;
        let atomic = s.block();
        for (f, g) in entries.into_iter().rev() {
            self.effects.push(g);
            let child = self.eq.add_thread();
            self.eq.add_create(self.cur, child, g, atomic);
            let number = self.spawn(child, f, Some(a.clone()), g, self.loc)?;
            let k = self.enc.bv_const(bits, number as u64);
            hv = Some(match hv {
                None => k,
                Some(other) => self.enc.bv_ite(g, &k, &other),
            });
        }
        let hv = hv.unwrap_or_else(|| self.enc.bv_fresh(bits));
        let g = s.guard;
        self.write_place(handle, Val::Scalar(hv), g, s)?;
        Ok(())
    }

    /// `pthread_self`: the current thread's number.
    pub(super) fn thread_self(&mut self, dst: &Place, s: &mut State) -> Result<(), SymexError> {
        self.threads[self.cur_number as usize].distinct.identity = true;
        let bits = self.prog.types.bits(dst.ty);
        let v = self.enc.bv_const(bits, self.cur_number as u64);
        let g = s.guard;
        self.write_place(dst, Val::Scalar(v), g, s)
    }

    pub(super) fn ancestors(&self, mut t: usize) -> Vec<usize> {
        let mut out = Vec::new();
        while let Some(p) = self.threads[t].parent {
            out.push(p);
            t = p;
        }
        out
    }

    pub(super) fn join(
        &mut self,
        thread: &Expr,
        retval: Option<&Expr>,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let v = self.eval_scalar(thread, s, None)?;
        let g = s.guard;
        let atomic = s.block();
        let (first_join, checks_before) = (self.eq.joins.len(), self.checks.len());
        let mut oks = Vec::new();
        let mut hits = Vec::new();
        let mut rets: Vec<(Lit, BitVec)> = Vec::new();
        let ancestors = self.ancestors(self.cur_number as usize);
        for k in 0..self.threads.len() {
            // A thread never joins itself or a thread that created it: such a join would wait
            // for its own end. Those values are reported below as unresolved.
            if k as u32 == self.cur_number || ancestors.contains(&k) {
                continue;
            }
            let kc = self.enc.bv_const(v.width(), k as u64);
            let hit = self.enc.bv_eq(&v, &kc);
            let jg = self.enc.and(g, hit);
            if self.enc.const_value(jg) == Some(false) {
                continue;
            }
            let t = &self.threads[k];
            let (child, done, ret) = (t.info.thread, t.done, t.ret.clone());
            self.eq.add_join(self.cur, child, jg, atomic);
            let ok = self.enc.and(jg, done);
            oks.push(ok);
            hits.push(hit);
            rets.push((hit, ret));
        }
        let any = self.enc.or_all(&hits);
        let miss = self.enc.and(g, !any);
        self.unsupported_check("pthread_join of a thread that is not known here", miss);
        s.guard = self.enc.or_all(&oks);
        let single = hits.len() == 1 && self.enc.const_value(hits[0]) == Some(true);
        let mut reads_ret = false;
        if let Some(rp) = retval {
            let p = self.eval_scalar(rp, s, None)?;
            let is_null = {
                let z = self.enc.bv_const(p.width(), 0);
                self.enc.bv_eq(&p, &z)
            };
            if self.enc.const_value(is_null) != Some(true) {
                reads_ret = true;
                let mut val = self.enc.bv_fresh(self.mem.ptr_bits);
                for (hit, r) in rets {
                    val = self.enc.bv_ite(hit, &r, &val);
                }
                let g = self.enc.and(s.guard, !is_null);
                self.store_through(
                    &p,
                    0,
                    Val::Scalar(val),
                    self.mem.ptr_bits,
                    Some(super::access::POINTER_BYTES),
                    g,
                    s,
                    Via::Pointer(rp),
                )?;
            }
        }
        self.join_calls.push(JoinCall {
            thread: self.cur_number as usize,
            joins: first_join..self.eq.joins.len(),
            guard_in: g,
            guard_out: s.guard,
            checks: checks_before..self.checks.len(),
            single,
            reads_ret,
        });
        Ok(())
    }
}
