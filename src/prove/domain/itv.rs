//! Integer intervals with one excluded constant and a congruence: the numeric part of the
//! analyser's domain.
//!
//! A value `Itv { lo, hi, ne, m, r }` stands for the set
//! `{ v | lo <= v <= hi, v != ne, v ≡ r (mod m) }` of
//! *mathematical* integers; a variable's value is the integer its bit pattern denotes under
//! its type's signedness, so the type's range bounds every interval. Arithmetic is computed
//! exactly on `i128` and then brought back into the type's range by [`Itv::wrap`], which is
//! the two's complement reduction the IR performs (an interval that straddles a wrap point
//! becomes the type's whole range). Every operation returns a superset of the set of results
//! of the concrete operation on members of its operands: that is the soundness argument of
//! each function below, case by case in their comments.

/// The range of an integer type: `[min, max]` and its width.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Range {
    pub min: i128,
    pub max: i128,
    pub bits: u32,
    pub signed: bool,
}

impl Range {
    pub fn int(bits: u32, signed: bool) -> Range {
        if signed {
            Range {
                min: -(1i128 << (bits - 1)),
                max: (1i128 << (bits - 1)) - 1,
                bits,
                signed,
            }
        } else {
            Range {
                min: 0,
                max: (1i128 << bits) - 1,
                bits,
                signed,
            }
        }
    }
    /// `_Bool`: 0 or 1.
    pub fn bool_() -> Range {
        Range {
            min: 0,
            max: 1,
            bits: 8,
            signed: false,
        }
    }
    pub fn full(self) -> Itv {
        Itv::new(self.min, self.max)
    }
    /// The value of bit pattern `bits` (as stored in `ExprKind::Const`) in this type.
    pub fn of_const(self, c: u64) -> i128 {
        if self.bits >= 64 {
            return if self.signed {
                c as i64 as i128
            } else {
                c as i128
            };
        }
        let mask = (1u64 << self.bits) - 1;
        let v = c & mask;
        if self.signed && v >> (self.bits - 1) & 1 == 1 {
            v as i128 - (1i128 << self.bits)
        } else {
            v as i128
        }
    }
    /// The bit pattern of value `v` (in range) as `ExprKind::Const` stores it.
    pub fn to_const(self, v: i128) -> u64 {
        v as i64 as u64
    }
    /// The value congruent to `v` modulo `2^bits` inside the range.
    fn reduce(self, v: i128) -> i128 {
        let m = 1i128 << self.bits;
        let r = (v - self.min).rem_euclid(m);
        r + self.min
    }
}

