//! Bit vectors as literal vectors and the C operations on them, as circuits.
//!
//! A [`BitVec`] is a list of literals, least significant bit first; its width is fixed and any
//! width ≥ 1 is allowed. The operations are methods of [`Encoder`] named `bv_*`; signedness is
//! part of the operation's name (`bv_udiv` / `bv_sdiv`, `bv_ult` / `bv_slt`, `bv_lshr` /
//! `bv_ashr`), never of the vector. All arithmetic wraps modulo 2^width (two's complement).
//!
//! Binary operands must have equal widths (extend or truncate first); a mismatch is a bug in
//! the caller and panics.
//!
//! Operations whose C result is undefined get a defined result here, so that the circuit is a
//! total function; the caller decides whether the case is a property violation:
//! * division by zero: `udiv(a, 0)` = all ones, `urem(a, 0)` = `a`, `sdiv(a, 0)` = `1` if `a`
//!   is negative else `-1`, `srem(a, 0)` = `a` (the SMT-LIB convention);
//! * `sdiv(MIN, -1)` = `MIN`, `srem(MIN, -1)` = 0 (wrapping, as Rust's `wrapping_div`);
//! * shift amounts are read unsigned; an amount ≥ width gives 0 for `shl` and `lshr` and the
//!   sign fill (0 or all ones) for `ashr`.

use crate::gates::Encoder;
use solver_glue::Lit;

/// A fixed-width vector of literals, least significant bit first.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BitVec {
    bits: Vec<Lit>,
}

impl BitVec {
    /// The vector with these bits (LSB first). Panics on an empty vector.
    pub fn from_bits(bits: Vec<Lit>) -> BitVec {
        assert!(!bits.is_empty(), "a bit vector has at least one bit");
        BitVec { bits }
    }
    pub fn bits(&self) -> &[Lit] {
        &self.bits
    }
    pub fn width(&self) -> u32 {
        self.bits.len() as u32
    }
    pub fn bit(&self, i: u32) -> Lit {
        self.bits[i as usize]
    }
    /// `Some(value)` when every bit is `true_lit` or its negation (the encoder's constants)
    /// and the width is at most 64.
    pub fn const_value(&self, true_lit: Lit) -> Option<u64> {
        if self.width() > 64 {
            return None;
        }
        let mut v = 0u64;
        for (i, &l) in self.bits.iter().enumerate() {
            if l == true_lit {
                v |= 1 << i;
            } else if l != !true_lit {
                return None;
            }
        }
        Some(v)
    }
    /// The most significant (sign) bit.
    pub fn msb(&self) -> Lit {
        self.bits[self.bits.len() - 1]
    }
}

