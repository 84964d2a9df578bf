//! Data and control instructions: assignments, nondet values, assumptions and assertions,
//! jumps with the loop bounds, heap and memory operations. Calls, returns, threads and
//! synchronisation are in `threads`.

use super::eval::Cx;
use super::memory::MAX_OBJECT;
use super::{
    trap, BoundHit, HeadMark, Machine, NondetRequest, ObjId, Prov, RunEnd, Scalar, Stop, Value, R,
};
use crate::ir::{FuncId, InstrId, InstrKind, LoopId, Type};

impl<'p> Machine<'p> {
    pub(super) fn exec_in(
        &mut self,
        cx: &mut Cx,
        nondet: &mut dyn FnMut(&NondetRequest) -> u64,
    ) -> R<()> {
        let t = cx.t;
        let Some((f, i)) = self.next_instr(t) else {
            return trap(format!("thread {t} cannot run"));
        };
        let body = self.prog.funcs[f].body.as_ref().expect("frames run bodies");
        let body_len = body.instrs.len();
        let instr = &body.instrs[i];
        self.enter_loops(t, f, i);
        self.steps += 1;
        match &instr.kind {
            // The interpreter is sequentially consistent: barriers order nothing more.
            InstrKind::Skip | InstrKind::Fence(_) => self.advance(t),
            // A run is concrete: an over-approximated value has no single concrete meaning.
            InstrKind::Approximate(a) => {
                return trap(format!("unsupported: {}", a.describe()));
            }
            InstrKind::Decl(v) => {
                let o = self.var_object(t, *v)?;
                self.undefine(o);
                self.advance(t);
            }
            InstrKind::Assign { dst, src } => {
                let v = self.eval(cx, src)?;
                let (o, off) = self.place(cx, dst)?;
                if self.shared(dst) {
                    cx.before_write()?;
                }
                self.store(o, off, dst.ty, &v)?;
                self.advance(t);
            }
            InstrKind::Nondet { dst } => {
                let ty = dst.ty;
                let types = &self.prog.types;
                if !types.is_integer(ty)
                    && !types.is_pointer(ty)
                    && crate::ir::float::float_bits(types, ty).is_none()
                {
                    return trap("nondet value of a non-scalar type");
                }
                let (bits, signed) = (types.bits(ty), types.is_signed(ty));
                let (o, off) = self.place(cx, dst)?;
                if self.shared(dst) {
                    cx.before_write()?;
                }
                let boolean = matches!(types.get(ty), Type::Bool);
                let req = NondetRequest {
                    thread: t,
                    loc: instr.loc,
                    bits,
                    signed,
                    boolean,
                    given: None,
                };
                let (raw, sym) = self.nondet_input(req, nondet);
                let v = if boolean {
                    (raw != 0) as u64
                } else {
                    super::eval::norm(raw, bits, signed)
                };
                let sym = sym.map(|s| self.extend(s, signed));
                let value = Scalar {
                    sym,
                    ..Scalar::int(v)
                };
                self.store(o, off, ty, &Value::Scalar(value))?;
                self.advance(t);
            }
            InstrKind::Assume(c) => {
                let c = self.eval_scalar(cx, c)?;
                if !self.decide(c)? {
                    self.note_failed_assume(c);
                    return Err(Stop::ThreadStops);
                }
                self.advance(t);
            }
            InstrKind::Assert { cond, .. } => {
                let c = self.eval_scalar(cx, cond)?;
                if !self.decide(c)? {
                    if self.asserts_stop {
                        return Err(Stop::ThreadStops);
                    }
                    return Err(Stop::End(RunEnd::Violation {
                        thread: t,
                        loc: instr.loc,
                    }));
                }
                self.advance(t);
            }
            InstrKind::Goto {
                target,
                cond,
                back_edge,
            } => {
                let jump = match cond {
                    Some(c) => {
                        let c = self.eval_scalar(cx, c)?;
                        let j = self.decide(c)?;
                        self.note_branch(t, i, j);
                        j
                    }
                    None => true,
                };
                match (jump, back_edge) {
                    (false, _) => self.advance(t),
                    (true, Some(lp)) => self.back_edge(t, f, *lp, *target)?,
                    (true, None) => self.frame_mut(t).pc = *target,
                }
            }
            InstrKind::Call { dst, callee, args } => {
                let g = self.callee(cx, callee)?;
                let vals = args
                    .iter()
                    .map(|a| self.eval(cx, a))
                    .collect::<R<Vec<_>>>()?;
                let indirect_atomic =
                    matches!(callee, crate::ir::Callee::Indirect(_)) && self.prog.funcs[g].atomic;
                self.push_call(t, g, vals, dst.clone(), indirect_atomic)?;
            }
            InstrKind::Return(e) => {
                let v = match e {
                    Some(e) => Some(self.eval(cx, e)?),
                    None => None,
                };
                if self.memsafety && t == 0 && self.threads[0].frames.len() == 1 {
                    self.memtrack_at_main_return()?;
                }
                self.do_return(cx, v)?;
            }
            InstrKind::Halt => {
                if self.memsafety {
                    self.memtrack_at_exit()?;
                }
                return Err(Stop::ThreadStops);
            }
            InstrKind::Alloc {
                dst, size, kind, ..
            } => {
                if self.memsafety && *kind != crate::ir::AllocKind::Heap {
                    return trap("unsupported: alloca, a variable-length array or an internal allocation under valid-memsafety");
                }
                self.thread_mut(t).effects += 1;
                let n = self.eval_scalar(cx, size)?;
                if let Some(s) = n.sym {
                    // Each feasible size is a branch of its own (`pin`).
                    self.pin_size(s, self.prog.types.bits(size.ty), n.bits)?;
                }
                if n.prov.is_some() || n.bits > MAX_OBJECT {
                    return trap("allocation too large");
                }
                let target = match dst {
                    Some(d) => {
                        let p = self.place(cx, d)?;
                        if self.shared(d) {
                            cx.before_write()?;
                        }
                        Some((p, d.ty))
                    }
                    None => None,
                };
                let o = self.new_object(t as u32 + 1, n.bits, false);
                self.obj_mut(o).heap = true;
                if let Some(((po, off), ty)) = target {
                    let v = Scalar::ptr(0, Some(Prov::Obj(o)));
                    self.store(po, off, ty, &Value::Scalar(v))?;
                }
                self.advance(t);
            }
            InstrKind::Free(p) => {
                let s = self.eval_scalar(cx, p)?;
                // free(NULL) does nothing; the test is a decision when the value has a term.
                if self.memsafety {
                    if self.decide(s)? {
                        self.free_checked(s, &mut || cx.before_write())?;
                    }
                } else if self.decide(s)? {
                    let (o, off) = self.deref(cx.t, s)?;
                    if off != 0 || !self.obj(o).alive {
                        return trap("free of a pointer that is not a live allocation");
                    }
                    cx.before_write()?;
                    self.free_object(o);
                }
                self.advance(t);
            }
            InstrKind::Memset { dst, byte, len } => {
                let (o, off) = self.deref(cx.t, self.eval_scalar(cx, dst)?)?;
                let b = self.eval_scalar(cx, byte)?;
                let n = self.eval_scalar(cx, len)?;
                if b.sym.is_some() {
                    return trap("unsupported: input-dependent memset");
                }
                if let Some(s) = n.sym {
                    self.pin_size(s, self.prog.types.bits(len.ty), n.bits)?;
                }
                let (b, n) = (b.bits as u8, n.bits);
                if n > MAX_OBJECT {
                    return trap("memory operation too large");
                }
                cx.before_write()?;
                let bytes = vec![b; n as usize];
                self.write_bytes(o, off, &bytes, &[])?;
                self.advance(t);
            }
            InstrKind::Memcpy { dst, src, len } => {
                let (d, doff) = self.deref(cx.t, self.eval_scalar(cx, dst)?)?;
                let (s, soff) = self.deref(cx.t, self.eval_scalar(cx, src)?)?;
                let n = self.eval_scalar(cx, len)?;
                if let Some(s) = n.sym {
                    self.pin_size(s, self.prog.types.bits(len.ty), n.bits)?;
                }
                let n = n.bits;
                if n > MAX_OBJECT {
                    return trap("memory operation too large");
                }
                cx.before_write()?;
                let (bytes, provs) = self.read_bytes(s, soff, n)?;
                if self.shadow_of(s, soff, n)?.is_some() {
                    return trap("unsupported: memcpy of an input-dependent value");
                }
                self.log(s, soff, n, false, super::memory::summary(&bytes));
                if !self.obj(s).private {
                    self.read_values
                        .push(Value::Bytes(bytes.clone(), provs.clone()));
                }
                self.write_bytes(d, doff, &bytes, &provs)?;
                self.advance(t);
            }
            _ => self.exec_thread_op(cx, &instr.kind)?,
        }
        // Falling off the end of a body is a return without value.
        if let Some(fr) = self.threads[t].frames.last() {
            if fr.func == f && fr.pc.as_u32() as usize >= body_len && !self.is_over(t) {
                self.do_return(cx, None)?;
            }
        }
        Ok(())
    }

