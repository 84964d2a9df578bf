//! IEEE-754 binary floating point on bit patterns, as circuits.
//!
//! A floating-point value is the [`BitVec`] of its encoding (sign, biased exponent,
//! fraction; LSB first as every vector). The operations are methods of [`Encoder`] named
//! `fp_*`, parameterised by a [`FloatFormat`] (single and double precision; any format with an
//! exponent of 2..=15 bits works the same way). Every result is rounded to nearest, ties to
//! even, the rounding of C without `fesetround`; denormals, signed zeros, infinities and NaNs
//! are exact, including the NaN patterns of x86's SSE instructions (what C compilers emit for
//! `float` and `double` on x86-64, and on i386 with SSE2):
//! * an operation with a NaN operand returns that NaN made quiet (the fraction's top bit set);
//!   with two NaN operands, the first one (the caller decides whether that choice, which a
//!   compiler may make either way for a commutative operator, matters: see
//!   [`Encoder::fp_nan_choice_matters`]);
//! * an invalid operation (∞ − ∞, 0 · ∞, 0 / 0, ∞ / ∞) without NaN operands returns the
//!   "default NaN": sign set, exponent all ones, only the fraction's top bit set.
//!
//! How the arithmetic is built (as hardware and CBMC's float circuits do): operands are
//! unpacked to a sign, an integer significand with the hidden bit made explicit, and the
//! exponent of its least significant bit; the operation computes an exact result (or enough of
//! it: the bits that round, plus a sticky bit telling whether anything non-zero was dropped),
//! and [`Encoder::fp_round`] normalises it, shifts it right into the denormal range when it
//! is tiny, rounds to nearest even and packs it, overflowing to infinity.

use crate::bitvec::BitVec;
use crate::gates::Encoder;
use solver_glue::Lit;

/// An IEEE-754 binary interchange format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FloatFormat {
    /// Bits of the biased exponent.
    pub exponent: u32,
    /// Bits of the stored fraction (the precision less the hidden bit).
    pub fraction: u32,
}

impl FloatFormat {
    /// binary32, C's `float`.
    pub const SINGLE: FloatFormat = FloatFormat {
        exponent: 8,
        fraction: 23,
    };
    /// binary64, C's `double`.
    pub const DOUBLE: FloatFormat = FloatFormat {
        exponent: 11,
        fraction: 52,
    };

    /// The format of that width (32 or 64).
    pub fn of_width(bits: u32) -> Option<FloatFormat> {
        match bits {
            32 => Some(FloatFormat::SINGLE),
            64 => Some(FloatFormat::DOUBLE),
            _ => None,
        }
    }
    pub fn width(self) -> u32 {
        1 + self.exponent + self.fraction
    }
    /// Significand bits, the hidden one included.
    fn precision(self) -> u32 {
        self.fraction + 1
    }
    fn bias(self) -> i64 {
        (1 << (self.exponent - 1)) - 1
    }
    /// Exponent of the smallest normal number (and of the denormals' scale).
    fn emin(self) -> i64 {
        1 - self.bias()
    }
    fn emax(self) -> i64 {
        self.bias()
    }
}

/// Width of the signed exponent arithmetic: wide enough for the exponents of every exact
/// intermediate result (a double quotient's is about −2300) with room to spare.
const EW: u32 = 20;

/// An operand split into its parts; its value (when finite) is `sig · 2^exp`, negated if
/// `sign`.
struct Unpacked {
    sign: Lit,
    /// Signed, [`EW`] bits: the weight of the significand's least significant bit.
    exp: BitVec,
    /// `precision` bits: the fraction with the hidden bit (0 for denormals and zero).
    sig: BitVec,
    nan: Lit,
    inf: Lit,
    zero: Lit,
}

