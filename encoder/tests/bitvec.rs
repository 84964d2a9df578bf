//! Bit-vector circuits against Rust's integer arithmetic: exhaustive at small widths (through
//! the solver and through constant folding), random at 32 bits, plus structural hashing.

mod common;

use common::Rng;
use encoder::{BitVec, Encoder};
use solver_glue::{Lit, SolveResult};

fn mask(w: u32) -> u64 {
    if w == 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

fn sx(a: u64, w: u32) -> i64 {
    ((a << (64 - w)) as i64) >> (64 - w)
}

#[derive(Copy, Clone, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Shl,
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
}

const OPS: [Op; 18] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Udiv,
    Op::Urem,
    Op::Sdiv,
    Op::Srem,
    Op::Shl,
    Op::Lshr,
    Op::Ashr,
    Op::And,
    Op::Or,
    Op::Xor,
    Op::Eq,
    Op::Ult,
    Op::Ule,
    Op::Slt,
    Op::Sle,
];

/// The expected result (masked to the result width: 1 bit for predicates).
fn reference(op: Op, a: u64, b: u64, w: u32) -> u64 {
    let m = mask(w);
    let (sa, sb) = (sx(a, w), sx(b, w));
    let r = match op {
        Op::Add => a.wrapping_add(b),
        Op::Sub => a.wrapping_sub(b),
        Op::Mul => a.wrapping_mul(b),
        Op::Udiv => a.checked_div(b).unwrap_or(m),
        Op::Urem => a.checked_rem(b).unwrap_or(a),
        Op::Sdiv => match sa.checked_div(sb) {
            Some(q) => q as u64,
            None if sb == 0 => (if sa < 0 { 1i64 } else { -1 }) as u64,
            None => sa.wrapping_div(sb) as u64,
        },
        Op::Srem => match sa.checked_rem(sb) {
            Some(r) => r as u64,
            None if sb == 0 => a,
            None => sa.wrapping_rem(sb) as u64,
        },
        Op::Shl => {
            if b >= u64::from(w) {
                0
            } else {
                a << b
            }
        }
        Op::Lshr => {
            if b >= u64::from(w) {
                0
            } else {
                a >> b
            }
        }
        Op::Ashr => (sa >> b.min(63)) as u64,
        Op::And => a & b,
        Op::Or => a | b,
        Op::Xor => a ^ b,
        Op::Eq => u64::from(a == b),
        Op::Ult => u64::from(a < b),
        Op::Ule => u64::from(a <= b),
        Op::Slt => u64::from(sa < sb),
        Op::Sle => u64::from(sa <= sb),
    };
    r & m
}

fn build(enc: &mut Encoder, op: Op, a: &BitVec, b: &BitVec) -> BitVec {
    let pred = |_: &mut Encoder, l: Lit| BitVec::from_bits(vec![l]);
    match op {
        Op::Add => enc.bv_add(a, b),
        Op::Sub => enc.bv_sub(a, b),
        Op::Mul => enc.bv_mul(a, b),
        Op::Udiv => enc.bv_udiv(a, b),
        Op::Urem => enc.bv_urem(a, b),
        Op::Sdiv => enc.bv_sdiv(a, b),
        Op::Srem => enc.bv_srem(a, b),
        Op::Shl => enc.bv_shl(a, b),
        Op::Lshr => enc.bv_lshr(a, b),
        Op::Ashr => enc.bv_ashr(a, b),
        Op::And => enc.bv_and(a, b),
        Op::Or => enc.bv_or(a, b),
        Op::Xor => enc.bv_xor(a, b),
        Op::Eq => {
            let l = enc.bv_eq(a, b);
            pred(enc, l)
        }
        Op::Ult => {
            let l = enc.bv_ult(a, b);
            pred(enc, l)
        }
        Op::Ule => {
            let l = enc.bv_ule(a, b);
            pred(enc, l)
        }
        Op::Slt => {
            let l = enc.bv_slt(a, b);
            pred(enc, l)
        }
        Op::Sle => {
            let l = enc.bv_sle(a, b);
            pred(enc, l)
        }
    }
}

