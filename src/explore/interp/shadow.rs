//! The symbolic shadow of a concolic run: the terms over the nondet inputs that the values of
//! the machine are computed from, beside their concrete bits.
//!
//! The invariant: a scalar (in a register, a memo or memory) whose bits depend on an input
//! has a term that gives exactly those bits for every input that drives the run along the same
//! decisions; a scalar without a term has the same bits for all of them. Each operation here
//! builds the term of the interpreter's concrete operation on 64-bit patterns (`eval`), and
//! every choice the run makes on a value with a term is recorded as a decision (checked
//! against the concrete outcome, so a shadow that went wrong ends the run instead of steering
//! the search). An input-dependent array index splits the run on the cell it selects
//! ([`Machine::split_index`]); an input-dependent pointer offset or size is pinned to its value
//! the same way (`pin`). What the terms do not follow — integers cast to pointers, thread
//! handles computed from inputs, symbolic bytes read in parts or in aggregates — ends the run
//! with an `unsupported` trap (see `memory`, `exec`, `eval`, `threads`). Pointers never carry
//! a term.

use super::eval::{division_traps, shift_traps};
use super::memory::overlapping;
use super::{trap, Machine, NondetRequest, ObjId, Scalar, Value, R};
use std::cell::RefMut;

use crate::explore::concolic::term::{BvOp, CmpOp, InputKey, SymId, Terms};
use crate::explore::concolic::Handle;
use crate::ir::{BinOp, TypeId, UnOp};

impl<'p> Machine<'p> {
    /// Makes this a concolic machine: nondet inputs of more than two values become symbolic.
    pub fn attach_concolic(&mut self, h: Handle) {
        self.conc = Some(h);
    }

    /// The symbolic state of a concolic machine.
    pub fn concolic(&self) -> Option<&Handle> {
        self.conc.as_ref()
    }

    /// The path of the run so far: the branch decisions of every thread.
    pub fn path_id(&self) -> u64 {
        self.paths
            .iter()
            .fold(0xcbf2_9ce4_8422_2325, |h, p| mix(h, *p))
    }

    pub(super) fn note_branch(&mut self, t: usize, at: crate::ir::InstrId, taken: bool) {
        let f = self.frame(t).func;
        if let Some(p) = self.paths.get_mut(t) {
            let code = ((f.as_u32() as u64) << 33) | ((at.as_u32() as u64) << 1) | taken as u64;
            *p = mix(*p, code);
        }
    }

    /// A nondet value: a symbolic input (its value this run and its term of `bits` bits) in a
    /// concolic run, when it has more than two values; else whatever `nondet` gives.
    pub(super) fn nondet_input(
        &mut self,
        mut req: NondetRequest,
        nondet: &mut dyn FnMut(&NondetRequest) -> u64,
    ) -> (u64, Option<SymId>) {
        self.inputs_taken += 1;
        let symbolic = !req.boolean && req.bits > 1;
        let Some(h) = self.conc.clone() else {
            return (nondet(&req), None);
        };
        if !symbolic {
            // An enumerated choice: counted, to order the decisions of a step among them.
            h.borrow_mut().choices += 1;
            return (nondet(&req), None);
        }
        let th = self.thread_mut(req.thread);
        let key = InputKey {
            thread: req.thread as u32,
            index: th.inputs,
        };
        th.inputs += 1;
        let (v, s) = h.borrow_mut().input(key, req.bits.min(64));
        req.given = Some(v);
        nondet(&req);
        (v, Some(s))
    }

    /// The 64-bit term of an input term of the value's width, extended as the value is.
    pub(super) fn extend(&self, s: SymId, signed: bool) -> SymId {
        self.terms().ext(signed, 64, s)
    }