    /// Before an instruction: a loop head reached other than by its back edge is a new entry
    /// of the loop (its count starts again), as in symbolic execution.
    fn enter_loops(&mut self, t: usize, f: FuncId, i: InstrId) {
        let Some(bounds) = &self.bounds else {
            return;
        };
        let spin = bounds.spin_reduction;
        let body = self.prog.funcs[f].body.as_ref().expect("frames run bodies");
        let heads: Vec<LoopId> = body
            .loops
            .iter()
            .filter(|(_, info)| info.head == i)
            .map(|(lp, _)| lp)
            .collect();
        if heads.is_empty() {
            return;
        }
        let marks: Vec<HeadMark> = if spin {
            heads
                .iter()
                .map(|&lp| self.head_mark(t, f, i, lp))
                .collect()
        } else {
            Vec::new()
        };
        let frame = self.frame_mut(t);
        if !std::mem::take(&mut frame.via_back) {
            for &lp in &heads {
                match frame.loops.iter_mut().find(|(l, _)| *l == lp) {
                    Some(c) => c.1 = 0,
                    None => frame.loops.push((lp, 0)),
                }
            }
        }
        for m in marks {
            frame.heads.retain(|h| h.lp != m.lp);
            frame.heads.push(m);
        }
    }

    /// The thread's effect count (the current step's writes included) and the objects of the
    /// live private variables of its top frame and of its thread-local variables.
    fn head_mark(&self, t: usize, f: FuncId, head: InstrId, lp: LoopId) -> HeadMark {
        HeadMark {
            lp,
            effects: self.effect_count(t),
            atomic: self.threads[t].atomic,
            vars: self
                .head_objects(t, f, head)
                .map(|o| (o, self.obj(o).clone()))
                .collect(),
        }
    }