impl Encoder<'_> {
    fn fp_unpack(&mut self, f: FloatFormat, x: &BitVec) -> Unpacked {
        assert_eq!(
            x.width(),
            f.width(),
            "operand of the wrong width for its format"
        );
        let bits = x.bits();
        let (fw, ew) = (f.fraction as usize, f.exponent as usize);
        let frac = &bits[..fw];
        let expf = &bits[fw..fw + ew];
        let exp_nonzero = self.or_all(expf);
        let exp_ones = self.and_all(expf);
        let frac_nonzero = self.or_all(frac);
        let nan = self.and(exp_ones, frac_nonzero);
        let inf = self.and(exp_ones, !frac_nonzero);
        let zero = self.or(exp_nonzero, frac_nonzero);
        let mut sig = frac.to_vec();
        sig.push(exp_nonzero);
        // A denormal's exponent field 0 stands for the exponent of 1.
        let mut e = expf.to_vec();
        e[0] = self.or(e[0], !exp_nonzero);
        e.resize(EW as usize, self.fls());
        let e = BitVec::from_bits(e);
        let off = self.bv_const_signed(EW, f.bias() + i64::from(f.fraction));
        let exp = self.bv_sub(&e, &off);
        Unpacked {
            sign: bits[bits.len() - 1],
            exp,
            sig: BitVec::from_bits(sig),
            nan,
            inf,
            zero: !zero,
        }
    }

    /// `x` with the sign `sign`, the exponent all ones and the fraction `frac` (its top bit
    /// set: a quiet NaN, or with `frac` 0 an infinity).
    fn fp_special(&mut self, f: FloatFormat, sign: Lit, frac: &[Lit]) -> BitVec {
        let mut bits = frac.to_vec();
        bits.extend((0..f.exponent).map(|_| self.tru()));
        bits.push(sign);
        BitVec::from_bits(bits)
    }

    fn fp_infinity(&mut self, f: FloatFormat, sign: Lit) -> BitVec {
        let zeros = vec![self.fls(); f.fraction as usize];
        self.fp_special(f, sign, &zeros)
    }

    /// The default NaN of an invalid operation.
    fn fp_default_nan(&mut self, f: FloatFormat) -> BitVec {
        let mut frac = vec![self.fls(); f.fraction as usize];
        frac[f.fraction as usize - 1] = self.tru();
        let t = self.tru();
        self.fp_special(f, t, &frac)
    }

    /// `x` (a NaN) made quiet.
    fn fp_quiet(&mut self, f: FloatFormat, x: &BitVec) -> BitVec {
        let mut bits = x.bits().to_vec();
        bits[f.fraction as usize - 1] = self.tru();
        BitVec::from_bits(bits)
    }

    /// The NaN an operation on `a` and `b` returns when either is a NaN, else the default NaN.
    fn fp_nan_result(&mut self, f: FloatFormat, a: &BitVec, b: Option<&BitVec>) -> BitVec {
        let mut r = self.fp_default_nan(f);
        if let Some(b) = b {
            let ub = self.fp_nan_flag(f, b);
            let qb = self.fp_quiet(f, b);
            r = self.bv_ite(ub, &qb, &r);
        }
        let ua = self.fp_nan_flag(f, a);
        let qa = self.fp_quiet(f, a);
        self.bv_ite(ua, &qa, &r)
    }

    fn fp_nan_flag(&mut self, f: FloatFormat, x: &BitVec) -> Lit {
        let (fw, ew) = (f.fraction as usize, f.exponent as usize);
        let exp_ones = self.and_all(&x.bits()[fw..fw + ew]);
        let frac_nonzero = self.or_all(&x.bits()[..fw]);
        self.and(exp_ones, frac_nonzero)
    }

    /// Whether `x` is a NaN.
    pub fn fp_is_nan(&mut self, f: FloatFormat, x: &BitVec) -> Lit {
        self.fp_nan_flag(f, x)
    }

    /// Both operands are NaNs whose quiet forms differ: the result of a binary operation is
    /// then one or the other depending on the order the compiler gave the machine
    /// instruction's operands, which the C source does not fix.
    pub fn fp_nan_choice_matters(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> Lit {
        let na = self.fp_nan_flag(f, a);
        let nb = self.fp_nan_flag(f, b);
        let qa = self.fp_quiet(f, a);
        let qb = self.fp_quiet(f, b);
        let same = self.bv_eq(&qa, &qb);
        let both = self.and(na, nb);
        self.and(both, !same)
    }

    /// Right shift of `v` by the unsigned `amount`, with the sticky bit: whether any bit
    /// shifted out was set.
    fn shr_sticky(&mut self, v: &[Lit], amount: &BitVec) -> (Vec<Lit>, Lit) {
        let w = v.len();
        let mut cur = v.to_vec();
        let mut sticky = self.fls();
        for (i, &s) in amount.bits().iter().enumerate() {
            if self.const_value(s) == Some(false) {
                continue;
            }
            let dist = if i < 32 { 1usize << i } else { usize::MAX };
            if dist >= w {
                let any = self.or_all(&cur);
                let lost = self.and(s, any);
                sticky = self.or(sticky, lost);
                let f = self.fls();
                cur = cur.iter().map(|&l| self.mux(s, f, l)).collect();
                continue;
            }
            let out = self.or_all(&cur[..dist]);
            let lost = self.and(s, out);
            sticky = self.or(sticky, lost);
            let f = self.fls();
            cur = (0..w)
                .map(|j| {
                    let src = if j + dist < w { cur[j + dist] } else { f };
                    self.mux(s, src, cur[j])
                })
                .collect();
        }
        (cur, sticky)
    }

    /// `v` shifted left until its top bit is set (unless it is 0), and the shift: its number
    /// of leading zeros, an [`EW`]-bit vector.
    fn fp_normalize(&mut self, v: &[Lit]) -> (Vec<Lit>, BitVec) {
        let w = v.len();
        let mut cur = v.to_vec();
        let mut lz = vec![self.fls(); EW as usize];
        if w < 2 {
            return (cur, BitVec::from_bits(lz));
        }
        let mut k = usize::BITS - 1 - (w - 1).leading_zeros();
        loop {
            let stage = 1usize << k;
            let top_nonzero = self.or_all(&cur[w - stage..]);
            let f = self.fls();
            cur = (0..w)
                .map(|j| {
                    let src = if j >= stage { cur[j - stage] } else { f };
                    self.mux(top_nonzero, cur[j], src)
                })
                .collect();
            lz[k as usize] = !top_nonzero;
            if k == 0 {
                break;
            }
            k -= 1;
        }
        (cur, BitVec::from_bits(lz))
    }

    /// Rounds `(sig + ε) · 2^exp`, negated if `sign`, to nearest even in format `f` and packs
    /// it: `sig` is an unsigned integer of any width, `exp` a signed [`EW`]-bit exponent, and
    /// `ε` stands for a positive amount below one unit of `sig`'s last bit when `sticky`, for
    /// nothing otherwise. A value beyond the largest finite number becomes an infinity, a zero
    /// one (no sticky bit) a zero of that sign.
    fn fp_round(
        &mut self,
        f: FloatFormat,
        sign: Lit,
        exp: &BitVec,
        sig: &[Lit],
        sticky: Lit,
    ) -> BitVec {
        let p = f.precision() as usize;
        let mut cur = sig.to_vec();
        let mut exp = exp.clone();
        if cur.len() < p + 2 {
            // Room for the significand, the guard bit and one more below it.
            let k = p + 2 - cur.len();
            let mut padded = vec![self.fls(); k];
            padded.extend_from_slice(&cur);
            cur = padded;
            let kc = self.bv_const(EW, k as u64);
            exp = self.bv_sub(&exp, &kc);
        }
        let w = cur.len();
        let (cur, lz) = self.fp_normalize(&cur);
        // The weight of the top bit.
        let top = self.bv_const(EW, (w - 1) as u64);
        let e = self.bv_add(&exp, &top);
        let e_msb = self.bv_sub(&e, &lz);
        // Tiny: shift right into the denormal range, whose scale is that of `emin`.
        let emin = self.bv_const_signed(EW, f.emin());
        let tiny = self.bv_slt(&e_msb, &emin);
        let dsh = self.bv_sub(&emin, &e_msb);
        let zero = self.bv_const(EW, 0);
        let amount = self.bv_ite(tiny, &dsh, &zero);
        let (shifted, lost) = self.shr_sticky(&cur, &amount);
        let e_res = self.bv_ite(tiny, &emin, &e_msb);
        let kept = &shifted[w - p..];
        let guard = shifted[w - p - 1];
        let below = self.or_all(&shifted[..w - p - 1]);
        let st = self.or(below, lost);
        let st = self.or(st, sticky);
        let odd_or_sticky = self.or(st, kept[0]);
        let inc = self.and(guard, odd_or_sticky);
        let zeros = vec![self.fls(); p];
        let (sum, carry) = self.add_carry(kept, &zeros, inc);
        // A carry out leaves 100…0, one bit wider: the significand 10…0 of the next exponent.
        let mut mant: Vec<Lit> = (0..p)
            .map(|j| {
                let up = if j + 1 < p { sum[j + 1] } else { carry };
                self.mux(carry, up, sum[j])
            })
            .collect();
        let carry_v = self.bv_from_bool(carry, EW);
        let e_res = self.bv_add(&e_res, &carry_v);
        let lead = mant[p - 1];
        let emax = self.bv_const_signed(EW, f.emax());
        let above = self.bv_slt(&emax, &e_res);
        let overflow = self.and(lead, above);
        let bias = self.bv_const_signed(EW, f.bias());
        let biased = self.bv_add(&e_res, &bias);
        let mut bits: Vec<Lit> = mant.drain(..p - 1).collect();
        for i in 0..f.exponent {
            let b = self.and(lead, biased.bit(i));
            bits.push(b);
        }
        bits.push(sign);
        let finite = BitVec::from_bits(bits);
        let inf = self.fp_infinity(f, sign);
        self.bv_ite(overflow, &inf, &finite)
    }

    /// `a + b`, or `a - b` when `subtract`.
    fn fp_add_sub(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec, subtract: bool) -> BitVec {
        let ua = self.fp_unpack(f, a);
        let ub = self.fp_unpack(f, b);
        let sb = if subtract { !ub.sign } else { ub.sign };
        // x: the operand with the larger exponent.
        let swap = self.bv_slt(&ua.exp, &ub.exp);
        let xs = self.mux(swap, sb, ua.sign);
        let ys = self.mux(swap, ua.sign, sb);
        let xe = self.bv_ite(swap, &ub.exp, &ua.exp);
        let ye = self.bv_ite(swap, &ua.exp, &ub.exp);
        let xm = self.bv_ite(swap, &ub.sig, &ua.sig);
        let ym = self.bv_ite(swap, &ua.sig, &ub.sig);
        // Three bits below the significands (guard, round, sticky) and a carry bit above.
        let f0 = self.fls();
        let widen = |m: &BitVec| -> Vec<Lit> {
            let mut v = vec![f0; 3];
            v.extend_from_slice(m.bits());
            v.push(f0);
            v
        };
        let xw = widen(&xm);
        let yw = widen(&ym);
        let d = self.bv_sub(&xe, &ye);
        let (mut yw, lost) = self.shr_sticky(&yw, &d);
        yw[0] = self.or(yw[0], lost);
        let xv = BitVec::from_bits(xw);
        let yv = BitVec::from_bits(yw);
        let eff_sub = self.xor(xs, ys);
        let sum = self.bv_add(&xv, &yv);
        let diff = self.bv_sub(&xv, &yv);
        let neg = diff.msb();
        let ndiff = self.bv_neg(&diff);
        let mag_d = self.bv_ite(neg, &ndiff, &diff);
        let mag = self.bv_ite(eff_sub, &mag_d, &sum);
        let sign_d = self.xor(xs, neg);
        let sign = self.mux(eff_sub, sign_d, xs);
        // An exact zero is +0, unless both addends are -0.
        let nonzero = self.bv_nonzero(&mag);
        let both_neg = self.and(xs, ys);
        let sign = self.mux(nonzero, sign, both_neg);
        let three = self.bv_const(EW, 3);
        let e = self.bv_sub(&xe, &three);
        let t = self.fls();
        let finite = self.fp_round(f, sign, &e, mag.bits(), t);
        // Specials.
        let inf_sign = self.mux(ua.inf, ua.sign, sb);
        let inf = self.fp_infinity(f, inf_sign);
        let any_inf = self.or(ua.inf, ub.inf);
        let r = self.bv_ite(any_inf, &inf, &finite);
        let opposite = self.xor(ua.sign, sb);
        let both_inf = self.and(ua.inf, ub.inf);
        let invalid = self.and(both_inf, opposite);
        let nan_in = self.or(ua.nan, ub.nan);
        let is_nan = self.or(nan_in, invalid);
        let nan = self.fp_nan_result(f, a, Some(b));
        self.bv_ite(is_nan, &nan, &r)
    }

    /// `a + b`.
    pub fn fp_add(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> BitVec {
        self.fp_add_sub(f, a, b, false)
    }

    /// `a - b`.
    pub fn fp_sub(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> BitVec {
        self.fp_add_sub(f, a, b, true)
    }

    /// `a · b`.
    pub fn fp_mul(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> BitVec {
        let ua = self.fp_unpack(f, a);
        let ub = self.fp_unpack(f, b);
        let sign = self.xor(ua.sign, ub.sign);
        let w = 2 * f.precision();
        let ma = self.bv_zero_extend(&ua.sig, w);
        let mb = self.bv_zero_extend(&ub.sig, w);
        let prod = self.bv_mul(&ma, &mb);
        let e = self.bv_add(&ua.exp, &ub.exp);
        let t = self.fls();
        let finite = self.fp_round(f, sign, &e, prod.bits(), t);
        let inf = self.fp_infinity(f, sign);
        let any_inf = self.or(ua.inf, ub.inf);
        let r = self.bv_ite(any_inf, &inf, &finite);
        let i1 = self.and(ua.inf, ub.zero);
        let i2 = self.and(ua.zero, ub.inf);
        let invalid = self.or(i1, i2);
        let nan_in = self.or(ua.nan, ub.nan);
        let is_nan = self.or(nan_in, invalid);
        let nan = self.fp_nan_result(f, a, Some(b));
        self.bv_ite(is_nan, &nan, &r)
    }

    /// `a / b`.
    pub fn fp_div(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> BitVec {
        let ua = self.fp_unpack(f, a);
        let ub = self.fp_unpack(f, b);
        let sign = self.xor(ua.sign, ub.sign);
        // Long division of the significands, both normalised (top bit set, exponents
        // adjusted): their quotient is in (1/2, 2), so p + 2 quotient bits, of weights 2^0 down
        // to 2^-(p+1), hold at least p + 1 significant ones, enough to round with the
        // remainder as the sticky bit.
        let p = f.precision() as usize;
        let (na, lza) = self.fp_normalize(ua.sig.bits());
        let (nb, lzb) = self.fp_normalize(ub.sig.bits());
        let ea = self.bv_sub(&ua.exp, &lza);
        let eb = self.bv_sub(&ub.exp, &lzb);
        let n = p + 2;
        let f0 = self.fls();
        let mut rem: Vec<Lit> = na.iter().copied().chain([f0, f0]).collect();
        let d: Vec<Lit> = nb.iter().copied().chain([f0, f0]).collect();
        let nd: Vec<Lit> = d.iter().map(|&l| !l).collect();
        let mut q = vec![f0; n];
        for i in (0..n).rev() {
            // rem - d, and whether it does not borrow (rem >= d).
            let t = self.tru();
            let (diff, ge) = self.add_carry(&rem, &nd, t);
            q[i] = ge;
            let kept: Vec<Lit> = (0..n).map(|j| self.mux(ge, diff[j], rem[j])).collect();
            // Below d < 2^p: doubling it fits.
            rem = std::iter::once(f0)
                .chain(kept[..n - 1].iter().copied())
                .collect();
        }
        let inexact = self.or_all(&rem);
        let e = self.bv_sub(&ea, &eb);
        let kc = self.bv_const(EW, (p + 1) as u64);
        let e = self.bv_sub(&e, &kc);
        let finite = self.fp_round(f, sign, &e, &q, inexact);
        let zero_bits = {
            let mut z = vec![self.fls(); (f.width() - 1) as usize];
            z.push(sign);
            BitVec::from_bits(z)
        };
        let to_zero = self.or(ua.zero, ub.inf);
        let r = self.bv_ite(to_zero, &zero_bits, &finite);
        let inf = self.fp_infinity(f, sign);
        let to_inf = self.or(ua.inf, ub.zero);
        let r = self.bv_ite(to_inf, &inf, &r);
        let i1 = self.and(ua.zero, ub.zero);
        let i2 = self.and(ua.inf, ub.inf);
        let invalid = self.or(i1, i2);
        let nan_in = self.or(ua.nan, ub.nan);
        let is_nan = self.or(nan_in, invalid);
        let nan = self.fp_nan_result(f, a, Some(b));
        self.bv_ite(is_nan, &nan, &r)
    }

    /// `-a`: the sign flipped (NaNs included, as x86's `xorps` does).
    pub fn fp_neg(&mut self, f: FloatFormat, a: &BitVec) -> BitVec {
        assert_eq!(
            a.width(),
            f.width(),
            "operand of the wrong width for its format"
        );
        let mut bits = a.bits().to_vec();
        let top = bits.len() - 1;
        bits[top] = !bits[top];
        BitVec::from_bits(bits)
    }

    /// `a == b`: false when either is a NaN; `+0 == -0`.
    pub fn fp_eq(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> Lit {
        let ua = self.fp_unpack(f, a);
        let ub = self.fp_unpack(f, b);
        let same = self.bv_eq(a, b);
        let zeros = self.and(ua.zero, ub.zero);
        let eq = self.or(same, zeros);
        let nan = self.or(ua.nan, ub.nan);
        self.and(eq, !nan)
    }

    /// `a < b`: false when either is a NaN; `-0 < +0` is false.
    pub fn fp_lt(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> Lit {
        let ua = self.fp_unpack(f, a);
        let ub = self.fp_unpack(f, b);
        let n = (f.width() - 1) as usize;
        let ma = BitVec::from_bits(a.bits()[..n].to_vec());
        let mb = BitVec::from_bits(b.bits()[..n].to_vec());
        let a_below = self.bv_ult(&ma, &mb);
        let b_below = self.bv_ult(&mb, &ma);
        // Same signs: by magnitude (reversed for negatives); else the negative one is less.
        let same_sign = self.iff(ua.sign, ub.sign);
        let by_mag = self.mux(ua.sign, b_below, a_below);
        let lt = self.mux(same_sign, by_mag, ua.sign);
        let zeros = self.and(ua.zero, ub.zero);
        let nan = self.or(ua.nan, ub.nan);
        let excluded = self.or(zeros, nan);
        self.and(lt, !excluded)
    }

    /// `a <= b`: false when either is a NaN.
    pub fn fp_le(&mut self, f: FloatFormat, a: &BitVec, b: &BitVec) -> Lit {
        let lt = self.fp_lt(f, a, b);
        let eq = self.fp_eq(f, a, b);
        self.or(lt, eq)
    }

    /// The integer `v` (signed or unsigned, of any width) converted to format `f`, rounded.
    pub fn fp_from_int(&mut self, f: FloatFormat, v: &BitVec, signed: bool) -> BitVec {
        let neg = if signed { v.msb() } else { self.fls() };
        let nv = self.bv_neg(v);
        let mag = self.bv_ite(neg, &nv, v);
        let e = self.bv_const(EW, 0);
        let t = self.fls();
        self.fp_round(f, neg, &e, mag.bits(), t)
    }

    /// `x` of format `from` converted to format `to`: exact when widening, rounded when
    /// narrowing; a NaN keeps its sign and the top bits of its fraction, made quiet.
    pub fn fp_convert(&mut self, from: FloatFormat, to: FloatFormat, x: &BitVec) -> BitVec {
        let u = self.fp_unpack(from, x);
        let t = self.fls();
        let finite = self.fp_round(to, u.sign, &u.exp, u.sig.bits(), t);
        let inf = self.fp_infinity(to, u.sign);
        let r = self.bv_ite(u.inf, &inf, &finite);
        let (fw, tw) = (from.fraction as usize, to.fraction as usize);
        let src = &x.bits()[..fw];
        let frac: Vec<Lit> = (0..tw)
            .map(|j| {
                // Aligned at the top.
                let k = j as isize + fw as isize - tw as isize;
                if k >= 0 {
                    src[k as usize]
                } else {
                    self.fls()
                }
            })
            .collect();
        let nan = self.fp_special(to, u.sign, &frac);
        let nan = self.fp_quiet(to, &nan);
        self.bv_ite(u.nan, &nan, &r)
    }

    /// `x` converted to an integer of `width` bits, truncated toward zero, and whether the
    /// truncated value is out of the integer type's range (a NaN and the infinities are), where
    /// C leaves the result undefined (the vector is then of no meaning).
    pub fn fp_to_int(
        &mut self,
        f: FloatFormat,
        x: &BitVec,
        width: u32,
        signed: bool,
    ) -> (BitVec, Lit) {
        let u = self.fp_unpack(f, x);
        let t = f.precision() + width;
        let sig = self.bv_zero_extend(&u.sig, t);
        let zero = self.bv_const(EW, 0);
        let left = !self.bv_slt(&u.exp, &zero);
        let wc = self.bv_const(EW, u64::from(width));
        let too_big = self.bv_slt(&wc, &u.exp);
        let nexp = self.bv_neg(&u.exp);
        let l = self.bv_shl(&sig, &u.exp);
        let r = self.bv_lshr(&sig, &nexp);
        let m = self.bv_ite(left, &l, &r);
        // In range: below 2^(width-1) (signed, 2^(width-1) itself when negative) or 2^width
        // (unsigned; a negative value must truncate to 0).
        let limit_bits = if signed { width - 1 } else { width };
        let high = self.or_all(&m.bits()[limit_bits as usize..]);
        let low_zero = !self.or_all(&m.bits()[..limit_bits as usize]);
        let top_only = {
            let at = self.or_all(&m.bits()[limit_bits as usize + 1..]);
            let bit = m.bit(limit_bits);
            self.and(bit, !at)
        };
        let out = if signed {
            // Negative: `high` is allowed only as exactly 2^(width-1).
            let neg_ok = self.and(top_only, low_zero);
            let neg_bad = self.and(high, !neg_ok);
            self.mux(u.sign, neg_bad, high)
        } else {
            let nonzero = self.bv_nonzero(&m);
            let neg_bad = nonzero;
            self.mux(u.sign, neg_bad, high)
        };
        let special = self.or(u.nan, u.inf);
        let out = self.or(out, special);
        let out = self.or(out, too_big);
        let mw = self.bv_truncate(&m, width);
        let nm = self.bv_neg(&mw);
        let v = self.bv_ite(u.sign, &nm, &mw);
        (v, out)
    }
}