/// `{ v | lo <= v <= hi, v != ne, v ≡ r (mod m) }`, never empty (emptiness is
/// `Option::None` at the callers).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Itv {
    pub lo: i128,
    pub hi: i128,
    /// An excluded value strictly inside `(lo, hi)` (normalised: never at a bound).
    pub ne: Option<i128>,
    /// The congruence: modulus (1: none; the bounds are congruent to `r`) and remainder in
    /// `[0, m)`. A singleton keeps `m == 1` (its exact value says more).
    pub m: i128,
    pub r: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Itv {
    pub fn new(lo: i128, hi: i128) -> Itv {
        Itv {
            lo,
            hi,
            ne: None,
            m: 1,
            r: 0,
        }
    }
    /// The congruence `(m, r)`, `m == 0` for a singleton (`v ≡ lo` exactly).
    pub fn cong(self) -> (i128, i128) {
        if self.lo == self.hi {
            (0, self.lo)
        } else {
            (self.m, self.r)
        }
    }
    /// Adds the congruence `v ≡ r (mod m)` (`m >= 1`; `m == 0` means `v == r`): the bounds
    /// move inward to congruent values. `None` when empty.
    pub fn with_cong(self, m: i128, r: i128) -> Option<Itv> {
        if m == 0 {
            return self.contains(r).then_some(Itv::single(r));
        }
        if m == 1 {
            return Some(self);
        }
        let r = r.rem_euclid(m);
        let lo = self.lo + (r - self.lo).rem_euclid(m);
        let hi = self.hi - (self.hi - r).rem_euclid(m);
        let mut i = Itv::norm(lo, hi, self.ne)?;
        if i.lo == i.hi {
            return Some(i);
        }
        i.m = m;
        i.r = r;
        // An excluded bound moved by one may have left a non-congruent bound: tighten again.
        if (i.lo - r).rem_euclid(m) != 0 || (i.hi - r).rem_euclid(m) != 0 {
            return Itv::new(i.lo, i.hi).with_cong(m, r).map(|mut j| {
                j.ne = i.ne.filter(|&c| j.contains(c));
                j
            });
        }
        Some(i)
    }
    /// Whether `v` satisfies the congruence.
    fn cong_holds(self, v: i128) -> bool {
        self.m <= 1 || (v - self.r).rem_euclid(self.m) == 0
    }
    pub fn single(v: i128) -> Itv {
        Itv::new(v, v)
    }
    /// Normalises: an excluded bound moves the bound, an excluded value outside disappears.
    /// `None` when the set is empty.
    pub fn norm(lo: i128, hi: i128, ne: Option<i128>) -> Option<Itv> {
        let (mut lo, mut hi) = (lo, hi);
        if lo > hi {
            return None;
        }
        let mut ne = ne;
        if let Some(c) = ne {
            if c == lo {
                lo += 1;
                ne = None;
            } else if c == hi {
                hi -= 1;
                ne = None;
            } else if c < lo || c > hi {
                ne = None;
            }
        }
        if lo > hi {
            return None;
        }
        Some(Itv {
            lo,
            hi,
            ne,
            m: 1,
            r: 0,
        })
    }
    pub fn as_single(self) -> Option<i128> {
        (self.lo == self.hi).then_some(self.lo)
    }
    pub fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi && self.ne != Some(v) && self.cong_holds(v)
    }
    /// Whether every member is in `other`.
    pub fn subset(self, other: Itv) -> bool {
        if self.lo < other.lo || self.hi > other.hi {
            return false;
        }
        let cong_ok = match (self.cong(), other.cong()) {
            (_, (m2, _)) if m2 <= 1 => true,
            ((0, v), (m2, r2)) => (v - r2).rem_euclid(m2) == 0,
            ((m1, r1), (m2, r2)) => m1 % m2 == 0 && (r1 - r2).rem_euclid(m2) == 0,
        };
        cong_ok
            && match other.ne {
                Some(c) => !self.contains(c),
                None => true,
            }
    }
    /// The congruence of the union of two sets with these congruences.
    fn join_cong(a: (i128, i128), b: (i128, i128)) -> (i128, i128) {
        let m = gcd(gcd(a.0, b.0), a.1 - b.1);
        if m == 0 {
            (0, a.1)
        } else {
            (m, a.1.rem_euclid(m))
        }
    }
    /// Least upper bound (the excluded value survives only if neither side holds it).
    pub fn join(self, o: Itv) -> Itv {
        let lo = self.lo.min(o.lo);
        let hi = self.hi.max(o.hi);
        let ne = [self.ne, o.ne]
            .into_iter()
            .flatten()
            .find(|&c| !self.contains(c) && !o.contains(c));
        let base = Itv::norm(lo, hi, ne).unwrap_or(Itv::new(lo, hi));
        let (m, r) = Itv::join_cong(self.cong(), o.cong());
        base.with_cong(m.max(1), r).unwrap_or(base)
    }
    /// Intersection (exact, except that two different excluded values keep only one: a
    /// superset of the intersection).
    pub fn meet(self, o: Itv) -> Option<Itv> {
        let lo = self.lo.max(o.lo);
        let hi = self.hi.min(o.hi);
        let mut ne = self.ne.or(o.ne);
        // Keep the excluded value that is inside; normalise the other one into a bound.
        let (mut l2, mut h2) = (lo, hi);
        for c in [self.ne, o.ne].into_iter().flatten() {
            if c == l2 {
                l2 += 1;
            } else if c == h2 {
                h2 -= 1;
            }
        }
        if let (Some(a), Some(b)) = (self.ne, o.ne) {
            if a != b {
                // Room for one: 0 first (`x != 0` is what guards and divisions need).
                let mut both = [a, b];
                both.sort_by_key(|c| (*c != 0, *c));
                ne = both.into_iter().find(|&c| c > l2 && c < h2);
            }
        }
        let base = Itv::norm(l2, h2, ne)?;
        // Keep the finer congruence when one refines the other, either one otherwise (a
        // superset of the intersection); incompatible ones meet in the empty set.
        let (a, b) = (self.cong(), o.cong());
        let (m, r) = match (a, b) {
            ((0, v), _) | (_, (0, v)) => (0, v),
            ((m1, _), (m2, r2)) if m1 <= 1 => (m2, r2),
            ((m1, r1), (m2, _)) if m2 <= 1 => (m1, r1),
            ((m1, r1), (m2, r2)) if m1 % m2 == 0 || m2 % m1 == 0 => {
                let g = m1.min(m2);
                if (r1 - r2).rem_euclid(g) != 0 {
                    return None;
                }
                if m1 >= m2 {
                    (m1, r1)
                } else {
                    (m2, r2)
                }
            }
            ((m1, r1), _) => (m1, r1),
        };
        let out = base.with_cong(m, r)?;
        // A singleton from one side must satisfy the other's congruence too.
        if let Some(v) = out.as_single() {
            if !self.contains(v) || !o.contains(v) {
                return None;
            }
        }
        Some(out)
    }
    /// Widening with thresholds: a bound that grows jumps to the next threshold beyond it
    /// (`thresholds` sorted ascending), or to the type's bound. Terminates because each
    /// bound can only take the finitely many threshold values and the type's bounds.
    pub fn widen(self, new: Itv, range: Range, thresholds: &[i128]) -> Itv {
        let j = self.join(new);
        let lo = if j.lo < self.lo {
            thresholds
                .iter()
                .rev()
                .copied()
                .find(|&t| t <= j.lo && t >= range.min)
                .unwrap_or(range.min)
        } else {
            self.lo
        };
        let hi = if j.hi > self.hi {
            thresholds
                .iter()
                .copied()
                .find(|&t| t >= j.hi && t <= range.max)
                .unwrap_or(range.max)
        } else {
            self.hi
        };
        // The join's excluded value (one neither side holds). Still terminating: once the
        // bounds are stable, a join can only drop the excluded value, never pick another one
        // (a different one would have to lie outside the stable interval or be its hole).
        let ne = j.ne;
        let base = Itv::norm(lo, hi, ne).unwrap_or(Itv::new(lo, hi));
        let (m, r) = j.cong();
        base.with_cong(m.max(1), r).unwrap_or(base)
    }

    /// Brings an exact result back into the type: unchanged when it fits; shifted by a
    /// multiple of `2^bits` when the whole interval lands inside one period; else the full
    /// range. Sound because the concrete result is the exact one reduced modulo `2^bits`.
    pub fn wrap(self, range: Range) -> Itv {
        if self.lo >= range.min && self.hi <= range.max {
            return self;
        }
        let width = self.hi.checked_sub(self.lo);
        match width {
            Some(w) if w < range.max - range.min => {
                let lo = range.reduce(self.lo);
                let hi = range.reduce(self.hi);
                if lo <= hi {
                    let ne = self.ne.map(|c| range.reduce(c));
                    let base = Itv::norm(lo, hi, ne).unwrap_or(Itv::new(lo, hi));
                    // The shift is a multiple of 2^bits: a congruence modulo a power of two
                    // up to 2^bits survives it.
                    let (m, r) = self.cong();
                    if m > 1 && m.count_ones() == 1 && m <= 1i128 << range.bits {
                        base.with_cong(m, r).unwrap_or(base)
                    } else {
                        base
                    }
                } else {
                    range.full()
                }
            }
            _ => range.full(),
        }
    }

    /// Whether 0 is a member / a non-zero value is a member.
    pub fn may_zero(self) -> bool {
        self.contains(0)
    }
    pub fn may_nonzero(self) -> bool {
        !(self.lo == 0 && self.hi == 0)
    }

    /// Exact sum on `i128` (callers wrap).
    pub fn plus(self, o: Itv) -> Itv {
        let base = Itv::new(self.lo + o.lo, self.hi + o.hi);
        let ((m1, r1), (m2, r2)) = (self.cong(), o.cong());
        let m = gcd(m1, m2);
        base.with_cong(m.max(1), r1 + r2).unwrap_or(base)
    }
    pub fn minus(self, o: Itv) -> Itv {
        let base = Itv::new(self.lo - o.hi, self.hi - o.lo);
        let ((m1, r1), (m2, r2)) = (self.cong(), o.cong());
        let m = gcd(m1, m2);
        base.with_cong(m.max(1), r1 - r2).unwrap_or(base)
    }
    pub fn negated(self) -> Itv {
        let base = Itv::norm(-self.hi, -self.lo, self.ne.map(|c| -c))
            .unwrap_or(Itv::new(-self.hi, -self.lo));
        let (m, r) = self.cong();
        base.with_cong(m.max(1), -r).unwrap_or(base)
    }
    /// Product: the hull of the corner products (multiplication is monotone in each
    /// argument on each sign-constant piece, so the extremes are at corners); `None` when a
    /// corner does not fit `i128` (the caller then takes the full range).
    pub fn times(self, o: Itv) -> Option<Itv> {
        let cs = [
            self.lo.checked_mul(o.lo)?,
            self.lo.checked_mul(o.hi)?,
            self.hi.checked_mul(o.lo)?,
            self.hi.checked_mul(o.hi)?,
        ];
        let base = Itv::new(
            *cs.iter().min().expect("four corners"),
            *cs.iter().max().expect("four corners"),
        );
        // By a constant c: multiples of c, with the congruence scaled.
        let scaled = match (self.as_single(), o.as_single()) {
            (Some(c), None) => Some((o, c)),
            (None, Some(c)) => Some((self, c)),
            _ => None,
        };
        Some(match scaled {
            Some((x, c)) if c != 0 => {
                let (m, r) = x.cong();
                let m2 = m.checked_mul(c.abs()).unwrap_or(1).max(1);
                let m2 = if m == 1 { c.abs() } else { m2 };
                base.with_cong(m2, r.wrapping_mul(c)).unwrap_or(base)
            }
            _ => base,
        })
    }
    /// Quotient by a positive constant divisor, truncating toward zero (monotone
    /// non-decreasing in the dividend, so the bounds map to the bounds).
    pub fn div_pos(self, d: i128) -> Itv {
        Itv::new(self.lo / d, self.hi / d)
    }
    /// Remainder by a positive constant: C's `%` has the sign of the dividend and a
    /// magnitude below `d`, and is the dividend itself when `0 <= dividend < d`.
    pub fn rem_pos(self, d: i128) -> Itv {
        if self.lo >= 0 && self.hi < d {
            return self;
        }
        let lo = if self.lo < 0 { -(d - 1) } else { 0 };
        let hi = if self.hi > 0 { (d - 1).min(self.hi) } else { 0 };
        Itv::new(lo.max(self.lo.min(0)), hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_shifts_or_goes_full() {
        let i32r = Range::int(32, true);
        assert_eq!(Itv::new(0, 10).wrap(i32r), Itv::new(0, 10));
        let over = Itv::new(i32r.max, i32r.max).plus(Itv::single(1));
        assert_eq!(over.wrap(i32r), Itv::single(i32r.min));
        assert_eq!(Itv::new(i32r.max - 1, i32r.max + 1).wrap(i32r), i32r.full());
        let u8r = Range::int(8, false);
        assert_eq!(Itv::single(-1).wrap(u8r), Itv::single(255));
    }

    #[test]
    fn excluded_value_normalises_and_joins() {
        assert_eq!(Itv::norm(0, 5, Some(0)), Some(Itv::new(1, 5)));
        let a = Itv::norm(-5, 5, Some(0)).unwrap();
        assert!(!a.contains(0));
        assert!(a.join(Itv::new(1, 9)).ne == Some(0));
        assert!(a.join(Itv::new(-1, 1)).ne.is_none());
        assert_eq!(a.meet(Itv::single(0)), None);
    }

    #[test]
    fn widening_climbs_thresholds_then_type_bound() {
        let r = Range::int(32, true);
        let th = [0, 10, 641, 642];
        let w = Itv::new(1, 3).widen(Itv::new(1, 5), r, &th);
        assert_eq!(w, Itv::new(1, 10));
        let w2 = w.widen(Itv::new(1, 642), r, &th);
        assert_eq!(w2, Itv::new(1, 642));
        let w3 = w2.widen(Itv::new(1, 700), r, &th);
        assert_eq!(w3, Itv::new(1, r.max));
    }

    #[test]
    fn congruences_follow_arithmetic_and_tighten_bounds() {
        let odd = Itv::single(1).join(Itv::single(3));
        assert_eq!((odd.m, odd.r), (2, 1));
        let next = odd.plus(Itv::single(2));
        assert_eq!((next.lo, next.hi, next.m, next.r), (3, 5, 2, 1));
        let capped = odd.join(next).meet(Itv::new(0, 640)).unwrap();
        let w = capped.widen(capped.join(Itv::single(7)), Range::int(32, true), &[640]);
        assert_eq!((w.hi, w.m), (639, 2));
        assert!(!w.contains(0) && !w.contains(2));
        assert_eq!(w.meet(Itv::single(4)), None);
        let r = Range::int(32, true);
        let big = Itv::new(r.max - 1, r.max).with_cong(2, 1).unwrap();
        assert_eq!(big.as_single(), Some(r.max));
    }

    #[test]
    fn constants_decode_by_signedness() {
        assert_eq!(Range::int(32, true).of_const(u64::MAX), -1);
        assert_eq!(Range::int(32, false).of_const(0xffff_ffff), 0xffff_ffff);
        assert_eq!(Range::int(8, true).of_const(0x80), -128);
    }
}
