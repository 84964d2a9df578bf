//! Assignments to *faint* locals, replaced by `Skip` for the explorers (under unreach-call
//! only). A local is faint at a point when its value there can reach nothing observable: no
//! branch, assumption, assertion, memory write, call, return, address or index, only the
//! right-hand sides of assignments to locals that are faint in turn (`v = v + a[i]` with `v`
//! never used otherwise). Plain liveness keeps such a `v` live around a loop; the strong
//! liveness below does not.
//!
//! # Why
//!
//! A read of a shared cell is an event for the explorers: every other thread's write to that
//! cell makes a new reads-from choice, so it multiplies the explored executions (and, with an
//! input-dependent index, the input classes). When the value read is faint, none of those
//! choices changes anything that is observed later. Measured with rvf on the generated
//! programs (`yogar-bench explore-gen --count 100 --limit 30 --engines rvf`): seed 43 went
//! from over 30 s CPU (UNKNOWN) to TRUE in 0.9 s, and the 100 programs from 90 answered in
//! 457 s CPU to 97 in 225 s.
//!
//! # Why it is sound (unreach-call)
//!
//! The pass rewrites `x = e` to `Skip` when `x` is a thread-private local (a temporary,
//! parameter or local of the body whose address is never taken, not thread-local), `x` is
//! not strongly live after the instruction, and `e` is *harmless*: evaluating it cannot stop
//! the thread or end the run with an error, whatever the state. Compare a run of the
//! original program with the run of the rewritten one that makes the same scheduling and
//! input choices. Memory, the other threads, the control flow and every value that is
//! strongly live are the same at each step, by induction: a dropped instruction writes only
//! `x`, which is not strongly live after it; every instruction that is kept reads only
//! strongly live locals (that is the definition: a kept instruction's uses are live before
//! it), so it computes the same values, takes the same branches and writes the same memory;
//! a dropped instruction's own uses may differ, but it is gone. The dropped instructions
//! contain reads of memory, which are events to the explorers, but a read changes no memory
//! and no other thread's state, and its value goes only into `x`. So the two programs reach
//! the same assertion failures and `reach_error` calls under the same schedules (a scheduling
//! choice that stood between a dropped read and its neighbours only becomes one fewer
//! interleaving point: the rewritten program's executions are those of the original with the
//! dropped reads removed, which remain valid executions of the original since a read never
//! blocks and, being harmless, never traps). A read of an indeterminate local in `e` would
//! have made an input choice; its value is faint too.
//!
//! *Harmless* is syntactic: constants, reads of variables and of their fields and array
//! elements at an index provably inside the array, and of `*(&var + offset)` with every
//! offset keeping the access inside `var` (the ranges come from constants, remainders and
//! masks by constants, and the bounds the function assumes on its inputs,
//! [`crate::ir::input_ranges`]), unary, binary (a division or remainder only by a positive
//! constant, a shift only by a constant below the width), conditional and cast operators of
//! harmless operands. No other dereference or pointer arithmetic, no floating point: those
//! can trap (an invalid address is a memory-safety error; under unreach-call the interpreter
//! stops on it, so it must stay). The remaining failures of evaluation are the interpreter's
//! own limitations on values it does not model (arithmetic on a pointer's bits, a truncated
//! pointer), which answer UNKNOWN rather than a verdict: dropping one lets the explorer
//! decide a program whose C meaning it no longer has to model, since the value is faint.
//!
//! Only under unreach-call: a read is also a data access (no-data-race keeps every read), an
//! arithmetic operator may overflow (no-overflow) and a read may touch freed memory
//! (valid-memsafety). The SAT engines never see the rewritten program: they remain the
//! reference the explorers are checked against.

use std::collections::HashSet;

use cranelift_entity::EntityRef;

use crate::ir::input_ranges::InputRanges;
use crate::ir::{
    BinOp, Body, Expr, ExprKind, FuncId, InstrId, InstrKind, Place, PlaceBase, Program, Proj, Type,
    TypeId, VarId, VarKind,
};

