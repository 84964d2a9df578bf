//! C's implicit conversions (integer promotions, usual arithmetic conversions, assignment
//! conversions) as explicit casts, and folding of operations on constants.

use super::Lowerer;
use crate::ir::{BinOp, Expr, ExprKind, Type, TypeId, Types, UnOp};

/// Normalises a bit pattern to the width and signedness of `ty` (see `ExprKind::Const`).
pub(crate) fn normalize(types: &Types, v: u64, ty: TypeId) -> u64 {
    match types.get(ty) {
        Type::Bool => (v != 0) as u64,
        Type::Int { bits, signed } => {
            let b = *bits as u32;
            if b >= 64 {
                v
            } else if *signed {
                let s = 64 - b;
                (((v << s) as i64) >> s) as u64
            } else {
                v & ((1u64 << b) - 1)
            }
        }
        Type::Pointer(_) => {
            let b = types.ptr_bits() as u32;
            if b >= 64 {
                v
            } else {
                v & ((1u64 << b) - 1)
            }
        }
        _ => v,
    }
}

impl<'a> Lowerer<'a> {
    /// Converts `e` to `to`, folding constants. Identity conversions add nothing.
    pub(crate) fn cast(&mut self, e: Expr, to: TypeId) -> Expr {
        if e.ty == to {
            return e;
        }
        if self.is_float_op(&[e.ty], to) {
            return self.float_cast(e, to);
        }
        let scalar_src = self.types.is_integer(e.ty) || self.types.is_pointer(e.ty);
        let scalar_dst = self.types.is_integer(to) || self.types.is_pointer(to);
        if let (ExprKind::Const(v), true, true) = (&e.kind, scalar_src, scalar_dst) {
            // Pointer constants are only ever null: an integer turned into a non-null
            // address stays a visible cast.
            if !self.types.is_pointer(to) || *v == 0 {
                return Expr::constant(normalize(&self.types, *v, to), to);
            }
        }
        // Same representation (e.g. `int` and `long` under ILP32 are one type already; pointer
        // to pointer of another type is still a cast, so that the type stays exact).
        Expr {
            kind: ExprKind::Cast(Box::new(e)),
            ty: to,
        }
    }

    /// Integer promotion: `_Bool`, `char`, `short` (and bit-fields) become `int`.
    pub(crate) fn promote(&mut self, e: Expr) -> Expr {
        let int = self.types.int32();
        match self.types.get(e.ty) {
            Type::Bool => self.cast(e, int),
            Type::Int { bits, .. } if *bits < 32 => self.cast(e, int),
            _ => e,
        }
    }

    /// The common type of the usual arithmetic conversions of two promoted integer types.
    pub(crate) fn common_type(&mut self, a: TypeId, b: TypeId) -> TypeId {
        // The wider floating type, if either is one.
        match (self.types.get(a).clone(), self.types.get(b).clone()) {
            (Type::Float { bits: x }, Type::Float { bits: y }) => {
                return if x >= y { a } else { b }
            }
            (Type::Float { .. }, _) => return a,
            (_, Type::Float { .. }) => return b,
            _ => {}
        }
        let (
            Type::Int {
                bits: ba,
                signed: sa,
            },
            Type::Int {
                bits: bb,
                signed: sb,
            },
        ) = (self.types.get(a).clone(), self.types.get(b).clone())
        else {
            return a;
        };
        if a == b {
            return a;
        }
        if sa == sb {
            return if ba >= bb { a } else { b };
        }
        let (ub, sbits) = if sa { (bb, ba) } else { (ba, bb) };
        if ub >= sbits {
            self.types.int(ub, false)
        } else {
            self.types.int(sbits, true)
        }
    }

    /// Applies the usual arithmetic conversions to two integer operands.
    pub(crate) fn arith_pair(&mut self, a: Expr, b: Expr) -> (Expr, Expr, TypeId) {
        let a = self.promote(a);
        let b = self.promote(b);
        let t = self.common_type(a.ty, b.ty);
        let a = self.cast(a, t);
        let b = self.cast(b, t);
        (a, b, t)
    }

    /// A binary operation, folded when both operands are constant (never folding a division
    /// by zero, which stays for the consumer to see).
    pub(crate) fn binary(&mut self, op: BinOp, a: Expr, b: Expr, ty: TypeId) -> Expr {
        if self.is_float_op(&[a.ty, b.ty], ty) {
            return self.float_binary(op, a, b, ty);
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            if let Some(v) = self.fold(op, x, y, a.ty) {
                return Expr::constant(normalize(&self.types, v, ty), ty);
            }
        }
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty,
        }
    }

    fn fold(&self, op: BinOp, x: u64, y: u64, operand_ty: TypeId) -> Option<u64> {
        use BinOp::*;
        let bits = self.types.bits(operand_ty).max(1);
        let sx = x as i64;
        let sy = y as i64;
        Some(match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            SDiv => {
                if sy == 0 {
                    return None;
                }
                sx.wrapping_div(sy) as u64
            }
            UDiv => x.checked_div(y)?,
            SRem => {
                if sy == 0 {
                    return None;
                }
                sx.wrapping_rem(sy) as u64
            }
            URem => x.checked_rem(y)?,
            Shl => {
                if y >= bits as u64 {
                    return None;
                }
                x.wrapping_shl(y as u32)
            }
            AShr => {
                if y >= bits as u64 {
                    return None;
                }
                (sx >> y) as u64
            }
            LShr => {
                if y >= bits as u64 {
                    return None;
                }
                x >> y
            }
            BitAnd => x & y,
            BitOr => x | y,
            BitXor => x ^ y,
            Eq => (x == y) as u64,
            Ne => (x != y) as u64,
            SLt => (sx < sy) as u64,
            SLe => (sx <= sy) as u64,
            SGt => (sx > sy) as u64,
            SGe => (sx >= sy) as u64,
            ULt => (x < y) as u64,
            ULe => (x <= y) as u64,
            UGt => (x > y) as u64,
            UGe => (x >= y) as u64,
            LogAnd => (x != 0 && y != 0) as u64,
            LogOr => (x != 0 || y != 0) as u64,
        })
    }

    pub(crate) fn unary(&mut self, op: UnOp, a: Expr, ty: TypeId) -> Expr {
        if self.is_float_op(&[a.ty], ty) {
            return self.float_unary(op, a, ty);
        }
        if let Some(x) = a.as_const() {
            let v = match op {
                UnOp::Neg => x.wrapping_neg(),
                UnOp::BitNot => !x,
                UnOp::LogNot => (x == 0) as u64,
            };
            return Expr::constant(normalize(&self.types, v, ty), ty);
        }
        Expr {
            kind: ExprKind::Unary(op, Box::new(a)),
            ty,
        }
    }

    /// `e != 0` as an `int`, for a scalar `e` (the meaning of a condition).
    pub(crate) fn truth(&mut self, e: Expr) -> Expr {
        let int = self.types.int32();
        if let ExprKind::Binary(op, _, _) = &e.kind {
            if op.is_comparison() && e.ty == int {
                return e;
            }
        }
        if let ExprKind::Unary(UnOp::LogNot, _) = &e.kind {
            if e.ty == int {
                return e;
            }
        }
        let zero = self.zero_of(e.ty);
        self.binary(BinOp::Ne, e, zero, int)
    }

    pub(crate) fn zero_of(&mut self, ty: TypeId) -> Expr {
        Expr::constant(0, ty)
    }
}