impl Encoder<'_> {
    /// The constant `value` (bits above 64 are zero; bits of `value` above `width` dropped).
    pub fn bv_const(&self, width: u32, value: u64) -> BitVec {
        BitVec::from_bits(
            (0..width)
                .map(|i| self.constant(i < 64 && (value >> i) & 1 == 1))
                .collect(),
        )
    }

    /// The constant `value`, sign-extended (or truncated) to `width`.
    pub fn bv_const_signed(&self, width: u32, value: i64) -> BitVec {
        BitVec::from_bits(
            (0..width)
                .map(|i| self.constant((value >> i.min(63)) & 1 == 1))
                .collect(),
        )
    }

    /// `Some(value)` when every bit is a constant and the width is at most 64.
    pub fn bv_const_value(&self, a: &BitVec) -> Option<u64> {
        a.const_value(self.tru())
    }

    /// A fresh unconstrained (nondeterministic) vector.
    pub fn bv_fresh(&mut self, width: u32) -> BitVec {
        BitVec::from_bits((0..width).map(|_| self.new_lit()).collect())
    }

    /// The 0/1 vector of a Boolean.
    pub fn bv_from_bool(&self, b: Lit, width: u32) -> BitVec {
        let mut bits = vec![self.fls(); width as usize];
        bits[0] = b;
        BitVec::from_bits(bits)
    }

    /// C's conversion to Boolean: `a != 0`.
    pub fn bv_nonzero(&mut self, a: &BitVec) -> Lit {
        self.or_all(a.bits())
    }

    pub fn bv_not(&mut self, a: &BitVec) -> BitVec {
        BitVec::from_bits(a.bits().iter().map(|&l| !l).collect())
    }

    pub fn bv_and(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        self.bitwise(a, b, |e, x, y| e.and(x, y))
    }

    pub fn bv_or(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        self.bitwise(a, b, |e, x, y| e.or(x, y))
    }

    pub fn bv_xor(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        self.bitwise(a, b, |e, x, y| e.xor(x, y))
    }

    fn bitwise(
        &mut self,
        a: &BitVec,
        b: &BitVec,
        f: impl Fn(&mut Self, Lit, Lit) -> Lit,
    ) -> BitVec {
        same_width(a, b);
        BitVec::from_bits(
            a.bits()
                .iter()
                .zip(b.bits())
                .map(|(&x, &y)| f(self, x, y))
                .collect(),
        )
    }

    /// `if c then t else e`, bitwise.
    pub fn bv_ite(&mut self, c: Lit, t: &BitVec, e: &BitVec) -> BitVec {
        self.bitwise(t, e, |enc, x, y| enc.mux(c, x, y))
    }

    /// `a + b + cin`, returning the sum and the carry out.
    pub(crate) fn add_carry(&mut self, a: &[Lit], b: &[Lit], cin: Lit) -> (Vec<Lit>, Lit) {
        let mut carry = cin;
        let mut sum = Vec::with_capacity(a.len());
        for (&x, &y) in a.iter().zip(b) {
            let t = self.xor(x, y);
            sum.push(self.xor(t, carry));
            let g = self.and(x, y);
            let p = self.and(t, carry);
            carry = self.or(g, p);
        }
        (sum, carry)
    }

    pub fn bv_add(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width(a, b);
        let f = self.fls();
        BitVec::from_bits(self.add_carry(a.bits(), b.bits(), f).0)
    }

    pub fn bv_sub(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width(a, b);
        let nb: Vec<Lit> = b.bits().iter().map(|&l| !l).collect();
        let t = self.tru();
        BitVec::from_bits(self.add_carry(a.bits(), &nb, t).0)
    }

    pub fn bv_neg(&mut self, a: &BitVec) -> BitVec {
        let zero = self.bv_const(a.width(), 0);
        self.bv_sub(&zero, a)
    }

    /// Product truncated to the width (the same for signed and unsigned operands).
    pub fn bv_mul(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width(a, b);
        let w = a.bits().len();
        let mut acc = vec![self.fls(); w];
        for i in 0..w {
            let bi = b.bits()[i];
            if self.const_value(bi) == Some(false) {
                continue;
            }
            let partial: Vec<Lit> = (0..w - i).map(|j| self.and(a.bits()[j], bi)).collect();
            let f = self.fls();
            let (upper, _) = self.add_carry(&acc[i..], &partial, f);
            acc[i..].copy_from_slice(&upper);
        }
        BitVec::from_bits(acc)
    }

    /// Unsigned quotient and remainder by restoring division.
    fn udivrem(&mut self, a: &BitVec, b: &BitVec) -> (BitVec, BitVec) {
        same_width(a, b);
        if let Some(d) = self.bv_const_value(b).filter(|&d| d != 0) {
            return self.udivrem_const(a, d);
        }
        let w = a.bits().len();
        let f = self.fls();
        let t = self.tru();
        let mut nb: Vec<Lit> = b.bits().iter().map(|&l| !l).collect();
        nb.push(t); // ¬0, the negated extra top bit of the zero-extended divisor
        let mut rem = vec![f; w];
        let mut quot = vec![f; w];
        for i in (0..w).rev() {
            // shifted = rem·2 + a[i], w+1 bits wide so nothing is lost.
            let mut shifted = Vec::with_capacity(w + 1);
            shifted.push(a.bits()[i]);
            shifted.extend_from_slice(&rem);
            let (diff, no_borrow) = self.add_carry(&shifted, &nb, t);
            quot[i] = no_borrow;
            // Either way the new remainder is below the divisor (or the divisor is 0 and the
            // dropped top bit is shifted out), so w bits suffice.
            rem = (0..w)
                .map(|j| self.mux(no_borrow, diff[j], shifted[j]))
                .collect();
        }
        (BitVec::from_bits(quot), BitVec::from_bits(rem))
    }

    /// Unsigned quotient and remainder by the constant `d` ≥ 1: restoring division whose
    /// partial remainder is `k` bits wide, `k` the bit length of `d - 1` (at least 1), instead
    /// of the operand width.
    ///
    /// Why this is the same function as the general circuit: every partial remainder of
    /// restoring division is below the divisor (it is either `2r + a_i - d` when that does not
    /// borrow, with `2r + a_i < 2d`, or `2r + a_i` when it is below `d`), and `d ≤ 2^k`, so
    /// the bits of the remainder from `k` up are always 0 and `2r + a_i < 2^(k+1)` fits the
    /// `k + 1`-bit subtractor. The general circuit computes those bits too, as gates whose
    /// value is always 0 but which the constant folding cannot see; here they are the constant
    /// 0. With `d = 3` on 32 bits each step is a 3-bit subtractor instead of a 33-bit one.
    fn udivrem_const(&mut self, a: &BitVec, d: u64) -> (BitVec, BitVec) {
        debug_assert!(d != 0);
        let w = a.bits().len();
        let k = ((u64::BITS - (d - 1).leading_zeros()) as usize).max(1);
        debug_assert!(
            k <= w,
            "a constant of the operand's width has at most its bit length"
        );
        let (f, t) = (self.fls(), self.tru());
        // ¬d over k + 1 bits (d ≤ 2^k fits), for the subtraction as an addition with carry 1.
        let nd: Vec<Lit> = (0..=k)
            .map(|j| self.constant(j >= 64 || (d >> j) & 1 == 0))
            .collect();
        let mut rem = vec![f; k];
        let mut quot = vec![f; w];
        for i in (0..w).rev() {
            let mut shifted = Vec::with_capacity(k + 1);
            shifted.push(a.bits()[i]);
            shifted.extend_from_slice(&rem);
            let (diff, no_borrow) = self.add_carry(&shifted, &nd, t);
            quot[i] = no_borrow;
            rem = (0..k)
                .map(|j| self.mux(no_borrow, diff[j], shifted[j]))
                .collect();
        }
        rem.resize(w, f);
        (BitVec::from_bits(quot), BitVec::from_bits(rem))
    }

    /// Unsigned quotient; all ones when `b` is 0.
    pub fn bv_udiv(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        self.udivrem(a, b).0
    }

    /// Unsigned remainder; `a` when `b` is 0.
    pub fn bv_urem(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        self.udivrem(a, b).1
    }

    fn abs(&mut self, a: &BitVec) -> BitVec {
        let n = self.bv_neg(a);
        self.bv_ite(a.msb(), &n, a)
    }

    /// Signed quotient truncated toward zero (C99); see the module doc for 0 and overflow.
    pub fn bv_sdiv(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        let (aa, ab) = (self.abs(a), self.abs(b));
        let q = self.bv_udiv(&aa, &ab);
        let nq = self.bv_neg(&q);
        let s = self.xor(a.msb(), b.msb());
        self.bv_ite(s, &nq, &q)
    }

    /// Signed remainder with the sign of the dividend (C99); `a` when `b` is 0.
    pub fn bv_srem(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        let (aa, ab) = (self.abs(a), self.abs(b));
        let r = self.bv_urem(&aa, &ab);
        let nr = self.bv_neg(&r);
        self.bv_ite(a.msb(), &nr, &r)
    }

    /// Barrel shifter: `left` shifts towards the MSB; vacated bits take `fill`.
    fn shift(&mut self, a: &BitVec, amount: &BitVec, left: bool, fill: Lit) -> BitVec {
        let w = a.bits().len();
        let mut cur: Vec<Lit> = a.bits().to_vec();
        let mut too_far = self.fls();
        for (i, &s) in amount.bits().iter().enumerate() {
            let dist = if i < usize::BITS as usize - 1 {
                1usize << i
            } else {
                usize::MAX
            };
            if dist >= w {
                too_far = self.or(too_far, s);
                continue;
            }
            let shifted: Vec<Lit> = (0..w)
                .map(|j| {
                    let src = if left {
                        j.checked_sub(dist)
                    } else {
                        Some(j + dist)
                    };
                    match src {
                        Some(k) if k < w => cur[k],
                        _ => fill,
                    }
                })
                .collect();
            cur = (0..w).map(|j| self.mux(s, shifted[j], cur[j])).collect();
        }
        cur = cur.iter().map(|&l| self.mux(too_far, fill, l)).collect();
        BitVec::from_bits(cur)
    }

    /// `a << amount`; 0 when `amount` ≥ width.
    pub fn bv_shl(&mut self, a: &BitVec, amount: &BitVec) -> BitVec {
        let f = self.fls();
        self.shift(a, amount, true, f)
    }

    /// Logical right shift; 0 when `amount` ≥ width.
    pub fn bv_lshr(&mut self, a: &BitVec, amount: &BitVec) -> BitVec {
        let f = self.fls();
        self.shift(a, amount, false, f)
    }

    /// Arithmetic right shift; the sign fill when `amount` ≥ width.
    pub fn bv_ashr(&mut self, a: &BitVec, amount: &BitVec) -> BitVec {
        self.shift(a, amount, false, a.msb())
    }

    pub fn bv_eq(&mut self, a: &BitVec, b: &BitVec) -> Lit {
        same_width(a, b);
        let eqs: Vec<Lit> = a
            .bits()
            .iter()
            .zip(b.bits())
            .map(|(&x, &y)| self.iff(x, y))
            .collect();
        self.and_all(&eqs)
    }

    /// Unsigned `a < b`.
    pub fn bv_ult(&mut self, a: &BitVec, b: &BitVec) -> Lit {
        same_width(a, b);
        // From the LSB up: where the bits differ, b's bit decides; the most significant
        // difference wins. Two gates per bit, and the XORs are shared with `b < a`.
        let mut lt = self.fls();
        for (&x, &y) in a.bits().iter().zip(b.bits()) {
            let differ = self.xor(x, y);
            lt = self.mux(differ, y, lt);
        }
        lt
    }

    /// Unsigned `a ≤ b`.
    pub fn bv_ule(&mut self, a: &BitVec, b: &BitVec) -> Lit {
        !self.bv_ult(b, a)
    }

    /// Signed `a < b`.
    pub fn bv_slt(&mut self, a: &BitVec, b: &BitVec) -> Lit {
        let (fa, fb) = (flip_sign(a), flip_sign(b));
        self.bv_ult(&fa, &fb)
    }

    /// Signed `a ≤ b`.
    pub fn bv_sle(&mut self, a: &BitVec, b: &BitVec) -> Lit {
        !self.bv_slt(b, a)
    }

    /// Widens with zeros (`width` ≥ the current width).
    pub fn bv_zero_extend(&self, a: &BitVec, width: u32) -> BitVec {
        assert!(width >= a.width(), "zero_extend cannot narrow");
        let mut bits = a.bits().to_vec();
        bits.resize(width as usize, self.fls());
        BitVec::from_bits(bits)
    }

    /// Widens with copies of the sign bit (`width` ≥ the current width).
    pub fn bv_sign_extend(&self, a: &BitVec, width: u32) -> BitVec {
        assert!(width >= a.width(), "sign_extend cannot narrow");
        let mut bits = a.bits().to_vec();
        bits.resize(width as usize, a.msb());
        BitVec::from_bits(bits)
    }

    /// Keeps the low `width` bits (`1 ≤ width` ≤ the current width).
    pub fn bv_truncate(&self, a: &BitVec, width: u32) -> BitVec {
        assert!(width <= a.width(), "truncate cannot widen");
        BitVec::from_bits(a.bits()[..width as usize].to_vec())
    }

    /// The bits of `a` in the last model, LSB first (unassigned bits read as 0).
    pub fn bv_value_bits(&self, a: &BitVec) -> Vec<bool> {
        a.bits().iter().map(|&l| self.value(l)).collect()
    }

    /// The unsigned value of `a` (width ≤ 64) in the last model.
    pub fn bv_value_u64(&self, a: &BitVec) -> u64 {
        assert!(a.width() <= 64, "bv_value_u64 needs width ≤ 64");
        self.bv_value_bits(a)
            .iter()
            .enumerate()
            .fold(0, |v, (i, &b)| v | (u64::from(b) << i))
    }

    /// The two's-complement value of `a` (width ≤ 64) in the last model.
    pub fn bv_value_i64(&self, a: &BitVec) -> i64 {
        let u = self.bv_value_u64(a);
        let w = a.width();
        if w == 64 {
            u as i64
        } else {
            ((u << (64 - w)) as i64) >> (64 - w)
        }
    }
}

fn same_width(a: &BitVec, b: &BitVec) {
    assert_eq!(a.width(), b.width(), "bit-vector operands differ in width");
}

fn flip_sign(a: &BitVec) -> BitVec {
    let mut bits = a.bits().to_vec();
    let top = bits.len() - 1;
    bits[top] = !bits[top];
    BitVec::from_bits(bits)
}