/// `prog` with every faint assignment replaced by `Skip`, and how many were; `None` when there
/// is none.
pub fn without_faint_assignments(prog: &Program) -> Option<(Program, usize)> {
    let mut out: Option<Program> = None;
    let mut dropped = 0;
    for (f, func) in prog.funcs.iter() {
        let Some(body) = &func.body else { continue };
        let faint = faint_assignments(prog, f, body);
        if faint.is_empty() {
            continue;
        }
        let p = out.get_or_insert_with(|| prog.clone());
        let Some(b) = p.funcs[f].body.as_mut() else {
            continue;
        };
        for i in faint {
            b.instrs[i].kind = InstrKind::Skip;
            dropped += 1;
        }
    }
    out.map(|p| (p, dropped))
}

/// The thread-private locals of `f`: the only variables the analysis tracks (a write to any
/// other may be observed by another thread or through a pointer).
fn private_local(prog: &Program, f: FuncId, v: VarId) -> bool {
    let d = &prog.vars[v];
    matches!(d.kind, VarKind::Local(g) | VarKind::Temp(g) | VarKind::Param(g) if g == f)
        && !d.address_taken
        && !d.thread_local
}

/// The droppable assignment at `ins`: its destination, a whole private local, when its
/// source is harmless.
fn candidate(prog: &Program, f: FuncId, r: &InputRanges, at: InstrId) -> Option<VarId> {
    let body = prog.funcs[f].body.as_ref()?;
    let kind = &body.instrs[at].kind;
    let InstrKind::Assign { dst, src } = kind else {
        return None;
    };
    let PlaceBase::Var(x) = dst.base else {
        return None;
    };
    let cx = Cx { prog, r, at };
    (dst.projs.is_empty() && private_local(prog, f, x) && cx.harmless(src)).then_some(x)
}

/// The assignments of `body` whose destination is not strongly live after them (module doc).
fn faint_assignments(prog: &Program, f: FuncId, body: &Body) -> Vec<InstrId> {
    let n = body.instrs.len();
    let ranges = InputRanges::of(body, |v| private_local(prog, f, v));
    let mut uses = Vec::with_capacity(n);
    let mut cand = Vec::with_capacity(n);
    for (at, ins) in body.instrs.iter() {
        let mut u = HashSet::new();
        ins.kind.walk_exprs(&mut |e| {
            if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &e.kind {
                if let PlaceBase::Var(v) = p.base {
                    if private_local(prog, f, v) {
                        u.insert(v);
                    }
                }
            }
        });
        // A write to part of a local keeps the rest: a use of the whole.
        let partial = |p: &Place, u: &mut HashSet<VarId>| {
            if let PlaceBase::Var(v) = p.base {
                if !p.projs.is_empty() && private_local(prog, f, v) {
                    u.insert(v);
                }
            }
        };
        if let Some(d) = ins.kind.dst() {
            partial(d, &mut u);
        }
        uses.push(u);
        cand.push(candidate(prog, f, &ranges, at));
    }
    let kill = |i: usize| -> Option<VarId> {
        let kind = &body.instrs[InstrId::new(i)].kind;
        if let InstrKind::Decl(v) = kind {
            return Some(*v);
        }
        match kind.dst()? {
            Place {
                base: PlaceBase::Var(v),
                projs,
                ..
            } if projs.is_empty() => Some(*v),
            _ => None,
        }
    };
    // Least fixed point of the strong-liveness equations: the sets only grow from empty, so a
    // pass with no size change is the fixed point.
    let mut live_in: Vec<HashSet<VarId>> = vec![HashSet::new(); n];
    let live_out = |live_in: &[HashSet<VarId>], i: usize| -> HashSet<VarId> {
        let mut out = HashSet::new();
        for s in body.successors(InstrId::new(i)) {
            out.extend(live_in[s.index()].iter().copied());
        }
        out
    };
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let mut set = live_out(&live_in, i);
            let dropped = cand[i].is_some_and(|x| !set.contains(&x));
            if let Some(k) = kill(i) {
                set.remove(&k);
            }
            if !dropped {
                set.extend(uses[i].iter().copied());
            }
            if set.len() != live_in[i].len() {
                live_in[i] = set;
                changed = true;
            }
        }
    }
    (0..n)
        .filter(|&i| cand[i].is_some_and(|x| !live_out(&live_in, i).contains(&x)))
        .map(InstrId::new)
        .collect()
}

