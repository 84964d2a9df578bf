//! The meaning of [`FloatOp`] on concrete values: IEEE-754 binary32 (`float`) and binary64
//! (`double`), each operation rounded to its result type, to nearest, ties to even; this is C
//! with `FLT_EVAL_METHOD` 0, what gcc computes on x86-64 and on i386 with
//! `-msse2 -mfpmath=sse`. NaN results follow x86's SSE instructions: an operation returns its
//! NaN operand made quiet (the first one when both are NaNs), and an invalid operation
//! (∞ − ∞, 0 · ∞, 0 / 0, ∞ / ∞) the default NaN (sign set, only the fraction's top bit set);
//! a conversion from `double` to `float` keeps a NaN's sign and the top of its fraction.
//!
//! C itself does not fix a NaN's bits, and a compiler folding constants may produce other ones
//! than the machine (gcc folds `0.0 / 0.0` to a positive NaN): only a program reading a NaN's
//! bits (through a union or a cast pointer) can tell, and its verdict rests on the SSE choice.
//!
//! Two cases have no single meaning and are [`FloatUndefined`]: a conversion to an integer
//! type that cannot hold the truncated value (undefined in C), and a binary operation on two
//! different NaNs (the result is the first or the second depending on the operand order the
//! compiler chose, which C does not fix for `+` and `*`).
//!
//! Constant folding and the interpreter use this module; the SAT engines use the circuits of
//! `encoder::float`, which compute the same (the tests compare them against these values).
//! Rust's `f32`/`f64` arithmetic is IEEE-754 with rounding to nearest, ties to even, on every
//! target, and so are its integer-to-float conversions (`as`); NaN patterns are set here
//! explicitly, not taken from Rust.

use super::{FloatOp, Type, TypeId, Types};

/// Why a floating-point operation has no defined result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FloatUndefined {
    /// A conversion to an integer type out of its range (a NaN and the infinities are).
    OutOfRange,
    /// Both operands are NaNs with different quiet forms.
    NanChoice,
}

impl FloatUndefined {
    pub fn describe(self) -> &'static str {
        match self {
            FloatUndefined::OutOfRange => {
                "conversion of a floating-point value out of the range of its integer type"
            }
            FloatUndefined::NanChoice => {
                "floating-point operation on two different NaNs (the result depends on the compiler)"
            }
        }
    }
}

/// A concrete value of a float type.
#[derive(Copy, Clone, Debug)]
enum Fv {
    S(f32),
    D(f64),
}

impl Fv {
    fn of(bits: u32, v: u64) -> Fv {
        if bits == 32 {
            Fv::S(f32::from_bits(v as u32))
        } else {
            Fv::D(f64::from_bits(v))
        }
    }
    fn raw(self) -> u64 {
        match self {
            Fv::S(x) => u64::from(x.to_bits()),
            Fv::D(x) => x.to_bits(),
        }
    }
    fn is_nan(self) -> bool {
        match self {
            Fv::S(x) => x.is_nan(),
            Fv::D(x) => x.is_nan(),
        }
    }
    fn quiet(self) -> u64 {
        match self {
            Fv::S(x) => u64::from(x.to_bits() | 1 << 22),
            Fv::D(x) => x.to_bits() | 1 << 51,
        }
    }
    fn as_f64(self) -> f64 {
        match self {
            Fv::S(x) => f64::from(x),
            Fv::D(x) => x,
        }
    }
}

fn default_nan(bits: u32) -> u64 {
    if bits == 32 {
        0xffc0_0000
    } else {
        0xfff8_0000_0000_0000
    }
}

/// The floating type's width (32 or 64), if `t` is one of those.
pub fn float_bits(types: &Types, t: TypeId) -> Option<u32> {
    match types.get(t) {
        Type::Float { bits: 32 } => Some(32),
        Type::Float { bits: 64 } => Some(64),
        _ => None,
    }
}

/// `v` (normalised to its type: sign-extended when signed) as an integer.
fn int_value(types: &Types, v: u64, t: TypeId) -> i128 {
    match types.get(t) {
        Type::Int { signed: true, .. } => v as i64 as i128,
        Type::Bool => (v != 0) as i128,
        _ => v as i128,
    }
}

/// The result of `op` on `args` (each a value and its type, integers normalised to their type
/// as in `ExprKind::Const`) with result type `ty`, as a normalised bit pattern. Operand and
/// result types must be as [`FloatOp`] says (the IR validator checks it).
pub fn eval(
    types: &Types,
    op: FloatOp,
    args: &[(u64, TypeId)],
    ty: TypeId,
) -> Result<u64, FloatUndefined> {
    use FloatOp::*;
    let (a, ta) = args[0];
    if op == Convert {
        return convert(types, a, ta, ty);
    }
    let bits = float_bits(types, ta).expect("floating-point operand");
    let x = Fv::of(bits, a);
    if op == Neg {
        return Ok(a ^ 1 << (bits - 1));
    }
    let y = Fv::of(bits, args[1].0);
    if op.is_comparison() {
        let (p, q) = (x.as_f64(), y.as_f64());
        let r = match op {
            Eq => p == q,
            Ne => p != q,
            Lt => p < q,
            Le => p <= q,
            Gt => p > q,
            _ => p >= q,
        };
        return Ok(r as u64);
    }
    if x.is_nan() && y.is_nan() && x.quiet() != y.quiet() {
        return Err(FloatUndefined::NanChoice);
    }
    let r = match (x, y) {
        (Fv::S(p), Fv::S(q)) => Fv::S(match op {
            Add => p + q,
            Sub => p - q,
            Mul => p * q,
            _ => p / q,
        }),
        (Fv::D(p), Fv::D(q)) => Fv::D(match op {
            Add => p + q,
            Sub => p - q,
            Mul => p * q,
            _ => p / q,
        }),
        _ => unreachable!("operands of one floating type"),
    };
    Ok(if !r.is_nan() {
        r.raw()
    } else if x.is_nan() {
        x.quiet()
    } else if y.is_nan() {
        y.quiet()
    } else {
        default_nan(bits)
    })
}

