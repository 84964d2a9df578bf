//! Floating point, over-approximated.
//!
//! A floating-point value is a bit pattern of its width (IEEE-754 single or double), stored,
//! copied, passed and returned like any scalar. What is exact:
//! - decimal constants (`0.5`, `1.0E-5f`): their bit pattern, rounded to nearest as a C
//!   compiler does. Under ILP32 (i386, where C evaluates floating constants in the x87's
//!   extended precision, so that a constant may be rounded twice) only a constant whose value
//!   the type represents exactly is exact; any other is an approximated operation;
//! - conversions of constants (integer to floating point rounds to nearest, even on ties;
//!   floating point to integer truncates toward zero when the value fits, else the result is
//!   undefined and approximated);
//! - `__VERIFIER_nondet_float`/`double`: any bit pattern.
//!
//! Every other operation whose operand or result is floating point (arithmetic, comparison,
//! negation, conversion of a value that is not constant, a floating value tested as a
//! condition) gives an arbitrary value of its result type (0 or 1 for a comparison), and
//! marks the execution as over-approximated ([`Approximation::FloatValue`]).
//!
//! Why this is sound: the arbitrary value includes the value the machine computes, whatever
//! its rounding mode and evaluation precision (x87 extended precision under ILP32 included), so
//! the executions modelled include every real execution: when no error is reachable in them,
//! none is in the program, and TRUE holds. The converse does not hold: an error may be
//! reachable only through a value the machine never computes. So an error reached in an
//! execution that evaluated any floating-point operation is no counterexample; the engines
//! answer UNKNOWN for it (the check is the same as for invalid reads, `engine::Checks`). An
//! execution that evaluates none only copies exact values, so its counterexample is real.
//! Floating-point code that cannot influence the error therefore blocks neither verdict when a
//! counterexample avoiding it exists, and never blocks TRUE.

use lang_c::ast::{Float, FloatBase, FloatFormat};
use lang_c::span::Span;

use super::{Lowerer, R};
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
        let exact = match bits {
            32 => represents(text, f32::from_bits(value as u32) as f64),
            _ => represents(text, f64::from_bits(value)),
        };
        if self.types.model == DataModel::Ilp32 && !exact {
            return Ok(self.float_op(ty, false));
        }
        Ok(Expr::constant(value, ty))
    }

    /// Whether an operation on `operands` giving `result` involves floating point.
    pub(crate) fn is_float_op(&self, operands: &[TypeId], result: TypeId) -> bool {
        self.types.is_float(result) || operands.iter().any(|&t| self.types.is_float(t))
    }

    /// The result of a floating-point operation: an arbitrary value of `ty` (0 or 1 when
    /// `boolean`), the execution marked as over-approximated (see the module documentation).
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

    /// A conversion to or from floating point of a constant, when its result is defined.
    pub(crate) fn fold_float_cast(&mut self, v: u64, from: TypeId, to: TypeId) -> Option<u64> {
        let types = &self.types;
        let value: f64 = match types.get(from) {
            Type::Float { bits: 32 } => f32::from_bits(v as u32) as f64,
            Type::Float { bits: 64 } => f64::from_bits(v),
            Type::Int { bits, signed } => {
                let x = if *signed {
                    let sh = 64 - *bits as u32;
                    ((v << sh) as i64 >> sh) as i128
                } else {
                    v as i128
                };
                return match types.get(to) {
                    // Rust's conversions round to nearest, ties to even, as C's do.
                    Type::Float { bits: 32 } => Some((x as f32).to_bits() as u64),
                    Type::Float { bits: 64 } => Some((x as f64).to_bits()),
                    _ => None,
                };
            }
            Type::Bool => {
                return match types.get(to) {
                    Type::Float { bits: 32 } => Some((v as f32).to_bits() as u64),
                    Type::Float { bits: 64 } => Some((v as f64).to_bits()),
                    _ => None,
                }
            }
            _ => return None,
        };
        match types.get(to) {
            Type::Float { bits: 32 } => Some((value as f32).to_bits() as u64),
            Type::Float { bits: 64 } => Some(value.to_bits()),
            Type::Bool => Some((value != 0.0) as u64),
            Type::Int { bits, signed } => {
                let t = value.trunc();
                let (lo, hi) = if *signed {
                    (-(2f64.powi(*bits as i32 - 1)), 2f64.powi(*bits as i32 - 1))
                } else {
                    (0.0, 2f64.powi(*bits as i32))
                };
                if !(t >= lo && t < hi) {
                    return None;
                }
                let mask = if *bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                Some((t as i128 as u64) & mask)
            }
            _ => None,
        }
    }
}

/// Whether the decimal constant `text` (digits, an optional point, an optional exponent) has
/// exactly the value `v` (a finite binary floating-point value, whose decimal expansion is
/// finite and at most 1100 digits long).
fn represents(text: &str, v: f64) -> bool {
    if !v.is_finite() {
        return false;
    }
    let exact = format!("{:.1100e}", v.abs());
    matches!((decimal(text), decimal(&exact)), (Some(a), Some(b)) if a == b)
}

/// A decimal number as its significant digits (no leading or trailing zeros) and the power of
/// ten of the last one; zero is no digits.
fn decimal(text: &str) -> Option<(String, i64)> {
    let (mant, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{int}{frac}");
    let mut exp = exp - frac.len() as i64;
    let trimmed = digits.trim_start_matches('0');
    let sig = trimmed.trim_end_matches('0');
    exp += (trimmed.len() - sig.len()) as i64;
    if sig.is_empty() {
        return Some((String::new(), 0));
    }
    Some((sig.to_string(), exp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_constants_are_recognised() {
        assert!(represents("0.5", 0.5));
        assert!(represents("4.0", 4.0));
        assert!(represents("2.25e0", 2.25));
        assert!(represents("0.0", 0.0));
        assert!(represents("1E3", 1000.0));
        assert!(!represents("0.1", 0.1));
        assert!(!represents("1.0E-5", 1.0e-5));
        assert!(represents("0.100000001490116119384765625", 0.1f32 as f64));
    }
}
