//! Expressions to circuits: bit-precise, with C's signedness made explicit by the IR.
//!
//! Operands that C evaluates only conditionally (the right side of `&&`/`||`, the arms of
//! `?:`) are evaluated under the stronger guard, so their memory reads and checks happen only
//! where the program performs them.

use encoder::BitVec;
use solver_glue::Lit;

use super::exec::Symex;
use super::state::{State, Val};
use super::CheckKind;
use super::{unsupported, SymexError};
use crate::ir::float::{float_bits, FloatUndefined};
use crate::ir::{BinOp, Expr, ExprKind, FloatOp, Type, TypeId, UnOp};
use encoder::FloatFormat;

impl Symex<'_, '_, '_> {
    /// Evaluates `e` on path `s`; `guard` (default: the path's) conditions its memory reads.
    pub fn eval(&mut self, e: &Expr, s: &mut State, guard: Option<Lit>) -> Result<Val, SymexError> {
        let g = guard.unwrap_or(s.guard);
        match &e.kind {
            ExprKind::Read(place) => self.read_place(place, s, g),
            ExprKind::Ite(c, a, b) => {
                let c = self.eval_cond_g(c, s, g)?;
                let ga = self.enc.and(g, c);
                let gb = self.enc.and(g, !c);
                let va = self.eval(a, s, Some(ga))?;
                let vb = self.eval(b, s, Some(gb))?;
                Ok(Val::ite(self.enc, c, &va, &vb))
            }
            ExprKind::Cast(inner)
                if matches!(
                    self.prog.types.get(e.ty),
                    Type::Struct(_) | Type::Array { .. }
                ) =>
            {
                self.eval(inner, s, Some(g))
            }
            ExprKind::Cast(inner) if self.prog.types.is_void(e.ty) => {
                self.eval(inner, s, Some(g))?;
                Ok(Val::Agg(Vec::new()))
            }
            _ => Ok(Val::Scalar(self.eval_scalar_g(e, s, g)?)),
        }
    }

    pub fn eval_scalar(
        &mut self,
        e: &Expr,
        s: &mut State,
        guard: Option<Lit>,
    ) -> Result<BitVec, SymexError> {
        let g = guard.unwrap_or(s.guard);
        self.eval_scalar_g(e, s, g)
    }

    /// `e != 0` on the path.
    pub fn eval_cond(&mut self, e: &Expr, s: &mut State) -> Result<Lit, SymexError> {
        let g = s.guard;
        self.eval_cond_g(e, s, g)
    }

    fn eval_cond_g(&mut self, e: &Expr, s: &mut State, g: Lit) -> Result<Lit, SymexError> {
        let v = self.eval_scalar_g(e, s, g)?;
        Ok(self.enc.bv_nonzero(&v))
    }

    pub fn eval_scalar_g(&mut self, e: &Expr, s: &mut State, g: Lit) -> Result<BitVec, SymexError> {
        let types = &self.prog.types;
        let bits = types.bits(e.ty);
        match &e.kind {
            ExprKind::Const(v) => Ok(self.enc.bv_const(bits, *v)),
            ExprKind::Read(_) | ExprKind::Ite(..) => match self.eval(e, s, Some(g))? {
                Val::Scalar(b) => Ok(b),
                Val::Agg(_) => unsupported("aggregate value used as a scalar"),
            },
            ExprKind::AddrOf(place) => self.address_of(place, s, g),
            ExprKind::FuncAddr(f) => {
                let o = self.func_object(*f)?;
                Ok(self.enc.bv_const(bits, self.mem.pointer(o, 0)))
            }
            ExprKind::Unary(op, a) => {
                let va = self.eval_scalar_g(a, s, g)?;
                if *op == UnOp::Neg && self.checks_overflow(e.ty) {
                    let w = va.width();
                    let min = self.enc.bv_const(w, 1u64 << (w - 1));
                    let is_min = self.enc.bv_eq(&va, &min);
                    let bad = self.enc.and(g, is_min);
                    self.check(CheckKind::Overflow, bad);
                }
                Ok(match op {
                    UnOp::Neg => self.enc.bv_neg(&va),
                    UnOp::BitNot => self.enc.bv_not(&va),
                    UnOp::LogNot => {
                        let nz = self.enc.bv_nonzero(&va);
                        self.enc.bv_from_bool(!nz, bits)
                    }
                })
            }
            ExprKind::Binary(op, a, b) => {
                let checked = self.checks_overflow(e.ty);
                let v = self.binary(*op, a, b, bits, s, g, checked)?;
                Ok(v)
            }
            ExprKind::Cast(inner) => {
                let v = self.eval_scalar_g(inner, s, g)?;
                let types = &self.prog.types;
                if matches!(types.get(e.ty), Type::Bool) {
                    let nz = self.enc.bv_nonzero(&v);
                    return Ok(self.enc.bv_from_bool(nz, bits));
                }
                let signed = types.is_signed(inner.ty);
                Ok(self.resize(&v, bits, signed))
            }
            ExprKind::PtrAdd(p, off) => {
                let vp = self.eval_scalar_g(p, s, g)?;
                let vo = self.eval_scalar_g(off, s, g)?;
                let vo = self.resize(&vo, vp.width(), true);
                Ok(self.enc.bv_add(&vp, &vo))
            }
            ExprKind::Float(op, args) => self.float(*op, args, e.ty, s, g),
            ExprKind::PtrDiff(a, b) => {
                let va = self.eval_scalar_g(a, s, g)?;
                let vb = self.eval_scalar_g(b, s, g)?;
                let d = self.enc.bv_sub(&va, &vb);
                Ok(self.resize(&d, bits, true))
            }
        }
    }

    /// Whether an operation of type `ty` gets overflow checks: no-overflow is checked, the type
    /// is signed and at least as wide as `int` (narrower operands are promoted to `int` in C,
    /// so arithmetic the IR does in a narrower type cannot overflow).
    fn checks_overflow(&self, ty: crate::ir::TypeId) -> bool {
        let types = &self.prog.types;
        self.opts.overflow_checks && types.is_signed(ty) && types.bits(ty) >= 32
    }

    /// The literal "the signed operation `op` on `a`, `b` (equal widths) overflows", for the
    /// operations that can; `r` is the wrapped result.
    fn overflows(&mut self, op: BinOp, a: &BitVec, b: &BitVec, r: &BitVec) -> Option<Lit> {
        let w = a.width();
        let sign = |v: &BitVec| v.bit(w - 1);
        match op {
            // Operands of one sign and a result of the other (for `-`: of different signs).
            BinOp::Add | BinOp::Sub => {
                let same = self.enc.xor(sign(a), sign(b));
                let same = if op == BinOp::Add { !same } else { same };
                let flipped = self.enc.xor(sign(r), sign(a));
                Some(self.enc.and(same, flipped))
            }
            // The full product (double width) differs from the sign extension of its low half.
            BinOp::Mul => {
                let wa = self.resize(a, 2 * w, true);
                let wb = self.resize(b, 2 * w, true);
                let full = self.enc.bv_mul(&wa, &wb);
                let back = self.resize(r, 2 * w, true);
                let eq = self.enc.bv_eq(&full, &back);
                Some(!eq)
            }
            BinOp::SDiv | BinOp::SRem => {
                let min = self.enc.bv_const(w, 1u64 << (w - 1));
                let m1 = self.enc.bv_const(w, u64::MAX);
                let a_min = self.enc.bv_eq(a, &min);
                let b_m1 = self.enc.bv_eq(b, &m1);
                Some(self.enc.and(a_min, b_m1))
            }
            // `a << b` is representable iff shifting it back (arithmetically) gives `a`.
            BinOp::Shl => {
                let back = self.enc.bv_ashr(r, b);
                let eq = self.enc.bv_eq(&back, a);
                Some(!eq)
            }
            _ => None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        bits: u32,
        s: &mut State,
        g: Lit,
        checked: bool,
    ) -> Result<BitVec, SymexError> {
        use BinOp::*;
        if matches!(op, LogAnd | LogOr) {
            let ca = self.eval_cond_g(a, s, g)?;
            let gb = if op == LogAnd {
                self.enc.and(g, ca)
            } else {
                self.enc.and(g, !ca)
            };
            let cb = self.eval_cond_g(b, s, gb)?;
            let r = if op == LogAnd {
                self.enc.and(ca, cb)
            } else {
                self.enc.or(ca, cb)
            };
            return Ok(self.enc.bv_from_bool(r, bits));
        }
        let va = self.eval_scalar_g(a, s, g)?;
        let mut vb = self.eval_scalar_g(b, s, g)?;
        if matches!(op, Shl | AShr | LShr) {
            // A shift by the width or more (or by a negative amount) is undefined; machines
            // differ (x86 masks the amount), so an execution that does it gets no verdict.
            let w = self.enc.bv_const(vb.width(), va.width() as u64);
            let too_far = self.enc.bv_ule(&w, &vb);
            let bad = self.enc.and(g, too_far);
            self.unsupported_check("shift by the width of the operand or more", bad);
            let r = match op {
                Shl => self.enc.bv_shl(&va, &vb),
                AShr => self.enc.bv_ashr(&va, &vb),
                _ => self.enc.bv_lshr(&va, &vb),
            };
            if checked && op == Shl && vb.width() == va.width() {
                // A negative left operand is undefined but no overflow: no verdict.
                let negative = va.bit(va.width() - 1);
                let neg = self.enc.and(g, negative);
                self.unsupported_check("left shift of a negative value", neg);
                let ok = self.enc.and(g, !too_far);
                if let Some(o) = self.overflows(op, &va, &vb, &r) {
                    let bad = self.enc.and(ok, o);
                    self.check(CheckKind::Overflow, bad);
                }
            } else if checked && op == Shl {
                return unsupported("left shift by an amount of another width, checking overflow");
            }
            return Ok(r);
        }
        if vb.width() != va.width() {
            // Comparisons of a pointer with an integer constant (null) and similar.
            vb = self.resize(&vb, va.width(), false);
        }
        let cmp = |sx: &mut Self, l: Lit| sx.enc.bv_from_bool(l, bits);
        if checked && matches!(op, Add | Sub | Mul | SDiv | SRem) {
            let r = match op {
                Add => self.enc.bv_add(&va, &vb),
                Sub => self.enc.bv_sub(&va, &vb),
                _ => self.enc.bv_mul(&va, &vb),
            };
            if let Some(o) = self.overflows(op, &va, &vb, &r) {
                // A zero divisor traps before anything overflows (the path stops there).
                let live = if matches!(op, SDiv | SRem) {
                    let zero = self.enc.bv_const(vb.width(), 0);
                    let z = self.enc.bv_eq(&vb, &zero);
                    self.enc.and(g, !z)
                } else {
                    g
                };
                let bad = self.enc.and(live, o);
                self.check(CheckKind::Overflow, bad);
            }
        }
        Ok(match op {
            Add => self.enc.bv_add(&va, &vb),
            Sub => self.enc.bv_sub(&va, &vb),
            Mul => self.enc.bv_mul(&va, &vb),
            SDiv | UDiv | SRem | URem => {
                self.division_guard(op, &va, &vb, s, g);
                match op {
                    SDiv => self.enc.bv_sdiv(&va, &vb),
                    UDiv => self.enc.bv_udiv(&va, &vb),
                    SRem => self.enc.bv_srem(&va, &vb),
                    _ => self.enc.bv_urem(&va, &vb),
                }
            }
            BitAnd => self.enc.bv_and(&va, &vb),
            BitOr => self.enc.bv_or(&va, &vb),
            BitXor => self.enc.bv_xor(&va, &vb),
            Eq => {
                let l = self.enc.bv_eq(&va, &vb);
                cmp(self, l)
            }
            Ne => {
                let l = self.enc.bv_eq(&va, &vb);
                cmp(self, !l)
            }
            SLt => {
                let l = self.enc.bv_slt(&va, &vb);
                cmp(self, l)
            }
            SLe => {
                let l = self.enc.bv_sle(&va, &vb);
                cmp(self, l)
            }
            SGt => {
                let l = self.enc.bv_slt(&vb, &va);
                cmp(self, l)
            }
            SGe => {
                let l = self.enc.bv_sle(&vb, &va);
                cmp(self, l)
            }
            ULt => {
                let l = self.enc.bv_ult(&va, &vb);
                cmp(self, l)
            }
            ULe => {
                let l = self.enc.bv_ule(&va, &vb);
                cmp(self, l)
            }
            UGt => {
                let l = self.enc.bv_ult(&vb, &va);
                cmp(self, l)
            }
            UGe => {
                let l = self.enc.bv_ule(&vb, &va);
                cmp(self, l)
            }
            Shl | AShr | LShr | LogAnd | LogOr => unreachable!("handled above"),
        })
    }

    /// A floating-point operation by the encoder's IEEE-754 circuits (see `ir::float`). Its
    /// undefined cases (a conversion out of the integer type's range, two different NaN
    /// operands) are unsupported checks: an execution reaching one gets no verdict.
    fn float(
        &mut self,
        op: FloatOp,
        args: &[Expr],
        ty: TypeId,
        s: &mut State,
        g: Lit,
    ) -> Result<BitVec, SymexError> {
        let vals = args
            .iter()
            .map(|a| self.eval_scalar_g(a, s, g))
            .collect::<Result<Vec<_>, _>>()?;
        let types = &self.prog.types;
        let bits = types.bits(ty);
        let fmt = |t: TypeId| float_bits(types, t).and_then(FloatFormat::of_width);
        let (from, to) = (fmt(args[0].ty), fmt(ty));
        let from_signed = types.is_signed(args[0].ty);
        let to_int = match types.get(ty) {
            Type::Int { bits, signed } => Some((u32::from(*bits), *signed)),
            _ => None,
        };
        let Some(f) = from.or(to) else {
            return unsupported("floating-point operation on a type other than float and double");
        };
        let a = &vals[0];
        let cmp = |sx: &mut Self, l: Lit| sx.enc.bv_from_bool(l, bits);
        if op.arity() == 2 && !op.is_comparison() {
            let amb = self.enc.fp_nan_choice_matters(f, a, &vals[1]);
            let bad = self.enc.and(g, amb);
            self.unsupported_check(FloatUndefined::NanChoice.describe(), bad);
        }
        Ok(match op {
            FloatOp::Add => self.enc.fp_add(f, a, &vals[1]),
            FloatOp::Sub => self.enc.fp_sub(f, a, &vals[1]),
            FloatOp::Mul => self.enc.fp_mul(f, a, &vals[1]),
            FloatOp::Div => self.enc.fp_div(f, a, &vals[1]),
            FloatOp::Neg => self.enc.fp_neg(f, a),
            FloatOp::Eq => {
                let l = self.enc.fp_eq(f, a, &vals[1]);
                cmp(self, l)
            }
            FloatOp::Ne => {
                let l = self.enc.fp_eq(f, a, &vals[1]);
                cmp(self, !l)
            }
            FloatOp::Lt => {
                let l = self.enc.fp_lt(f, a, &vals[1]);
                cmp(self, l)
            }
            FloatOp::Le => {
                let l = self.enc.fp_le(f, a, &vals[1]);
                cmp(self, l)
            }
            FloatOp::Gt => {
                let l = self.enc.fp_lt(f, &vals[1], a);
                cmp(self, l)
            }
            FloatOp::Ge => {
                let l = self.enc.fp_le(f, &vals[1], a);
                cmp(self, l)
            }
            FloatOp::Convert => match (from, to, to_int) {
                (Some(ff), Some(tf), _) => self.enc.fp_convert(ff, tf, a),
                (None, Some(tf), _) => {
                    // `_Bool` is an unsigned 0 or 1.
                    self.enc.fp_from_int(tf, a, from_signed)
                }
                (Some(ff), None, Some((w, signed))) => {
                    let (v, out) = self.enc.fp_to_int(ff, a, w, signed);
                    let bad = self.enc.and(g, out);
                    self.unsupported_check(FloatUndefined::OutOfRange.describe(), bad);
                    self.resize(&v, bits, signed)
                }
                _ => return unsupported("floating-point conversion of this type"),
            },
        })
    }

    /// Division by zero (and signed `MIN / -1`) traps on the machine: the program stops there,
    /// so the path does not go on.
    fn division_guard(&mut self, op: BinOp, a: &BitVec, b: &BitVec, s: &mut State, g: Lit) {
        let zero = self.enc.bv_const(b.width(), 0);
        let mut trap = self.enc.bv_eq(b, &zero);
        if matches!(op, BinOp::SDiv | BinOp::SRem) {
            let w = a.width();
            let min = self.enc.bv_const(w, 1u64 << (w - 1));
            let m1 = self.enc.bv_const(w, u64::MAX);
            let a_min = self.enc.bv_eq(a, &min);
            let b_m1 = self.enc.bv_eq(b, &m1);
            let ovf = self.enc.and(a_min, b_m1);
            trap = self.enc.or(trap, ovf);
        }
        let here = self.enc.and(g, trap);
        s.guard = self.enc.and(s.guard, !here);
    }
}