fn convert(types: &Types, v: u64, from: TypeId, to: TypeId) -> Result<u64, FloatUndefined> {
    match (float_bits(types, from), float_bits(types, to)) {
        (Some(fb), Some(tb)) => {
            let x = Fv::of(fb, v);
            if x.is_nan() {
                let sign = v >> (fb - 1) & 1;
                return Ok(if fb == 32 && tb == 64 {
                    sign << 63 | 0x7ff << 52 | (v & 0x7f_ffff) << 29 | 1 << 51
                } else if fb == 64 && tb == 32 {
                    sign << 31 | 0xff << 23 | (v >> 29 & 0x7f_ffff) | 1 << 22
                } else {
                    x.quiet()
                });
            }
            Ok(match (x, tb) {
                (Fv::S(p), 64) => f64::from(p).to_bits(),
                (Fv::D(p), 32) => u64::from((p as f32).to_bits()),
                _ => v,
            })
        }
        (None, Some(tb)) => {
            let i = int_value(types, v, from);
            Ok(if tb == 32 {
                u64::from((i as f32).to_bits())
            } else {
                (i as f64).to_bits()
            })
        }
        (Some(fb), None) => {
            let x = Fv::of(fb, v).as_f64();
            let (bits, signed) = match types.get(to) {
                Type::Int { bits, signed } => (u32::from(*bits), *signed),
                Type::Bool => return Ok((x != 0.0) as u64),
                _ => return Err(FloatUndefined::OutOfRange),
            };
            if x.is_nan() {
                return Err(FloatUndefined::OutOfRange);
            }
            let t = x.trunc();
            let (lo, hi) = if signed {
                (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
            } else {
                (0.0, 2f64.powi(bits as i32))
            };
            if !(t >= lo && t < hi) {
                return Err(FloatUndefined::OutOfRange);
            }
            // In range: the conversion through i128 is exact.
            let r = t as i128 as u64;
            Ok(normalize(r, bits, signed))
        }
        (None, None) => unreachable!("a conversion with a floating side"),
    }
}

/// `v` truncated to `bits` and extended by `signed` (the form of `ExprKind::Const`).
fn normalize(v: u64, bits: u32, signed: bool) -> u64 {
    if bits >= 64 {
        return v;
    }
    let s = 64 - bits;
    if signed {
        (((v << s) as i64) >> s) as u64
    } else {
        v & ((1u64 << bits) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::DataModel;

    #[test]
    fn nan_rules_and_signed_zero() {
        let mut t = Types::new(DataModel::Lp64);
        let d = t.intern(Type::Float { bits: 64 });
        let nan = f64::NAN.to_bits();
        let inf = f64::INFINITY.to_bits();
        let r = eval(&t, FloatOp::Sub, &[(inf, d), (inf, d)], d);
        assert_eq!(r, Ok(0xfff8_0000_0000_0000));
        let r = eval(&t, FloatOp::Add, &[(nan, d), (1f64.to_bits(), d)], d);
        assert_eq!(r, Ok(nan | 1 << 51));
        let other = nan | 5;
        let r = eval(&t, FloatOp::Mul, &[(nan, d), (other, d)], d);
        assert_eq!(r, Err(FloatUndefined::NanChoice));
        let mz = (-0.0f64).to_bits();
        let r = eval(&t, FloatOp::Add, &[(mz, d), (mz, d)], d);
        assert_eq!(r, Ok(mz));
        let int = t.int32();
        let r = eval(&t, FloatOp::Eq, &[(mz, d), (0, d)], int);
        assert_eq!(r, Ok(1));
        let r = eval(&t, FloatOp::Ne, &[(nan, d), (nan, d)], int);
        assert_eq!(r, Ok(1));
    }

    #[test]
    fn conversions_to_integers_check_the_range() {
        let mut t = Types::new(DataModel::Lp64);
        let f = t.intern(Type::Float { bits: 32 });
        let u8t = t.int(8, false);
        let i8t = t.int(8, true);
        let v = |x: f32| u64::from(x.to_bits());
        assert_eq!(convert(&t, v(255.9), f, u8t), Ok(255));
        assert_eq!(
            convert(&t, v(256.0), f, u8t),
            Err(FloatUndefined::OutOfRange)
        );
        assert_eq!(convert(&t, v(-0.9), f, u8t), Ok(0));
        assert_eq!(
            convert(&t, v(-1.0), f, u8t),
            Err(FloatUndefined::OutOfRange)
        );
        assert_eq!(convert(&t, v(-128.5), f, i8t), Ok(-128i64 as u64));
        assert_eq!(
            convert(&t, v(f32::NAN), f, i8t),
            Err(FloatUndefined::OutOfRange)
        );
        assert_eq!(convert(&t, (-3i64) as u64, i8t, f), Ok(v(-3.0)));
    }
}
