//! Expression evaluation of the interpreter: C integer semantics on 64-bit patterns, pointer
//! arithmetic within an object, and the shared reads an evaluation may do in one step.

use super::{trap, Access, Machine, Prov, RunEnd, Scalar, Stop, Target, Value, R};
use crate::ir::{BinOp, Expr, ExprKind, Type, TypeId, UnOp};

/// Evaluation context of one instruction of thread `t`: the values of the shared reads done
/// in earlier steps of the same instruction (`memo`, consumed in evaluation order from
/// `pos`), how many fresh shared reads this step may still do, and the reads it did.
pub(super) struct Cx {
    pub t: usize,
    pub memo: Vec<Value>,
    pub pos: usize,
    pub budget: u32,
    /// A shared write was done.
    pub wrote: bool,
    /// The fresh shared reads of this step.
    pub reads: Vec<Access>,
    /// The exact values of `reads` (with the pointers they carry), in the same order.
    pub read_values: Vec<Value>,
}

impl Cx {
    pub fn new(t: usize, memo: Vec<Value>, budget: u32) -> Cx {
        Cx {
            t,
            memo,
            pos: 0,
            budget,
            wrote: false,
            reads: Vec::new(),
            read_values: Vec::new(),
        }
    }
    pub fn unlimited(t: usize, memo: Vec<Value>) -> Cx {
        Cx::new(t, memo, u32::MAX)
    }
    /// Before a shared write: a step does either one fresh read or writes, so that other
    /// threads can interleave between the read and the write of `x = x + 1`.
    pub fn before_write(&mut self) -> R<()> {
        if self.budget == 0 {
            return Err(Stop::Yield);
        }
        self.wrote = true;
        Ok(())
    }
}

/// Truncate to `bits` and extend by `signed` (the canonical form of a scalar's bits).
pub(crate) fn norm(v: u64, bits: u32, signed: bool) -> u64 {
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

/// Whether a division (`op` one of the four) of `x` by `y` on `obits`-bit operands traps:
/// a zero divisor, or signed MIN / -1. The shadow records this same test as a decision.
pub(super) fn division_traps(op: BinOp, x: u64, y: u64, obits: u32) -> bool {
    let mask = |v: u64| norm(v, obits, false);
    mask(y) == 0
        || (matches!(op, BinOp::SDiv | BinOp::SRem)
            && mask(x) == 1u64 << (obits - 1)
            && mask(y) == mask(u64::MAX))
}

/// Whether the signed operation `op` on the exact values `x`, `y` of a `bits`-bit type
/// overflows (`<<` of a non-negative `x` by an amount below the width; division by zero is
/// no overflow, it traps).
pub(super) fn overflows(op: BinOp, x: i64, y: i64, bits: u32) -> bool {
    let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
    let (x, y) = (x as i128, y as i128);
    let exact = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::SDiv | BinOp::SRem => return x == lo && y == -1,
        BinOp::Shl if (0..bits as i128).contains(&y) && x >= 0 => x << y,
        _ => return false,
    };
    exact < lo || exact > hi
}

/// The end of a run at an overflow: `Machine::step` fills in the thread and its place.
fn overflow<T>() -> R<T> {
    Err(Stop::End(RunEnd::Violation {
        thread: usize::MAX,
        loc: crate::ir::Loc::default(),
    }))
}

/// Whether a shift by `n` of an `obits`-bit operand traps (a negative count is a huge one).
pub(super) fn shift_traps(n: u64, obits: u32) -> bool {
    n >= obits as u64
}

impl<'p> Machine<'p> {
    pub(super) fn eval_scalar(&self, cx: &mut Cx, e: &Expr) -> R<Scalar> {
        match self.eval(cx, e)? {
            Value::Scalar(s) => Ok(s),
            Value::Bytes(..) => trap("aggregate where a scalar is expected"),
        }
    }