/// Assumptions fixing `v` to `value`.
fn fix(v: &BitVec, value: u64) -> Vec<Lit> {
    v.bits()
        .iter()
        .enumerate()
        .map(|(i, &l)| if (value >> i) & 1 == 1 { l } else { !l })
        .collect()
}

/// Every op, every input pair at width `w`, through the solver: the model value matches and no
/// output bit can take the other value.
fn exhaustive_via_solver(w: u32) -> usize {
    let mut checked = 0;
    for op in OPS {
        let mut solver = common::solver();
        let mut enc = Encoder::new(&mut *solver);
        let a = enc.bv_fresh(w);
        let b = enc.bv_fresh(w);
        let out = build(&mut enc, op, &a, &b);
        for x in 0..1u64 << w {
            for y in 0..1u64 << w {
                let expected = reference(op, x, y, w);
                let mut assume = fix(&a, x);
                assume.extend(fix(&b, y));
                assert_eq!(enc.solver().solve(&assume), SolveResult::Sat);
                let got = enc.bv_value_u64(&out);
                assert_eq!(got, expected, "{op:?} w={w} a={x} b={y}");
                for (i, &bit) in out.bits().iter().enumerate() {
                    let mut flipped = assume.clone();
                    flipped.push(if (expected >> i) & 1 == 1 { !bit } else { bit });
                    assert_eq!(
                        enc.solver().solve(&flipped),
                        SolveResult::Unsat,
                        "{op:?} w={w} a={x} b={y}: bit {i} not determined"
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn every_op_every_pair_width_4_through_the_solver() {
    assert_eq!(exhaustive_via_solver(4), 18 * 256);
}

#[test]
fn every_op_every_pair_width_3_through_the_solver() {
    assert_eq!(exhaustive_via_solver(3), 18 * 64);
}

/// Constant inputs must fold to constant outputs without touching the solver.
#[test]
fn every_op_every_pair_folds_on_constants_widths_1_to_6() {
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let before = enc.counters();
    let mut checked = 0;
    for w in 1..=6u32 {
        for op in OPS {
            for x in 0..1u64 << w {
                for y in 0..1u64 << w {
                    let a = enc.bv_const(w, x);
                    let b = enc.bv_const(w, y);
                    let out = build(&mut enc, op, &a, &b);
                    assert_eq!(
                        enc.bv_const_value(&out),
                        Some(reference(op, x, y, w)),
                        "{op:?} w={w} a={x} b={y}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(
        enc.counters(),
        before,
        "folding on constants must add nothing"
    );
    assert_eq!(checked, 18 * (4 + 16 + 64 + 256 + 1024 + 4096));
}

/// Width 8 against Rust's own u8/i8 operations (folding path).
#[test]
fn width_8_folds_like_rust_u8_i8() {
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    for x in 0..=255u8 {
        for y in 0..=255u8 {
            let (sx8, sy8) = (x as i8, y as i8);
            let a = enc.bv_const(8, u64::from(x));
            let b = enc.bv_const(8, u64::from(y));
            let val = |enc: &Encoder, v: &BitVec| enc.bv_const_value(v).unwrap() as u8;
            let r = enc.bv_add(&a, &b);
            assert_eq!(val(&enc, &r), x.wrapping_add(y));
            let r = enc.bv_sub(&a, &b);
            assert_eq!(val(&enc, &r), x.wrapping_sub(y));
            let r = enc.bv_mul(&a, &b);
            assert_eq!(val(&enc, &r), x.wrapping_mul(y));
            if let (Some(q), Some(rem)) = (x.checked_div(y), x.checked_rem(y)) {
                let r = enc.bv_udiv(&a, &b);
                assert_eq!(val(&enc, &r), q);
                let r = enc.bv_urem(&a, &b);
                assert_eq!(val(&enc, &r), rem);
                let r = enc.bv_sdiv(&a, &b);
                assert_eq!(val(&enc, &r) as i8, sx8.wrapping_div(sy8));
                let r = enc.bv_srem(&a, &b);
                assert_eq!(val(&enc, &r) as i8, sx8.wrapping_rem(sy8));
            }
            if y < 8 {
                let r = enc.bv_shl(&a, &b);
                assert_eq!(val(&enc, &r), x << y);
                let r = enc.bv_lshr(&a, &b);
                assert_eq!(val(&enc, &r), x >> y);
                let r = enc.bv_ashr(&a, &b);
                assert_eq!(val(&enc, &r) as i8, sx8 >> y);
            }
            let l = enc.bv_slt(&a, &b);
            assert_eq!(enc.const_value(l), Some(sx8 < sy8));
            let l = enc.bv_ule(&a, &b);
            assert_eq!(enc.const_value(l), Some(x <= y));
        }
    }
}

#[test]
fn unary_ops_and_conversions_width_4_through_the_solver() {
    let w = 4;
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let a = enc.bv_fresh(w);
    let c = enc.new_lit();
    let b = enc.bv_fresh(w);
    let neg = enc.bv_neg(&a);
    let not = enc.bv_not(&a);
    let nz = enc.bv_nonzero(&a);
    let zx = enc.bv_zero_extend(&a, 7);
    let sxt = enc.bv_sign_extend(&a, 7);
    let tr = enc.bv_truncate(&a, 3);
    let ite = enc.bv_ite(c, &a, &b);
    let asb = enc.bv_from_bool(nz, 5);
    for x in 0..16u64 {
        for y in 0..16u64 {
            for cv in [false, true] {
                let mut assume = fix(&a, x);
                assume.extend(fix(&b, y));
                assume.push(if cv { c } else { !c });
                assert_eq!(enc.solver().solve(&assume), SolveResult::Sat);
                assert_eq!(enc.bv_value_u64(&neg), x.wrapping_neg() & 15);
                assert_eq!(enc.bv_value_u64(&not), !x & 15);
                assert_eq!(enc.value(nz), x != 0);
                assert_eq!(enc.bv_value_u64(&zx), x);
                assert_eq!(enc.bv_value_i64(&sxt), sx(x, 4));
                assert_eq!(enc.bv_value_u64(&tr), x & 7);
                assert_eq!(enc.bv_value_u64(&ite), if cv { x } else { y });
                assert_eq!(enc.bv_value_u64(&asb), u64::from(x != 0));
                assert_eq!(enc.bv_value_i64(&a), sx(x, 4));
            }
        }
    }
}

/// Shift amounts wider and narrower than the shifted value.
#[test]
fn shifts_with_other_amount_widths() {
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    for w in 1..=5u32 {
        for aw in 1..=7u32 {
            for x in 0..1u64 << w {
                for s in 0..1u64 << aw {
                    let a = enc.bv_const(w, x);
                    let amt = enc.bv_const(aw, s);
                    let r = enc.bv_shl(&a, &amt);
                    assert_eq!(enc.bv_const_value(&r), Some(reference(Op::Shl, x, s, w)));
                    let r = enc.bv_lshr(&a, &amt);
                    assert_eq!(enc.bv_const_value(&r), Some(reference(Op::Lshr, x, s, w)));
                    let r = enc.bv_ashr(&a, &amt);
                    assert_eq!(enc.bv_const_value(&r), Some(reference(Op::Ashr, x, s, w)));
                }
            }
        }
    }
}

fn interesting(rng: &mut Rng, w: u32) -> u64 {
    let m = mask(w);
    match rng.below(8) {
        0 => [0, 1, m, m >> 1, (m >> 1) + 1, 2, m - 1][rng.below(7)],
        1 => rng.next_u64() % 40,
        2 => m - rng.next_u64() % 40,
        _ => rng.next_u64() & m,
    }
}

#[test]
fn random_32_bit_pairs_through_the_solver() {
    let w = 32;
    let mut rng = Rng::new(0x5eed_0032);
    let mut checked = 0;
    for op in OPS {
        let mut solver = common::solver();
        let mut enc = Encoder::new(&mut *solver);
        let a = enc.bv_fresh(w);
        let b = enc.bv_fresh(w);
        let out = build(&mut enc, op, &a, &b);
        for _ in 0..150 {
            let x = interesting(&mut rng, w);
            let mut y = interesting(&mut rng, w);
            if matches!(op, Op::Shl | Op::Lshr | Op::Ashr) && rng.chance(70) {
                y %= 40;
            }
            let mut assume = fix(&a, x);
            assume.extend(fix(&b, y));
            assert_eq!(enc.solver().solve(&assume), SolveResult::Sat);
            assert_eq!(
                enc.bv_value_u64(&out),
                reference(op, x, y, w),
                "{op:?} a={x:#x} b={y:#x}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 18 * 150);
}

/// 32-bit results also match Rust's native i32/u32 arithmetic.
#[test]
fn random_32_bit_matches_native_i32() {
    let mut rng = Rng::new(77);
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let a = enc.bv_fresh(32);
    let b = enc.bv_fresh(32);
    let q = enc.bv_sdiv(&a, &b);
    let r = enc.bv_srem(&a, &b);
    let p = enc.bv_mul(&a, &b);
    for _ in 0..200 {
        let x = interesting(&mut rng, 32) as u32;
        let y = interesting(&mut rng, 32) as u32;
        if y == 0 {
            continue;
        }
        let mut assume = fix(&a, u64::from(x));
        assume.extend(fix(&b, u64::from(y)));
        assert_eq!(enc.solver().solve(&assume), SolveResult::Sat);
        assert_eq!(
            enc.bv_value_i64(&q) as i32,
            (x as i32).wrapping_div(y as i32)
        );
        assert_eq!(
            enc.bv_value_i64(&r) as i32,
            (x as i32).wrapping_rem(y as i32)
        );
        assert_eq!(enc.bv_value_u64(&p) as u32, x.wrapping_mul(y));
    }
}

/// The solver can run a circuit backwards: find a factorisation.
#[test]
fn solver_inverts_a_multiplication() {
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let a = enc.bv_fresh(16);
    let b = enc.bv_fresh(16);
    let p = enc.bv_mul(&a, &b);
    let target = enc.bv_const(16, 143);
    let hit = enc.bv_eq(&p, &target);
    let one = enc.bv_const(16, 1);
    let lim = enc.bv_const(16, 256);
    let a_big = enc.bv_ult(&one, &a);
    let b_big = enc.bv_ult(&one, &b);
    let a_small = enc.bv_ult(&a, &lim);
    let b_small = enc.bv_ult(&b, &lim);
    for l in [hit, a_big, b_big, a_small, b_small] {
        enc.assert_lit(l);
    }
    assert_eq!(enc.solver().solve(&[]), SolveResult::Sat);
    let (x, y) = (enc.bv_value_u64(&a), enc.bv_value_u64(&b));
    assert_eq!(x * y, 143);
    assert!(x == 11 || x == 13);
}

#[test]
fn structural_hashing_shares_identical_subterms() {
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let a = enc.bv_fresh(32);
    let b = enc.bv_fresh(32);
    let s1 = enc.bv_add(&a, &b);
    let after_first = enc.counters();
    assert!(after_first.clauses > 0);
    let s2 = enc.bv_add(&a, &b);
    assert_eq!(s1, s2, "a+b built twice must give identical literals");
    assert_eq!(
        enc.counters(),
        after_first,
        "the second a+b must add nothing"
    );
    let s3 = enc.bv_add(&b, &a);
    assert_eq!(s1, s3, "the adder is symmetric under hashing");
    assert_eq!(enc.counters(), after_first);
    let q1 = enc.bv_sdiv(&a, &b);
    let after_div = enc.counters();
    let q2 = enc.bv_sdiv(&a, &b);
    assert_eq!(q1, q2);
    assert_eq!(enc.counters(), after_div);
    assert_eq!(enc.solver().stats().clauses, enc.counters().clauses);
}

#[test]
fn gate_folding_rules() {
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let x = enc.new_lit();
    let y = enc.new_lit();
    let (t, f) = (enc.tru(), enc.fls());
    let before = enc.counters();
    assert_eq!(enc.and(x, t), x);
    assert_eq!(enc.and(x, f), f);
    assert_eq!(enc.and(x, x), x);
    assert_eq!(enc.and(x, !x), f);
    assert_eq!(enc.or(x, !x), t);
    assert_eq!(enc.xor(x, x), f);
    assert_eq!(enc.xor(x, !x), t);
    assert_eq!(enc.xor(x, t), !x);
    assert_eq!(enc.mux(t, x, y), x);
    assert_eq!(enc.mux(x, y, y), y);
    assert_eq!(enc.counters(), before);
    let g = enc.xor(x, y);
    assert_eq!(enc.xor(!x, y), !g);
    assert_eq!(enc.xor(y, !x), !g);
    let m = enc.mux(x, y, !y);
    assert_eq!(m, enc.iff(x, y));
}

/// At-most-one, both the pairwise and the bimander form, on every assignment.
#[test]
fn at_most_one_allows_exactly_the_assignments_with_one_or_no_true_literal() {
    for k in 1..=12usize {
        let mut solver = common::solver();
        let mut enc = Encoder::new(&mut *solver);
        let lits: Vec<Lit> = (0..k).map(|_| enc.new_lit()).collect();
        enc.at_most_one(&lits);
        for bits in 0..1u32 << k {
            let assume: Vec<Lit> = (0..k)
                .map(|i| {
                    if bits >> i & 1 == 1 {
                        lits[i]
                    } else {
                        !lits[i]
                    }
                })
                .collect();
            let sat = enc.solver().solve(&assume) == SolveResult::Sat;
            assert_eq!(sat, bits.count_ones() <= 1, "k={k} bits={bits:b}");
        }
    }
}

/// Division and remainder by a constant divisor (the narrow restoring divider) against Rust,
/// every dividend and every divisor (0 included, which keeps the general circuit) at widths 1
/// to 5, through the solver: the model value matches and no output bit can take the other
/// value.
#[test]
fn division_by_every_constant_widths_1_to_5_through_the_solver() {
    let ops = [Op::Udiv, Op::Urem, Op::Sdiv, Op::Srem];
    let mut checked = 0;
    for w in 1..=5u32 {
        let mut solver = common::solver();
        let mut enc = Encoder::new(&mut *solver);
        let a = enc.bv_fresh(w);
        for y in 0..1u64 << w {
            let b = enc.bv_const(w, y);
            for op in ops {
                let out = build(&mut enc, op, &a, &b);
                for x in 0..1u64 << w {
                    let expected = reference(op, x, y, w);
                    let assume = fix(&a, x);
                    assert_eq!(enc.solver().solve(&assume), SolveResult::Sat);
                    assert_eq!(enc.bv_value_u64(&out), expected, "{op:?} w={w} a={x} b={y}");
                    for (i, &bit) in out.bits().iter().enumerate() {
                        let mut flipped = assume.clone();
                        flipped.push(if (expected >> i) & 1 == 1 { !bit } else { bit });
                        assert_eq!(
                            enc.solver().solve(&flipped),
                            SolveResult::Unsat,
                            "{op:?} w={w} a={x} b={y}: bit {i} not determined"
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 4 * (4 + 16 + 64 + 256 + 1024));
}

/// A 32-bit remainder by a small constant needs a divider only as wide as the divisor: the
/// size is bounded, and the random 32-bit values still match Rust.
#[test]
fn remainder_by_small_constant_is_a_narrow_circuit() {
    let mut rng = Rng::new(0x3e3);
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let a = enc.bv_fresh(32);
    let three = enc.bv_const(32, 3);
    let before = enc.counters();
    let r = enc.bv_urem(&a, &three);
    let size = enc.counters() - before;
    // The full 32-bit divider was 1,984 variables and 7,967 clauses.
    assert!(
        size.vars < 250 && size.clauses < 1000,
        "urem by 3 at 32 bits: {size}"
    );
    let q = enc.bv_udiv(&a, &three);
    let seven = enc.bv_const_signed(32, -7);
    let sr = enc.bv_srem(&a, &seven);
    for _ in 0..100 {
        let x = interesting(&mut rng, 32) as u32;
        assert_eq!(enc.solver().solve(&fix(&a, u64::from(x))), SolveResult::Sat);
        assert_eq!(enc.bv_value_u64(&r) as u32, x % 3);
        assert_eq!(enc.bv_value_u64(&q) as u32, x / 3);
        assert_eq!(enc.bv_value_i64(&sr) as i32, (x as i32).wrapping_rem(-7));
    }
}
