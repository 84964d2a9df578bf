//! Calls, inlined: a function body instruction by instruction with paths merged where jumps
//! meet, loops unwound to their bound (an unwinding assertion past it), recursion bounded by
//! the same bound, and calls through function pointers split over the functions they may name.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use encoder::Encoder;
use solver_glue::Lit;

use super::exec::Symex;
use super::state::{State, Val};
use super::{unsupported, CheckKind, SymexError};
use crate::ir::{Callee, Expr, FuncId, InstrId, InstrKind, LoopId, Place};
use crate::sharing::AbsObj;

impl Symex<'_, '_, '_> {
    pub(super) fn loop_bound(&self, func: FuncId, lp: LoopId) -> u32 {
        let key = format!("{}.{}", self.prog.funcs[func].name, lp.as_u32());
        self.opts
            .unwindset
            .get(&key)
            .copied()
            .unwrap_or(self.opts.unwind)
    }

    /// Inlines a call of `func`: returns the state after it returns and the returned value.
    pub fn call(
        &mut self,
        func: FuncId,
        args: Vec<Val>,
        mut st: State,
    ) -> Result<(State, Option<Val>), SymexError> {
        let f = &self.prog.funcs[func];
        let body = match &f.body {
            Some(b) => b,
            None => return unsupported(format!("call of {} without a body", f.name)),
        };
        let depth = self.call_stack.iter().filter(|&&g| g == func).count() as u32;
        if depth >= self.opts.unwind.max(1) {
            if self.opts.unwinding_assertions {
                self.check(CheckKind::Recursion(func), st.guard);
            }
            st.guard = self.enc.fls();
            return Ok((st, None));
        }
        let saved_frame = self.frame;
        self.frame = self.next_frame;
        self.next_frame += 1;
        self.call_stack.push(func);
        for (&p, a) in f.params.iter().zip(args) {
            let place = Place::var(p, self.prog.vars[p].ty);
            let g = st.guard;
            self.write_place(&place, a, g, &mut st)?;
        }

        let n = body.instrs.len();
        let mut pending: BTreeMap<usize, State> = BTreeMap::new();
        let mut cur: Option<State> = Some(st);
        let mut returned: Option<State> = None;
        let mut ret_vals: Vec<(Lit, Val)> = Vec::new();
        let mut counts: HashMap<LoopId, u32> = HashMap::new();
        let mut heads: HashMap<LoopId, super::spin::Snapshot> = HashMap::new();
        // The snapshot the last back edge took, for the head it jumps to.
        let mut carried: Option<(LoopId, super::spin::Snapshot)> = None;
        let mut via_back = false;
        let mut pc = 0usize;
        loop {
            if let Some(p) = pending.remove(&pc) {
                match &mut cur {
                    Some(c) => c.merge(p, self.enc).or_else(unsupported)?,
                    None => cur = Some(p),
                }
            }
            let live = cur.as_ref().is_some_and(|c| !c.is_dead(self.enc));
            if !live || pc >= n {
                if pc >= n {
                    // Falling off the end of the body returns.
                    if let Some(c) = cur.take() {
                        merge_into(&mut returned, c, self.enc)?;
                    }
                }
                cur = None;
                match pending.keys().next() {
                    Some(&next) => {
                        pc = next;
                        via_back = false;
                        continue;
                    }
                    None => break,
                }
            }
            if self.opts.deadline.is_some_and(|d| Instant::now() > d) {
                return Err(SymexError::Timeout);
            }
            let mut s = cur.take().expect("live state");
            let id = InstrId::from_u32(pc as u32);
            let instr = &body.instrs[id];
            self.loc = instr.loc;
            for (lp, info) in body.loops.iter() {
                if info.head == id {
                    if !via_back {
                        counts.insert(lp, 0);
                    }
                    // The initialisers write memory as a map, not as events: not reduced.
                    if self.opts.spin_reduction && !self.init_mode {
                        let snap = match carried.take() {
                            Some((from, snap)) if via_back && from == lp => snap,
                            _ => self.snapshot(func, id, &s),
                        };
                        heads.insert(lp, snap);
                    }
                }
            }
            via_back = false;
            match &instr.kind {
                InstrKind::Goto {
                    target,
                    cond,
                    back_edge,
                } => {
                    let c = match cond {
                        Some(e) => self.eval_cond(e, &mut s)?,
                        None => self.enc.tru(),
                    };
                    let g = s.guard;
                    let mut taken = self.enc.and(g, c);
                    let stay = self.enc.and(g, !c);
                    let target = target.as_u32() as usize;
                    if let Some(lp) = back_edge {
                        carried = None;
                        if let Some(head) = heads.get(lp) {
                            let (narrowed, next) = self.spin_back_edge(func, *lp, head, &s, taken);
                            taken = narrowed;
                            carried = Some((*lp, next));
                        }
                        let count = counts.entry(*lp).or_insert(0);
                        if *count + 1 < self.loop_bound(func, *lp) {
                            *count += 1;
                            let mut fall = s.clone();
                            fall.guard = stay;
                            merge_pending(&mut pending, pc + 1, fall, self.enc)?;
                            s.guard = taken;
                            cur = Some(s);
                            pc = target;
                            via_back = true;
                            continue;
                        }
                        if self.opts.unwinding_assertions {
                            self.check(CheckKind::Unwind { func, lp: *lp }, taken);
                        }
                        s.guard = stay;
                    } else {
                        if target <= pc {
                            return unsupported("backward jump that is not a loop");
                        }
                        let mut jump = s.clone();
                        jump.guard = taken;
                        merge_pending(&mut pending, target, jump, self.enc)?;
                        s.guard = stay;
                    }
                    cur = Some(s);
                }
                InstrKind::Return(e) => {
                    if let Some(e) = e {
                        let v = self.eval(e, &mut s, None)?;
                        ret_vals.push((s.guard, v));
                    }
                    merge_into(&mut returned, s, self.enc)?;
                }
                InstrKind::Halt => self.program_end(s.guard, false),
                InstrKind::ThreadExit(e) => {
                    let v = self.eval(e, &mut s, None)?;
                    let v = match v {
                        Val::Scalar(b) => self.resize(&b, self.mem.ptr_bits, false),
                        Val::Agg(_) => return unsupported("pthread_exit of an aggregate"),
                    };
                    self.exits.push((s.guard, v));
                }
                InstrKind::CondWait { cond: _, mutex }
                    if self.opts.spin_reduction && !self.has_trylock && !self.init_mode =>
                {
                    self.cond_wait_spin(func, id, mutex, &mut s)?;
                    cur = Some(s);
                }
                InstrKind::Call { dst, callee, args } => {
                    let s2 = self.exec_call(dst.as_ref(), callee, args, s)?;
                    cur = Some(s2);
                }
                kind => {
                    self.exec_simple(kind, &mut s)?;
                    cur = Some(s);
                }
            }
            pc += 1;
        }
        self.call_stack.pop();
        let frame = self.frame;
        self.frame = saved_frame;
        let mut out = match returned {
            Some(r) => r,
            None => State::new(self.enc.fls()),
        };
        let top_of_main =
            self.cur_number == 0 && self.call_stack.is_empty() && Some(func) == self.prog.main;
        self.frame_ends(frame, top_of_main, &out);
        out.vars.retain(|k, _| k.0 != frame);
        let ret = ret_vals.into_iter().reduce(|(ga, va), (gb, vb)| {
            let v = Val::ite(self.enc, gb, &vb, &va);
            (self.enc.or(ga, gb), v)
        });
        Ok((out, ret.map(|(_, v)| v)))
    }

    pub(super) fn exec_call(
        &mut self,
        dst: Option<&Place>,
        callee: &Callee,
        args: &[Expr],
        mut s: State,
    ) -> Result<State, SymexError> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a, &mut s, None)?);
        }
        let targets: Vec<(FuncId, Lit)> = match callee {
            Callee::Direct(f) => vec![(*f, s.guard)],
            Callee::Indirect(e) => {
                let bits: Vec<Option<u32>> =
                    vals.iter().map(|v| v.scalar().map(|b| b.width())).collect();
                self.resolve_function_pointer(e, &bits, &mut s)?
            }
        };
        let mut result: Option<State> = None;
        for (f, g) in targets {
            let mut branch = s.clone();
            branch.guard = g;
            if self.prog.funcs[f].body.is_none() {
                // Policy for external functions, as for direct calls in the frontend.
                if let Some(d) = dst {
                    self.nondet_into(d, &mut branch)?;
                }
            } else {
                // Direct calls of atomic functions are wrapped by the frontend already.
                let indirect_atomic =
                    matches!(callee, Callee::Indirect(_)) && self.prog.funcs[f].atomic;
                let opened = indirect_atomic && self.open_atomic(&mut branch);
                let (mut after, ret) = self.call(f, vals.clone(), branch)?;
                self.close_atomic(&mut after, opened);
                if let (Some(d), Some(v)) = (dst, ret) {
                    let g = after.guard;
                    self.write_place(d, v, g, &mut after)?;
                }
                branch = after;
            }
            merge_into(&mut result, branch, self.enc)?;
        }
        Ok(result.unwrap_or_else(|| State::new(self.enc.fls())))
    }

    /// The functions a function pointer may name, each with the guard under which it does.
    /// Only functions of the pointer's points-to set whose parameters fit `arg_bits` are
    /// candidates; a call of anything else through the pointer is undefined and reported as
    /// unsupported.
    pub(super) fn resolve_function_pointer(
        &mut self,
        e: &Expr,
        arg_bits: &[Option<u32>],
        s: &mut State,
    ) -> Result<Vec<(FuncId, Lit)>, SymexError> {
        let v = self.eval_scalar(e, s, None)?;
        let may = self.sharing.pointees(self.prog, e);
        self.make_singles(&may)?;
        let funcs = self.func_objects();
        let mut out = Vec::new();
        let mut hits = Vec::new();
        for (f, o) in funcs {
            if !self.fits(f, arg_bits) || !may.contains(&AbsObj::Func(f)) {
                continue;
            }
            let k = self.enc.bv_const(v.width(), self.mem.pointer(o, 0));
            let hit = self.enc.bv_eq(&v, &k);
            let g = self.enc.and(s.guard, hit);
            if self.enc.const_value(g) != Some(false) {
                out.push((f, g));
                hits.push(hit);
            }
        }
        let any = self.enc.or_all(&hits);
        let miss = self.enc.and(s.guard, !any);
        self.unsupported_check(
            "call through a pointer to no function of a fitting type",
            miss,
        );
        Ok(out)
    }

    /// Whether `f` has a body and parameters of the given widths (None: an aggregate).
    pub(super) fn fits(&self, f: FuncId, arg_bits: &[Option<u32>]) -> bool {
        let func = &self.prog.funcs[f];
        func.body.is_some()
            && func.params.len() == arg_bits.len()
            && func.params.iter().zip(arg_bits).all(|(&p, b)| {
                let ty = self.prog.vars[p].ty;
                let pb = self
                    .prog
                    .types
                    .is_scalar(ty)
                    .then(|| self.prog.types.bits(ty));
                pb == *b
            })
    }
}

fn merge_pending(
    pending: &mut BTreeMap<usize, State>,
    at: usize,
    st: State,
    enc: &mut Encoder,
) -> Result<(), SymexError> {
    if st.is_dead(enc) {
        return Ok(());
    }
    match pending.get_mut(&at) {
        Some(p) => p.merge(st, enc).or_else(unsupported),
        None => {
            pending.insert(at, st);
            Ok(())
        }
    }
}

fn merge_into(slot: &mut Option<State>, st: State, enc: &mut Encoder) -> Result<(), SymexError> {
    match slot {
        Some(p) => p.merge(st, enc).or_else(unsupported),
        None => {
            *slot = Some(st);
            Ok(())
        }
    }
}