    /// The thread's writes (to shared objects, and to private ones through which a pointer
    /// may write, `Object::escapes`), synchronisation writes and allocations so far.
    fn effect_count(&self, t: usize) -> u64 {
        self.threads[t].effects
            + self.accesses.iter().filter(|a| a.write).count() as u64
            + self.hidden_writes
    }

    /// The objects a head mark keeps: the top frame's variables live at `head`, then the
    /// thread-local ones.
    fn head_objects(&self, t: usize, f: FuncId, head: InstrId) -> impl Iterator<Item = ObjId> + '_ {
        let th = &self.threads[t];
        let frame = th.frames.last().expect("a running thread has a frame");
        let live_at = self.live.get(&f).and_then(|l| l.live_in(head));
        frame
            .vars
            .iter()
            .filter(move |(v, _)| live_at.is_some_and(|l| l.contains(v)))
            .map(|(_, &o)| o)
            .chain(th.tls.values().copied())
    }

    /// Whether the iteration of `lp` now ending left the thread as it was at the head
    /// (compared in place: the back edge copies nothing).
    fn effect_free_iteration(&self, t: usize, f: FuncId, lp: LoopId) -> bool {
        let frame = self.frame(t);
        let Some(before) = frame.heads.iter().find(|h| h.lp == lp) else {
            return false;
        };
        if self.effect_count(t) != before.effects || self.threads[t].atomic != before.atomic {
            return false;
        }
        let head = self.prog.funcs[f].body.as_ref().expect("a body").loops[lp].head;
        let mut kept = before.vars.iter();
        for o in self.head_objects(t, f, head) {
            let Some((ob, b)) = kept.next() else {
                return false;
            };
            let a = self.obj(o);
            if o != *ob
                || a.bytes != b.bytes
                || a.provs != b.provs
                || a.undef != b.undef
                || a.syms != b.syms
            {
                return false;
            }
        }
        kept.next().is_none()
    }

    /// A taken back edge: within the bound it jumps; past it the run ends (asserted bound) or
    /// the thread stops (executions within the bound only).
    fn back_edge(&mut self, t: usize, f: FuncId, lp: LoopId, target: InstrId) -> R<()> {
        let Some(bounds) = &self.bounds else {
            self.frame_mut(t).pc = target;
            return Ok(());
        };
        if bounds.spin_reduction && self.effect_free_iteration(t, f, lp) {
            return Err(Stop::ThreadStops);
        }
        let Some(bounds) = &self.bounds else {
            unreachable!("checked above")
        };
        let key = self.prog.loop_name(f, lp);
        let bound = bounds.unwindset.get(&key).copied().unwrap_or(bounds.unwind);
        let assertions = bounds.assertions;
        let frame = self.frame_mut(t);
        let count = match frame.loops.iter_mut().find(|(l, _)| *l == lp) {
            Some(c) => &mut c.1,
            None => {
                frame.loops.push((lp, 0));
                &mut frame.loops.last_mut().expect("pushed").1
            }
        };
        if *count + 1 < bound {
            *count += 1;
            frame.pc = target;
            frame.via_back = true;
            return Ok(());
        }
        self.bound_hit(t, BoundHit::Loop { func: f, lp }, assertions)
    }

    pub(super) fn bound_hit(&mut self, t: usize, hit: BoundHit, assertions: bool) -> R<()> {
        if !assertions {
            return Err(Stop::ThreadStops);
        }
        let loc = self.position(t).map(|(_, l)| l).unwrap_or_default();
        Err(Stop::End(RunEnd::Bound {
            hit,
            thread: t,
            loc,
        }))
    }
}