    /// The term arena of the run (a value has a term in a concolic run only).
    pub(super) fn terms(&self) -> RefMut<'_, Terms> {
        let h = self
            .conc
            .as_ref()
            .expect("terms exist in concolic runs only");
        RefMut::map(h.borrow_mut(), |k| &mut k.terms)
    }

    /// Records the shadow of the `size` bytes at (o, off): the low bytes of `s` (zero-extended
    /// when `s` is narrower).
    pub(super) fn set_shadow(&mut self, o: ObjId, off: u64, size: u64, s: SymId) {
        let Some(h) = self.conc.clone() else {
            return;
        };
        let t = h.borrow_mut().terms.ext(false, (size * 8) as u32, s);
        self.obj_mut(o).syms.insert(off, (t, size as u8));
    }

    /// The term of the `n` bytes at (o, off), if they have one; a range that covers a shadow
    /// only in part, or several, cannot be followed.
    pub(super) fn shadow_of(&self, o: ObjId, off: u64, n: u64) -> R<Option<SymId>> {
        let obj = self.obj(o);
        if obj.syms.is_empty() {
            return Ok(None);
        }
        let mut found = overlapping(&obj.syms, off, n);
        match (found.next(), found.next()) {
            (None, _) => Ok(None),
            (Some((k, (s, sz))), None) if k == off && sz as u64 == n => Ok(Some(s)),
            _ => trap("unsupported: input-dependent value read in parts"),
        }
    }

    /// Drops the shadows under a write of the `n` bytes at (o, off). The bytes of a shadow
    /// that the write leaves still depend on the inputs: the part below the write and the
    /// part above it each keep the shadow of their own bytes (else a later read of the whole
    /// would see constant bytes and the search would miss the inputs they come from).
    pub(super) fn clear_shadow(&mut self, o: ObjId, off: u64, n: u64) {
        let hit: Vec<_> = overlapping(&self.obj(o).syms, off, n).collect();
        let Some(h) = self.conc.clone().filter(|_| !hit.is_empty()) else {
            return;
        };
        let mut k = h.borrow_mut();
        let end = off + n;
        let syms = &mut self.obj_mut(o).syms;
        for (at, (s, sz)) in hit {
            syms.remove(&at);
            if at < off {
                let low = k.terms.trunc(((off - at) * 8) as u32, s);
                syms.insert(at, (low, (off - at) as u8));
            }
            let top = at + sz as u64;
            if top > end {
                let by = k.terms.constant(sz as u32 * 8, (end - at) * 8);
                let high = k.terms.bin(BvOp::LShr, s, by);
                let high = k.terms.trunc(((top - end) * 8) as u32, high);
                syms.insert(end, (high, (top - end) as u8));
            }
        }
    }

    /// The 64-bit term of a scalar of `bits` bits loaded from bytes with term `s`.
    pub(super) fn loaded(&self, s: SymId, bits: u32, signed: bool) -> SymId {
        let x = self.terms().ext(false, 64, s);
        self.sym_norm(x, bits, signed)
    }

    /// `norm` on terms: truncate to `bits`, extend by `signed`.
    pub(super) fn sym_norm(&self, s: SymId, bits: u32, signed: bool) -> SymId {
        if bits >= 64 || bits == 0 {
            return s;
        }
        let mut k = self.terms();
        let t = k.trunc(bits, s);
        k.ext(signed, 64, t)
    }

    pub(super) fn with_sym(&self, v: Value, sym: Option<SymId>) -> Value {
        match v {
            Value::Scalar(s) if sym.is_some() => Value::Scalar(Scalar { sym, ..s }),
            v => v,
        }
    }

    /// The 64-bit term of a scalar without a pointer: its term, or its constant bits.
    fn term(&self, s: Scalar) -> SymId {
        match s.sym {
            Some(t) => t,
            None => self.terms().constant(64, s.bits),
        }
    }

    /// The one-bit term of C's truth of `s` (a pointer is true).
    fn truth(&self, s: Scalar) -> SymId {
        if s.prov.is_some() {
            return self.terms().constant(1, 1);
        }
        let x = self.term(s);
        self.terms().nonzero(x)
    }

    /// The 0/1 64-bit term of a truth.
    fn bool64(&self, b: SymId) -> SymId {
        self.terms().ext(false, 64, b)
    }

    /// The term of `(_Bool) s`.
    pub(super) fn sym_truth(&self, s: Scalar) -> Option<SymId> {
        s.sym?;
        let b = self.truth(s);
        Some(self.bool64(b))
    }

    /// C's truth of `s`, recorded as a decision when it depends on an input.
    pub(super) fn decide(&self, s: Scalar) -> R<bool> {
        let c = s.truthy();
        if s.sym.is_none() || self.conc.is_none() {
            return Ok(c);
        }
        let b = self.truth(s);
        self.record(b, c)?;
        Ok(c)
    }

    /// Notes, for the explorer, the condition of an assumption that failed on an input
    /// (`Concolic::failed_assume`, see `concolic::stops`).
    pub(super) fn note_failed_assume(&self, s: Scalar) {
        if s.sym.is_none() {
            return;
        }
        if let Some(h) = &self.conc {
            let b = self.truth(s);
            h.borrow_mut().failed_assume = Some(b);
        }
    }

    /// Splits the run on the cell an input-dependent array index selects: `idx` (the 64-bit
    /// term of an index whose value this run is `bits`) scaled by `elem` and added to the
    /// place's offset `base` so far gives the offset `t` (modulo the pointer width) in an
    /// object of `len` bytes. The decisions recorded locate `t` by bisection: first whether it
    /// lies in the object, then `t < c` for the middle cell `c` of the cells left, down to one
    /// cell (and, when `elem` is not a power of two, that `t` is that cell's start; only then
    /// can `t` fall between cells, which ends the run as unsupported). The search explores
    /// the other way of each decision that the path condition allows (`concolic::search`), so
    /// every feasible cell is a branch of its own, found with at most about log2(cells)
    /// decisions; an out-of-bounds offset is a branch too, which the run then traps on as it
    /// does for a constant index.
    ///
    /// Why exact: the decisions of a branch hold for exactly the inputs that select its
    /// cell, so under the resulting path condition every input makes the run access the same
    /// cell (the invariant of this module), while the index keeps its term for whatever else
    /// the run computes with it. The cells' starts are `base + k * elem` modulo the pointer
    /// width, which is every in-bounds `t` when `elem` divides that width's power of two.
    pub(super) fn split_index(
        &self,
        base: u64,
        idx: SymId,
        bits: u64,
        elem: u64,
        len: u64,
        ptr_bits: u32,
    ) -> R<()> {
        let w = ptr_bits.clamp(1, 64);
        let base = super::eval::norm(base, w, false);
        let off = super::eval::norm(base.wrapping_add(bits.wrapping_mul(elem)), w, false);
        let t = {
            let mut k = self.terms();
            let i = k.trunc(w, idx);
            let e = k.constant(w, elem);
            let b = k.constant(w, base);
            let scaled = k.bin(BvOp::Mul, i, e);
            k.bin(BvOp::Add, b, scaled)
        };
        let below = |c: u64| {
            let mut k = self.terms();
            let c = k.constant(w, c);
            k.cmp(CmpOp::Ult, t, c)
        };
        self.record(below(len), off < len)?;
        if off >= len || elem == 0 {
            // Out of bounds (the access traps), or every index selects `base`.
            return Ok(());
        }
        // The cells: starts `first + k * elem` for k in lo..hi, all below `len`.
        let first = base % elem;
        let (mut lo, mut hi) = (0u64, (len.saturating_sub(first)).div_ceil(elem));
        let start = |k: u64| first + k * elem;
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let under = off < start(mid);
            self.record(below(start(mid)), under)?;
            if under {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let aligned = elem.is_power_of_two() && (w == 64 || elem <= 1u64 << w);
        if !aligned {
            let at = {
                let mut k = self.terms();
                let c = k.constant(w, start(lo));
                k.cmp(CmpOp::Eq, t, c)
            };
            self.record(at, off == start(lo))?;
        }
        if off != start(lo) {
            return trap("unsupported: input-dependent array index between elements");
        }
        Ok(())
    }

    pub(super) fn record(&self, cond: SymId, taken: bool) -> R<()> {
        let h = self
            .conc
            .as_ref()
            .expect("terms exist in concolic runs only");
        let r = h.borrow_mut().decide(cond, taken);
        r.or_else(|_| trap("the symbolic shadow disagrees with the run (internal error)"))
    }

    pub(super) fn sym_unary(&self, op: UnOp, a: Scalar, bits: u32, signed: bool) -> Option<SymId> {
        a.sym?;
        if a.prov.is_some() {
            return None;
        }
        let x = self.term(a);
        let r = match op {
            UnOp::LogNot => {
                let b = self.truth(a);
                let n = self.terms().not(b);
                return Some(self.bool64(n));
            }
            UnOp::Neg => {
                let mut k = self.terms();
                let z = k.constant(64, 0);
                k.bin(BvOp::Sub, z, x)
            }
            UnOp::BitNot => self.terms().not(x),
        };
        Some(self.sym_norm(r, bits, signed))
    }

    /// The term of a binary operation (as `eval`'s `binary` computes it), recording the
    /// decision of a division's or a shift's trap when it depends on an input.
    pub(super) fn sym_binary(
        &self,
        op: BinOp,
        opty: TypeId,
        a: Scalar,
        b: Scalar,
        bits: u32,
        signed: bool,
    ) -> R<Option<SymId>> {
        use BinOp::*;
        if a.sym.is_none() && b.sym.is_none() {
            return Ok(None);
        }
        if a.prov.is_some() || b.prov.is_some() {
            match op {
                // Different provenances: the comparison does not look at the bits.
                Eq | Ne => return Ok(None),
                LogAnd | LogOr => {}
                _ => return trap("unsupported: input-dependent pointer arithmetic"),
            }
        }
        let obits = self.prog.types.bits(opty).max(1);
        if matches!(op, LogAnd | LogOr) {
            let (ta, tb) = (self.truth(a), self.truth(b));
            let bop = if op == LogAnd { BvOp::And } else { BvOp::Or };
            let r = self.terms().bin(bop, ta, tb);
            return Ok(Some(self.bool64(r)));
        }
        let (x, y) = (self.term(a), self.term(b));
        let mut k = self.terms();
        let t = &mut *k;
        let low = |t: &mut Terms, s| t.trunc(obits, s);
        // The trap of a division (zero divisor, signed MIN / -1) or an over-wide shift.
        let trap_cond = match op {
            SDiv | SRem | UDiv | URem => {
                let yl = low(t, y);
                let z = t.constant(obits, 0);
                let mut c = t.cmp(CmpOp::Eq, yl, z);
                if matches!(op, SDiv | SRem) {
                    let xl = low(t, x);
                    let min = t.constant(obits, 1u64 << (obits - 1));
                    let m1 = t.constant(obits, u64::MAX);
                    let xm = t.cmp(CmpOp::Eq, xl, min);
                    let ym = t.cmp(CmpOp::Eq, yl, m1);
                    let ovf = t.bin(BvOp::And, xm, ym);
                    c = t.bin(BvOp::Or, c, ovf);
                }
                Some((c, division_traps(op, a.bits, b.bits, obits)))
            }
            Shl | AShr | LShr if b.sym.is_some() => {
                let w = t.constant(64, obits as u64);
                let ok = t.cmp(CmpOp::Ult, y, w);
                let bad = t.not(ok);
                Some((bad, shift_traps(b.bits, obits)))
            }
            _ => None,
        };
        let r = match op {
            Add | Sub | Mul | BitAnd | BitOr | BitXor => {
                let bop = match op {
                    Add => BvOp::Add,
                    Sub => BvOp::Sub,
                    Mul => BvOp::Mul,
                    BitAnd => BvOp::And,
                    BitOr => BvOp::Or,
                    _ => BvOp::Xor,
                };
                t.bin(bop, x, y)
            }
            UDiv | URem => {
                let (xl, yl) = (low(t, x), low(t, y));
                let d = t.bin(if op == UDiv { BvOp::UDiv } else { BvOp::URem }, xl, yl);
                t.ext(false, 64, d)
            }
            SDiv => t.bin(BvOp::SDiv, x, y),
            SRem => t.bin(BvOp::SRem, x, y),
            Shl => t.bin(BvOp::Shl, x, y),
            AShr => t.bin(BvOp::AShr, x, y),
            LShr => {
                let xl = low(t, x);
                let xz = t.ext(false, 64, xl);
                t.bin(BvOp::LShr, xz, y)
            }
            Eq | Ne | SLt | SLe | SGt | SGe | ULt | ULe | UGt | UGe => {
                // `>` and `>=` are `<` and `<=` with the operands swapped.
                let (cop, swap) = match op {
                    Eq | Ne => (CmpOp::Eq, false),
                    SLt | SGt => (CmpOp::Slt, op == SGt),
                    SLe | SGe => (CmpOp::Sle, op == SGe),
                    ULt | UGt => (CmpOp::Ult, op == UGt),
                    _ => (CmpOp::Ule, op == UGe),
                };
                // The unsigned ones compare the operand type's bits only (as `binary`).
                let (x, y) = if matches!(cop, CmpOp::Ult | CmpOp::Ule) {
                    (low(t, x), low(t, y))
                } else {
                    (x, y)
                };
                let c = if swap {
                    t.cmp(cop, y, x)
                } else {
                    t.cmp(cop, x, y)
                };
                let c = if op == Ne { t.not(c) } else { c };
                t.ext(false, 64, c)
            }
            LogAnd | LogOr => unreachable!("handled above"),
        };
        drop(k);
        if let Some((c, taken)) = trap_cond {
            self.record(c, taken)?;
        }
        let r = match op {
            Eq | Ne | SLt | SLe | SGt | SGe | ULt | ULe | UGt | UGe => r,
            _ => self.sym_norm(r, bits, signed),
        };
        Ok(Some(r))
    }
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(29)
}
