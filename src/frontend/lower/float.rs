//! Floating point: IEEE-754 `float` and `double`, exact.
//!
//! A floating-point value is a bit pattern of its width (IEEE-754 single or double), stored,
//! copied, passed and returned like any scalar. The semantics is C's with `FLT_EVAL_METHOD` 0
//! in both data models: every operation is rounded to its type, to nearest, ties to even, as
//! gcc computes on x86-64 and on i386 with `-msse2 -mfpmath=sse` (and as CBMC and the SV-COMP
//! verifiers assume). Exact, as [`ExprKind::Float`] operations (`ir::float` gives their
//! meaning, the encoder's circuits and the interpreter compute it):
//! - decimal constants (`0.5`, `1.0E-5f`): their bit pattern, rounded to nearest once;
//! - `+ - * /`, comparisons (false when an operand is a NaN, `!=` true), unary minus, `!` and
//!   a floating value tested as a condition (`x != 0`), with denormals, signed zeros,
//!   infinities and NaNs;
//! - conversions between `float` and `double`, from any integer type or `_Bool` (rounded),
//!   and to any integer type (truncated toward zero; a value out of the range of the integer
//!   type is undefined in C, and an execution that converts one is unsupported: UNKNOWN);
//!   to `_Bool` is `!= 0`;
//! - `__VERIFIER_nondet_float`/`double`: any bit pattern.
//!
//! Constant operands are folded with the same meaning.
//!
//! Over-approximated, as before: operations on `long double` (and other widths), which give
//! an arbitrary value of their result type (0 or 1 for a comparison) and mark the execution as
//! over-approximated ([`Approximation::FloatValue`]). Why that is sound: the arbitrary value
//! includes the value the machine computes, so the executions modelled include every real
//! execution: when no error is reachable in them, none is in the program, and TRUE holds; an
//! error reached in an execution that evaluated such an operation is no counterexample, and
//! the engines answer UNKNOWN for it (`engine::Checks`). Calls of math library functions
//! (`sqrt`, `sin`, ...) have no body and are handled as every such call; `fesetround` and the
//! other rounding modes are not modelled.

use lang_c::ast::{Float, FloatBase, FloatFormat};
use lang_c::span::Span;

use super::{Lowerer, R};
use crate::ir::float::{self as fsem, float_bits};
use crate::ir::*;

