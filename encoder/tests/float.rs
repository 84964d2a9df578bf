//! Floating-point circuits against Rust's `f32`/`f64` (IEEE-754, round to nearest even, as
//! the x86-64 SSE instructions compute them): special values, denormals, ties, cancellations
//! and random operands, through constant folding (many cases) and through the solver.

mod common;

use common::Rng;
use encoder::{BitVec, Encoder, FloatFormat};
use solver_glue::{Lit, SolveResult};

/// A value of a format given by its bits, with the operations the tests compare.
trait Fmt: Copy + PartialOrd + std::fmt::Debug {
    const FORMAT: FloatFormat;
    const FRACTION: u32;
    fn from_u64(b: u64) -> Self;
    fn to_u64(self) -> u64;
    fn is_nan(self) -> bool;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn to_f64(self) -> f64;
}

impl Fmt for f32 {
    const FORMAT: FloatFormat = FloatFormat::SINGLE;
    const FRACTION: u32 = 23;
    fn from_u64(b: u64) -> Self {
        f32::from_bits(b as u32)
    }
    fn to_u64(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn sub(self, o: Self) -> Self {
        self - o
    }
    fn mul(self, o: Self) -> Self {
        self * o
    }
    fn div(self, o: Self) -> Self {
        self / o
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Fmt for f64 {
    const FORMAT: FloatFormat = FloatFormat::DOUBLE;
    const FRACTION: u32 = 52;
    fn from_u64(b: u64) -> Self {
        f64::from_bits(b)
    }
    fn to_u64(self) -> u64 {
        self.to_bits()
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn sub(self, o: Self) -> Self {
        self - o
    }
    fn mul(self, o: Self) -> Self {
        self * o
    }
    fn div(self, o: Self) -> Self {
        self / o
    }
    fn to_f64(self) -> f64 {
        self
    }
}

fn width<T: Fmt>() -> u32 {
    T::FORMAT.width()
}

fn quiet<T: Fmt>(b: u64) -> u64 {
    b | 1 << (T::FRACTION - 1)
}

fn default_nan<T: Fmt>() -> u64 {
    let w = width::<T>();
    let exp_ones = ((1u64 << (w - 1 - T::FRACTION)) - 1) << T::FRACTION;
    1 << (w - 1) | exp_ones | 1 << (T::FRACTION - 1)
}

/// The bits an SSE instruction returns: the exact IEEE result, with NaN operands propagated
/// (the first one when both are NaNs) and the default NaN for invalid operations.
fn nan_rule<T: Fmt>(a: T, b: T, r: T) -> u64 {
    if !r.is_nan() {
        r.to_u64()
    } else if a.is_nan() {
        quiet::<T>(a.to_u64())
    } else if b.is_nan() {
        quiet::<T>(b.to_u64())
    } else {
        default_nan::<T>()
    }
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Eq,
    Lt,
    Le,
    Neg,
}

const OPS: [Op; 8] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Div,
    Op::Eq,
    Op::Lt,
    Op::Le,
    Op::Neg,
];

fn reference<T: Fmt>(op: Op, a: u64, b: u64) -> u64 {
    let (x, y) = (T::from_u64(a), T::from_u64(b));
    match op {
        Op::Add => nan_rule(x, y, x.add(y)),
        Op::Sub => nan_rule(x, y, x.sub(y)),
        Op::Mul => nan_rule(x, y, x.mul(y)),
        Op::Div => nan_rule(x, y, x.div(y)),
        Op::Eq => u64::from(x == y),
        Op::Lt => u64::from(x < y),
        Op::Le => u64::from(x <= y),
        Op::Neg => a ^ 1 << (width::<T>() - 1),
    }
}

fn build<T: Fmt>(enc: &mut Encoder, op: Op, a: &BitVec, b: &BitVec) -> BitVec {
    let f = T::FORMAT;
    let pred = |l: Lit| BitVec::from_bits(vec![l]);
    match op {
        Op::Add => enc.fp_add(f, a, b),
        Op::Sub => enc.fp_sub(f, a, b),
        Op::Mul => enc.fp_mul(f, a, b),
        Op::Div => enc.fp_div(f, a, b),
        Op::Eq => pred(enc.fp_eq(f, a, b)),
        Op::Lt => pred(enc.fp_lt(f, a, b)),
        Op::Le => pred(enc.fp_le(f, a, b)),
        Op::Neg => enc.fp_neg(f, a),
    }
}

/// Bits of a value worth testing: specials, the edges of the denormal and normal ranges,
/// small integers, and random patterns.
fn interesting<T: Fmt>(rng: &mut Rng) -> u64 {
    let w = width::<T>();
    let fr = T::FRACTION;
    let sign = if rng.chance(50) { 1u64 << (w - 1) } else { 0 };
    let exp_max = (1u64 << (w - 1 - fr)) - 1;
    let frac_mask = (1u64 << fr) - 1;
    let r = rng.next_u64();
    let pick = |e: u64| (e << fr) | (r & frac_mask);
    let v = match rng.below(12) {
        0 => [
            0,
            1,
            frac_mask,
            1 << fr,
            exp_max << fr,
            (exp_max << fr) | 1,
            (exp_max << fr) | 1 << (fr - 1),
            ((exp_max - 1) << fr) | frac_mask,
            (exp_max / 2) << fr,
        ][rng.below(9)],
        // Denormals.
        1 => rng.next_u64() & frac_mask,
        // Small integers and halves (ties in conversions and sums).
        2 => {
            T::from_u64(0).to_u64() | {
                let k = (rng.below(64) as f64) / 2.0;
                if w == 32 {
                    u64::from((k as f32).to_bits())
                } else {
                    k.to_bits()
                }
            }
        }
        // Near the overflow and underflow thresholds.
        3 => pick(exp_max - 1 - rng.below(3) as u64),
        4 => pick(1 + rng.below(3) as u64),
        // Short significands (exact products, ties).
        5 => {
            let e = 1 + rng.next_u64() % (exp_max - 1);
            let keep = rng.below(6) as u32;
            (e << fr) | ((rng.next_u64() & frac_mask) >> (fr - keep) << (fr - keep))
        }
        6 => pick(exp_max),
        _ => pick(1 + rng.next_u64() % (exp_max - 1)),
    };
    v | sign
}

/// A second operand related to `a`: near its exponent (cancellation, alignment by a few
/// bits, ties of the sum), or independent.
fn related<T: Fmt>(rng: &mut Rng, a: u64) -> u64 {
    let w = width::<T>();
    let fr = T::FRACTION;
    let exp_max = (1u64 << (w - 1 - fr)) - 1;
    let frac_mask = (1u64 << fr) - 1;
    match rng.below(4) {
        0 => interesting::<T>(rng),
        1 => {
            // Within a few units in the last place of ±a.
            let d = rng.below(5) as u64;
            let v = if rng.chance(50) {
                a.wrapping_add(d)
            } else {
                a.wrapping_sub(d)
            };
            (v ^ if rng.chance(50) { 1 << (w - 1) } else { 0 }) & ((1u64 << w) - 1)
        }
        _ => {
            let e = (a >> fr) & exp_max;
            let delta = rng.below(2 * fr as usize + 8) as i64 - 4;
            let ne = (e as i64 - delta).clamp(0, exp_max as i64 - 1) as u64;
            let frac = match rng.below(3) {
                0 => 0,
                1 => 1 << rng.below(fr as usize),
                _ => rng.next_u64() & frac_mask,
            };
            let sign = if rng.chance(50) { 1u64 << (w - 1) } else { 0 };
            sign | ne << fr | frac
        }
    }
}

fn fold_ops<T: Fmt>(seed: u64, per_op: usize) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for op in OPS {
        let mut solver = common::solver();
        let mut enc = Encoder::new(&mut *solver);
        let before = enc.counters();
        for _ in 0..per_op {
            let x = interesting::<T>(&mut rng);
            let y = related::<T>(&mut rng, x);
            let (x, y) = if rng.chance(50) { (x, y) } else { (y, x) };
            let a = enc.bv_const(width::<T>(), x);
            let b = enc.bv_const(width::<T>(), y);
            let out = build::<T>(&mut enc, op, &a, &b);
            let expected = reference::<T>(op, x, y);
            assert_eq!(
                enc.bv_const_value(&out),
                Some(expected),
                "{op:?} {:?} {:?} ({x:#x}, {y:#x})",
                T::from_u64(x),
                T::from_u64(y)
            );
            checked += 1;
        }
        assert_eq!(enc.counters(), before, "constants fold without gates");
    }
    checked
}

#[test]
fn single_ops_fold_like_rust_f32() {
    assert_eq!(fold_ops::<f32>(0xf1_0a7, 20_000), 8 * 20_000);
}

#[test]
fn double_ops_fold_like_rust_f64() {
    assert_eq!(fold_ops::<f64>(0xd0_0b1e, 6_000), 8 * 6_000);
}

/// Every pair of a list of special and edge values.
fn all_pairs_of_edges<T: Fmt>() -> usize {
    let w = width::<T>();
    let fr = T::FRACTION;
    let exp_max = (1u64 << (w - 1 - fr)) - 1;
    let frac_mask = (1u64 << fr) - 1;
    let mut vals = vec![
        0,
        1,
        2,
        3,
        frac_mask,
        frac_mask - 1,
        1 << fr,
        (1 << fr) | 1,
        (exp_max / 2) << fr,
        ((exp_max / 2) << fr) | 1,
        ((exp_max / 2) << fr) | frac_mask,
        ((exp_max / 2 + 1) << fr) | 1 << (fr - 1),
        ((exp_max - 1) << fr) | frac_mask,
        (exp_max - 1) << fr,
        exp_max << fr,
        (exp_max << fr) | 1,
        (exp_max << fr) | 1 << (fr - 1),
        (exp_max << fr) | 5,
    ];
    let neg: Vec<u64> = vals.iter().map(|v| v | 1 << (w - 1)).collect();
    vals.extend(neg);
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let mut checked = 0;
    for op in OPS {
        for &x in &vals {
            for &y in &vals {
                let a = enc.bv_const(w, x);
                let b = enc.bv_const(w, y);
                let out = build::<T>(&mut enc, op, &a, &b);
                assert_eq!(
                    enc.bv_const_value(&out),
                    Some(reference::<T>(op, x, y)),
                    "{op:?} ({x:#x}, {y:#x})"
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn every_pair_of_edge_values() {
    assert_eq!(all_pairs_of_edges::<f32>(), 8 * 36 * 36);
    assert_eq!(all_pairs_of_edges::<f64>(), 8 * 36 * 36);
}

fn fix(v: &BitVec, value: u64) -> Vec<Lit> {
    v.bits()
        .iter()
        .enumerate()
        .map(|(i, &l)| if (value >> i) & 1 == 1 { l } else { !l })
        .collect()
}

/// The circuits on fresh inputs, solved under assumptions fixing them.
fn through_solver<T: Fmt>(seed: u64, per_op: usize) -> usize {
    let mut rng = Rng::new(seed);
    let w = width::<T>();
    let mut checked = 0;
    for op in OPS {
        let mut solver = common::solver();
        let mut enc = Encoder::new(&mut *solver);
        let a = enc.bv_fresh(w);
        let b = enc.bv_fresh(w);
        let out = build::<T>(&mut enc, op, &a, &b);
        for _ in 0..per_op {
            let x = interesting::<T>(&mut rng);
            let y = related::<T>(&mut rng, x);
            let mut assume = fix(&a, x);
            assume.extend(fix(&b, y));
            assert_eq!(enc.solver().solve(&assume), SolveResult::Sat);
            assert_eq!(
                enc.bv_value_u64(&out),
                reference::<T>(op, x, y),
                "{op:?} ({x:#x}, {y:#x})"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn single_ops_through_the_solver() {
    assert_eq!(through_solver::<f32>(11, 60), 8 * 60);
}

#[test]
fn double_ops_through_the_solver() {
    assert_eq!(through_solver::<f64>(12, 15), 8 * 15);
}

/// The solver finds operands for a given result: a quotient that must be exactly 0.1f and a
/// sum that must be a denormal (the circuits work backwards too).
#[test]
fn solver_inverts_division_and_addition() {
    let f = FloatFormat::SINGLE;
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let a = enc.bv_fresh(32);
    let three = enc.bv_const(32, u64::from(3.0f32.to_bits()));
    let q = enc.fp_div(f, &a, &three);
    let target = enc.bv_const(32, u64::from(0.1f32.to_bits()));
    let hit = enc.bv_eq(&q, &target);
    assert_eq!(enc.solver().solve(&[hit]), SolveResult::Sat);
    let x = f32::from_bits(enc.bv_value_u64(&a) as u32);
    assert_eq!(x / 3.0, 0.1f32, "model {x}");
    let b = enc.bv_fresh(32);
    let s = enc.fp_add(f, &a, &b);
    let exp = BitVec::from_bits(s.bits()[23..31].to_vec());
    let zero_exp = !enc.bv_nonzero(&exp);
    let frac_nz = enc.bv_nonzero(&BitVec::from_bits(s.bits()[..23].to_vec()));
    let a_big = enc.bv_const(32, u64::from((1.5 * f32::MIN_POSITIVE).to_bits()));
    let a_is = enc.bv_eq(&a, &a_big);
    assert_eq!(
        enc.solver().solve(&[zero_exp, frac_nz, a_is]),
        SolveResult::Sat
    );
    let y = f32::from_bits(enc.bv_value_u64(&b) as u32);
    let sum = 1.5 * f32::MIN_POSITIVE + y;
    assert!(sum.is_subnormal() && sum != 0.0, "+ {y} = {sum}");
}

fn int_values(rng: &mut Rng, w: u32) -> u64 {
    let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let v = match rng.below(6) {
        0 => [0, 1, m, m >> 1, (m >> 1) + 1, 2, m - 1][rng.below(7)],
        // Around 2^24 and 2^53: the first integers a float / double rounds.
        1 => ((1u64 << 24) + rng.below(8) as u64).wrapping_sub(3),
        2 => ((1u64 << 53) + rng.below(8) as u64).wrapping_sub(3),
        3 => rng.next_u64() >> rng.below(64),
        _ => rng.next_u64(),
    };
    v & m
}

fn sext(v: u64, w: u32) -> i64 {
    ((v << (64 - w)) as i64) >> (64 - w)
}

#[test]
fn integers_to_float_and_double_round_like_rust() {
    let mut rng = Rng::new(99);
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let mut checked = 0;
    for w in [8u32, 16, 32, 64] {
        for signed in [false, true] {
            for _ in 0..3000 {
                let v = int_values(&mut rng, w);
                let bv = enc.bv_const(w, v);
                let (e32, e64) = if signed {
                    let s = sext(v, w);
                    ((s as f32).to_bits() as u64, (s as f64).to_bits())
                } else {
                    ((v as f32).to_bits() as u64, (v as f64).to_bits())
                };
                let r = enc.fp_from_int(FloatFormat::SINGLE, &bv, signed);
                assert_eq!(enc.bv_const_value(&r), Some(e32), "w={w} s={signed} {v}");
                let r = enc.fp_from_int(FloatFormat::DOUBLE, &bv, signed);
                assert_eq!(enc.bv_const_value(&r), Some(e64), "w={w} s={signed} {v}");
                checked += 2;
            }
        }
    }
    assert_eq!(checked, 4 * 2 * 3000 * 2);
}

/// The exact result of truncating `v` to an integer of `w` bits, or None when out of range.
fn trunc_ref(v: f64, w: u32, signed: bool) -> Option<u64> {
    if v.is_nan() {
        return None;
    }
    let t = v.trunc();
    let (lo, hi) = if signed {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
    } else {
        (0.0, 2f64.powi(w as i32))
    };
    if !(t >= lo && t < hi) {
        return None;
    }
    let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    Some(if signed { t as i64 as u64 } else { t as u64 } & m)
}

fn to_int_cases<T: Fmt>(seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let mut checked = 0;
    for w in [8u32, 16, 32, 64] {
        for signed in [false, true] {
            for i in 0..3000 {
                let bits = if i % 2 == 0 {
                    interesting::<T>(&mut rng)
                } else {
                    // Values of the integer's magnitude, and just past its limits.
                    let k =
                        sext(int_values(&mut rng, w), w) as f64 + (rng.below(5) as f64 - 2.0) / 4.0;
                    T::from_u64(if width::<T>() == 32 {
                        u64::from((k as f32).to_bits())
                    } else {
                        k.to_bits()
                    })
                    .to_u64()
                };
                let x = enc.bv_const(width::<T>(), bits);
                let (v, out) = enc.fp_to_int(T::FORMAT, &x, w, signed);
                let expect = trunc_ref(T::from_u64(bits).to_f64(), w, signed);
                assert_eq!(
                    enc.const_value(out),
                    Some(expect.is_none()),
                    "{:?} w={w} s={signed}",
                    T::from_u64(bits)
                );
                if let Some(e) = expect {
                    assert_eq!(
                        enc.bv_const_value(&v),
                        Some(e),
                        "{:?} w={w}",
                        T::from_u64(bits)
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn float_and_double_to_integers_truncate_and_flag_out_of_range() {
    assert_eq!(to_int_cases::<f32>(5), 4 * 2 * 3000);
    assert_eq!(to_int_cases::<f64>(6), 4 * 2 * 3000);
}

#[test]
fn float_double_conversions_like_rust() {
    let mut rng = Rng::new(7);
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let (s, d) = (FloatFormat::SINGLE, FloatFormat::DOUBLE);
    for _ in 0..20_000 {
        let x = interesting::<f32>(&mut rng);
        let v = f32::from_bits(x as u32);
        let expect = if v.is_nan() {
            // Sign, the fraction at the top, quiet.
            (x >> 31) << 63 | 0x7ff << 52 | (x & 0x7f_ffff) << 29 | 1 << 51
        } else {
            f64::from(v).to_bits()
        };
        let a = enc.bv_const(32, x);
        let r = enc.fp_convert(s, d, &a);
        assert_eq!(enc.bv_const_value(&r), Some(expect), "{v:?}");
        let y = interesting::<f64>(&mut rng);
        let v = f64::from_bits(y);
        let expect = if v.is_nan() {
            (y >> 63) << 31 | 0xff << 23 | (y >> 29 & 0x7f_ffff) | 1 << 22
        } else {
            u64::from((v as f32).to_bits())
        };
        let a = enc.bv_const(64, y);
        let r = enc.fp_convert(d, s, &a);
        assert_eq!(enc.bv_const_value(&r), Some(expect), "{v:?}");
    }
    // Doubles just around the float rounding points (ties between two floats).
    for _ in 0..20_000 {
        let f = f32::from_bits(interesting::<f32>(&mut rng) as u32);
        if !f.is_finite() {
            continue;
        }
        let y = f64::from(f)
            .to_bits()
            .wrapping_add((1 << 28) + rng.below(3) as u64 - 1);
        let v = f64::from_bits(y);
        let a = enc.bv_const(64, y);
        let r = enc.fp_convert(d, s, &a);
        if !v.is_nan() {
            assert_eq!(
                enc.bv_const_value(&r),
                Some(u64::from((v as f32).to_bits())),
                "{v:?}"
            );
        }
    }
}

#[test]
fn nan_choice_is_flagged_only_for_two_different_nans() {
    let f = FloatFormat::SINGLE;
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let cases = [
        (0x7fc0_0000u64, 0x7fc0_0001u64, true),
        (0x7fc0_0000, 0x7f80_0000, false),
        (0x7fc0_0001, 0x7f80_0001, false),
        (0x7fc0_0000, 0x7f80_0001, true),
        (0xffc0_0000, 0x7fc0_0000, true),
        (0x3f80_0000, 0x7fc0_0001, false),
    ];
    for (x, y, want) in cases {
        let a = enc.bv_const(32, x);
        let b = enc.bv_const(32, y);
        let l = enc.fp_nan_choice_matters(f, &a, &b);
        assert_eq!(enc.const_value(l), Some(want), "{x:#x} {y:#x}");
    }
}