/// What harmlessness is judged with: the program and the input ranges at one instruction.
struct Cx<'a> {
    prog: &'a Program,
    r: &'a InputRanges,
    at: InstrId,
}

impl Cx<'_> {
    /// Evaluating `e` cannot stop the thread or end the run with an error (module doc).
    fn harmless(&self, e: &Expr) -> bool {
        let types = &self.prog.types;
        if types.is_float(e.ty) {
            return false;
        }
        match &e.kind {
            ExprKind::Const(_) | ExprKind::FuncAddr(_) => true,
            ExprKind::Read(p) => self.harmless_place(p),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.harmless(a),
            ExprKind::Ite(c, a, b) => self.harmless(c) && self.harmless(a) && self.harmless(b),
            ExprKind::Binary(op, a, b) => {
                let safe_op = match op {
                    BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem => {
                        b.as_const().is_some_and(|c| (c as i64) > 0)
                    }
                    BinOp::Shl | BinOp::AShr | BinOp::LShr => b
                        .as_const()
                        .is_some_and(|c| c < u64::from(types.bits(a.ty))),
                    _ => true,
                };
                safe_op && self.harmless(a) && self.harmless(b)
            }
            ExprKind::AddrOf(_) | ExprKind::PtrAdd(..) | ExprKind::PtrDiff(..) => false,
            ExprKind::Float(..) => false,
        }
    }

    /// A variable, a field or element of one at an index inside its array, or the
    /// dereference of a variable's address plus an offset that keeps the access inside the
    /// variable: always a valid address, since variables are in scope wherever the body
    /// names them (and globals always are).
    fn harmless_place(&self, p: &Place) -> bool {
        let types = &self.prog.types;
        let mut ty = match &p.base {
            PlaceBase::Var(v) => self.prog.vars[*v].ty,
            PlaceBase::Deref(e) => return p.projs.is_empty() && self.inside(e, p.ty),
        };
        for pr in &p.projs {
            match (pr, types.get(ty)) {
                (Proj::Field { index, .. }, Type::Struct(s)) => {
                    match types.structs[*s].fields.get(*index as usize) {
                        Some(fd) => ty = fd.ty,
                        None => return false,
                    }
                }
                (
                    Proj::Index { index, .. },
                    Type::Array {
                        elem,
                        len: Some(len),
                    },
                ) => {
                    let inside = self
                        .r
                        .expr_at(self.prog, index, self.at)
                        .is_some_and(|(lo, hi)| lo >= 0 && hi < *len as i128);
                    if !inside || !self.harmless(index) {
                        return false;
                    }
                    ty = *elem;
                }
                _ => return false,
            }
        }
        true
    }

    /// `ptr` is `&place + offset` (or `&place`) for a harmless place of a variable with no
    /// dereference, and every object of type `ty` at the offsets it may take lies inside that
    /// variable.
    fn inside(&self, ptr: &Expr, ty: TypeId) -> bool {
        let types = &self.prog.types;
        let (base, off) = match &ptr.kind {
            ExprKind::PtrAdd(b, o) => (&**b, Some(&**o)),
            _ => (ptr, None),
        };
        let ExprKind::AddrOf(place) = &base.kind else {
            return false;
        };
        let PlaceBase::Var(v) = place.base else {
            return false;
        };
        // The byte offset of the place inside the variable: fields and constant indices.
        let mut start: i128 = 0;
        for pr in &place.projs {
            match pr {
                Proj::Field { offset, .. } => start += *offset as i128,
                Proj::Index { index, elem_size } => match index.as_const() {
                    Some(i) if (i as i64) >= 0 => start += i as i128 * *elem_size as i128,
                    _ => return false,
                },
            }
        }
        let (lo, hi) = match off {
            None => (0, 0),
            Some(o) => match self.r.expr_at(self.prog, o, self.at) {
                Some(r) if self.harmless(o) => r,
                _ => return false,
            },
        };
        let (Some(size), Some(whole)) = (types.size_of(ty), types.size_of(self.prog.vars[v].ty))
        else {
            return false;
        };
        !types.is_float(ty) && start + lo >= 0 && start + hi + size as i128 <= whole as i128
    }
}