impl Lowerer<'_> {
    /// A floating-point constant: its exact bit pattern.
    pub(crate) fn float_constant(&mut self, f: &Float, span: Span) -> R<Expr> {
        if f.suffix.imaginary {
            return Err(self.unsupported(span, "imaginary constant"));
        }
        if f.base != FloatBase::Decimal {
            return Err(self.unsupported(span, "hexadecimal floating-point constant"));
        }
        let text = f.number.as_ref();
        let bad = || format!("floating-point constant {text}");
        let (bits, value) = match f.suffix.format {
            FloatFormat::Float => {
                let v: f32 = text.parse().map_err(|_| self.invalid(span, bad()))?;
                (32, v.to_bits() as u64)
            }
            FloatFormat::Double => {
                let v: f64 = text.parse().map_err(|_| self.invalid(span, bad()))?;
                (64, v.to_bits())
            }
            _ => return Err(self.unsupported(span, "floating-point constant of type long double")),
        };
        let ty = self.types.intern(Type::Float { bits });
        Ok(Expr::constant(value, ty))
    }

    /// Whether an operation on `operands` giving `result` involves floating point.
    pub(crate) fn is_float_op(&self, operands: &[TypeId], result: TypeId) -> bool {
        self.types.is_float(result) || operands.iter().any(|&t| self.types.is_float(t))
    }

    /// The result of a floating-point operation that is not modelled exactly: an arbitrary
    /// value of `ty` (0 or 1 when `boolean`), the execution marked as over-approximated (see
    /// the module documentation).
    pub(crate) fn float_op(&mut self, ty: TypeId, boolean: bool) -> Expr {
        self.emit(InstrKind::Approximate(Approximation::FloatValue));
        let t = self.temp(ty);
        self.emit(InstrKind::Nondet { dst: t.clone() });
        if boolean {
            let int = self.types.int32();
            let le = Expr {
                kind: ExprKind::Binary(
                    BinOp::ULe,
                    Box::new(Expr::read(t.clone())),
                    Box::new(Expr::constant(1, ty)),
                ),
                ty: int,
            };
            self.emit(InstrKind::Assume(le));
        }
        Expr::read(t)
    }

    /// The exact operation `op` on `args` with result type `ty`, folded when every operand is
    /// constant and the result is defined.
    fn float_expr(&mut self, op: FloatOp, args: Vec<Expr>, ty: TypeId) -> Expr {
        let consts: Option<Vec<(u64, TypeId)>> = args
            .iter()
            .map(|a| a.as_const().map(|v| (v, a.ty)))
            .collect();
        if let Some(c) = consts {
            if let Ok(v) = fsem::eval(&self.types, op, &c, ty) {
                return Expr::constant(v, ty);
            }
        }
        Expr {
            kind: ExprKind::Float(op, args),
            ty,
        }
    }

    /// `(to)e` where `e` or `to` is floating.
    pub(crate) fn float_cast(&mut self, e: Expr, to: TypeId) -> Expr {
        let exact_side = |s: &Self, t: TypeId| {
            float_bits(&s.types, t).is_some()
                || matches!(s.types.get(t), Type::Int { .. } | Type::Bool)
        };
        let has_float =
            float_bits(&self.types, e.ty).is_some() || float_bits(&self.types, to).is_some();
        if !(has_float && exact_side(self, e.ty) && exact_side(self, to)) {
            let boolean = matches!(self.types.get(to), Type::Bool);
            return self.float_op(to, boolean);
        }
        if matches!(self.types.get(to), Type::Bool) {
            // `!= 0`, then the integer 0 or 1 as a `_Bool`.
            let int = self.types.int32();
            let zero = Expr::constant(0, e.ty);
            let ne = self.float_expr(FloatOp::Ne, vec![e, zero], int);
            return self.cast(ne, to);
        }
        self.float_expr(FloatOp::Convert, vec![e], to)
    }

    /// A binary operator on floating operands (after the usual arithmetic conversions).
    pub(crate) fn float_binary(&mut self, op: BinOp, a: Expr, b: Expr, ty: TypeId) -> Expr {
        let fop = match op {
            BinOp::Add => Some(FloatOp::Add),
            BinOp::Sub => Some(FloatOp::Sub),
            BinOp::Mul => Some(FloatOp::Mul),
            BinOp::SDiv | BinOp::UDiv => Some(FloatOp::Div),
            BinOp::Eq => Some(FloatOp::Eq),
            BinOp::Ne => Some(FloatOp::Ne),
            BinOp::SLt | BinOp::ULt => Some(FloatOp::Lt),
            BinOp::SLe | BinOp::ULe => Some(FloatOp::Le),
            BinOp::SGt | BinOp::UGt => Some(FloatOp::Gt),
            BinOp::SGe | BinOp::UGe => Some(FloatOp::Ge),
            _ => None,
        };
        let exact = a.ty == b.ty && float_bits(&self.types, a.ty).is_some();
        match fop {
            Some(f) if exact => self.float_expr(f, vec![a, b], ty),
            _ => self.float_op(ty, op.is_comparison()),
        }
    }

    /// A unary operator on a floating operand.
    pub(crate) fn float_unary(&mut self, op: UnOp, a: Expr, ty: TypeId) -> Expr {
        if float_bits(&self.types, a.ty).is_none() {
            return self.float_op(ty, op == UnOp::LogNot);
        }
        match op {
            UnOp::Neg => self.float_expr(FloatOp::Neg, vec![a], ty),
            UnOp::LogNot => {
                let zero = Expr::constant(0, a.ty);
                self.float_expr(FloatOp::Eq, vec![a, zero], ty)
            }
            UnOp::BitNot => self.float_op(ty, false),
        }
    }
}