    /// The value of an expression in thread `t`'s current frame.
    pub(super) fn eval(&self, cx: &mut Cx, e: &Expr) -> R<Value> {
        let types = &self.prog.types;
        let bits = types.bits(e.ty);
        let signed = types.is_signed(e.ty);
        let int = |v: u64| Ok(Value::Scalar(Scalar::int(norm(v, bits, signed))));
        match &e.kind {
            ExprKind::Const(v) => Ok(Value::Scalar(Scalar::int(*v))),
            ExprKind::Read(p) => {
                let (o, off) = self.place(cx, p)?;
                if self.undefined(o, off, p.ty) {
                    return Err(Stop::Undefined(o, off, p.ty));
                }
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
                if !self.obj(o).private {
                    let (len, value) = match &v {
                        Value::Scalar(s) => (types.size_of(p.ty).unwrap_or(0), s.bits),
                        Value::Bytes(b, _) => (b.len() as u64, super::memory::summary(b)),
                    };
                    cx.reads.push(Access {
                        target: Target::Mem { obj: o, off, len },
                        write: false,
                        value,
                    });
                    cx.read_values.push(v.clone());
                }
                cx.memo.push(v.clone());
                cx.pos += 1;
                Ok(v)
            }
            ExprKind::AddrOf(p) => {
                let (o, off) = self.place(cx, p)?;
                Ok(Value::Scalar(Scalar::ptr(off, Some(Prov::Obj(o)))))
            }
            ExprKind::FuncAddr(f) => Ok(Value::Scalar(Scalar::ptr(0, Some(Prov::Func(*f))))),
            ExprKind::Unary(op, a) => {
                let a = self.eval_scalar(cx, a)?;
                let v = match op {
                    UnOp::LogNot => int(!a.truthy() as u64),
                    _ if a.prov.is_some() => trap("arithmetic on a pointer"),
                    UnOp::Neg
                        if self.overflow_checks
                            && signed
                            && bits >= 32
                            && a.bits as i64 == norm(1u64 << (bits - 1), bits, true) as i64 =>
                    {
                        overflow()
                    }
                    UnOp::Neg => int(a.bits.wrapping_neg()),
                    UnOp::BitNot => int(!a.bits),
                }?;
                Ok(self.with_sym(v, self.sym_unary(*op, a, bits, signed)))
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.eval_scalar(cx, c)?;
                if self.decide(c)? {
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
                    let b = int(v.truthy() as u64)?;
                    return Ok(self.with_sym(b, self.sym_truth(v)));
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
                    sym: v.sym.map(|s| self.sym_norm(s, bits, signed)),
                }))
            }
            ExprKind::PtrAdd(p, d) => {
                let p = self.eval_scalar(cx, p)?;
                let d = self.eval_scalar(cx, d)?;
                if p.sym.is_some() {
                    return trap("unsupported: input-dependent pointer arithmetic");
                }
                if d.prov.is_some() {
                    return trap("pointer added to a pointer");
                }
                let pb = types.ptr_bits() as u32;
                let off = norm(p.bits.wrapping_add(d.bits), pb, false);
                if let Some(s) = d.sym {
                    // The offset is pinned to its value: the pointer carries no term.
                    self.pin_offset(p.prov, p.bits, s, false, off, pb)?;
                }
                Ok(Value::Scalar(Scalar::ptr(off, p.prov)))
            }
            ExprKind::PtrDiff(a, b) => {
                let a = self.eval_scalar(cx, a)?;
                let b = self.eval_scalar(cx, b)?;
                if a.sym.is_some() || b.sym.is_some() {
                    return trap("unsupported: input-dependent pointer arithmetic");
                }
                if a.prov != b.prov {
                    return trap("difference of pointers into different objects");
                }
                int(a.bits.wrapping_sub(b.bits))
            }
            ExprKind::Float(op, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    let v = self.eval_scalar(cx, a)?;
                    if v.sym.is_some() {
                        return trap("unsupported: input-dependent floating point");
                    }
                    if v.prov.is_some() {
                        return trap("floating-point operation on a pointer");
                    }
                    vals.push((v.bits, a.ty));
                }
                match crate::ir::float::eval(types, *op, &vals, e.ty) {
                    Ok(v) => int(v),
                    Err(u) => trap(format!("unsupported: {}", u.describe())),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let opty = a.ty;
                let a = self.eval_scalar(cx, a)?;
                let b = self.eval_scalar(cx, b)?;
                if a.prov.is_some()
                    && a.sym.is_none()
                    && b.prov.is_none()
                    && b.sym.is_some()
                    && matches!(op, BinOp::Add | BinOp::Sub)
                    && bits >= types.ptr_bits() as u32
                {
                    // A pointer (as an integer) plus or minus an input-dependent integer: as
                    // `PtrAdd`, the offset is pinned to its value.
                    let v = self.binary(*op, opty, a, b, bits, signed)?;
                    if let (Value::Scalar(r), Some(s)) = (&v, b.sym) {
                        let pb = types.ptr_bits() as u32;
                        let off = norm(r.bits, pb, false);
                        self.pin_offset(a.prov, a.bits, s, *op == BinOp::Sub, off, pb)?;
                    }
                    return Ok(v);
                }
                // The shadow first: it records the decision of a trap the operation may do.
                let sym = self.sym_binary(*op, opty, a, b, bits, signed)?;
                let v = self.binary(*op, opty, a, b, bits, signed)?;
                Ok(self.with_sym(v, sym))
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
            Eq => return boolean(a.same(b)),
            Ne => return boolean(!a.same(b)),
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
                Add if b.prov.is_none() => Ok(Value::Scalar(Scalar::ptr(
                    norm(a.bits.wrapping_add(b.bits), bits, signed),
                    a.prov,
                ))),
                Sub if b.prov.is_none() => Ok(Value::Scalar(Scalar::ptr(
                    norm(a.bits.wrapping_sub(b.bits), bits, signed),
                    a.prov,
                ))),
                Sub if a.prov == b.prov => res(a.bits.wrapping_sub(b.bits)),
                _ => trap(format!("unsupported: '{}' on pointers", op.symbol())),
            };
        }
        let (x, y) = (a.bits, b.bits);
        let (sx, sy) = (x as i64, y as i64);
        if self.overflow_checks && signed && bits >= 32 && !op.is_comparison() {
            if op == Shl && sx < 0 && !shift_traps(y, obits) {
                return trap("unsupported: left shift of a negative value");
            }
            let divides_by_zero = matches!(op, SDiv | SRem) && norm(y, obits, false) == 0;
            if !divides_by_zero && overflows(op, sx, sy, bits) {
                return overflow();
            }
        }
        // The right operand of a shift keeps its own (promoted) type.
        let shift = |n: u64| -> R<u32> {
            if shift_traps(n, obits) {
                trap("shift by the width of the operand or more")
            } else {
                Ok(n as u32)
            }
        };
        match op {
            // Division by zero and signed MIN / -1 trap on the machine: the thread stops
            // there, as in symbolic execution.
            SDiv | SRem | UDiv | URem if division_traps(op, x, y, obits) => Err(Stop::ThreadStops),
            Add => res(x.wrapping_add(y)),
            Sub => res(x.wrapping_sub(y)),
            Mul => res(x.wrapping_mul(y)),
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
}
