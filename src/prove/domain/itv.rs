//! Integer intervals with one excluded constant: the numeric part of the analyser's domain.
//!
//! A value `Itv { lo, hi, ne }` stands for the set `{ v | lo <= v <= hi, v != ne }` of
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

/// `{ v | lo <= v <= hi, v != ne }`, never empty (emptiness is `Option::None` at the callers).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Itv {
    pub lo: i128,
    pub hi: i128,
    /// An excluded value strictly inside `(lo, hi)` (normalised: never at a bound).
    pub ne: Option<i128>,
}

impl Itv {
    pub fn new(lo: i128, hi: i128) -> Itv {
        Itv { lo, hi, ne: None }
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
        Some(Itv { lo, hi, ne })
    }
    pub fn as_single(self) -> Option<i128> {
        (self.lo == self.hi).then_some(self.lo)
    }
    pub fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi && self.ne != Some(v)
    }
    /// Whether every member is in `other`.
    pub fn subset(self, other: Itv) -> bool {
        if self.lo < other.lo || self.hi > other.hi {
            return false;
        }
        match other.ne {
            Some(c) => !self.contains(c),
            None => true,
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
        Itv::norm(lo, hi, ne).unwrap_or(Itv::new(lo, hi))
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
                ne = [a, b].into_iter().find(|&c| c > l2 && c < h2);
            }
        }
        Itv::norm(l2, h2, ne)
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
        // An excluded value is kept only if it was stable.
        let ne = if j.ne == self.ne { self.ne } else { None };
        Itv::norm(lo, hi, ne).unwrap_or(Itv::new(lo, hi))
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
                    Itv::norm(lo, hi, ne).unwrap_or(Itv::new(lo, hi))
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
    pub fn add(self, o: Itv) -> Itv {
        Itv::new(self.lo + o.lo, self.hi + o.hi)
    }
    pub fn sub(self, o: Itv) -> Itv {
        Itv::new(self.lo - o.hi, self.hi - o.lo)
    }
    pub fn neg(self) -> Itv {
        Itv::norm(-self.hi, -self.lo, self.ne.map(|c| -c)).unwrap_or(Itv::new(-self.hi, -self.lo))
    }
    /// Product: the hull of the corner products (multiplication is monotone in each
    /// argument on each sign-constant piece, so the extremes are at corners); `None` when a
    /// corner does not fit `i128` (the caller then takes the full range).
    pub fn mul(self, o: Itv) -> Option<Itv> {
        let cs = [
            self.lo.checked_mul(o.lo)?,
            self.lo.checked_mul(o.hi)?,
            self.hi.checked_mul(o.lo)?,
            self.hi.checked_mul(o.hi)?,
        ];
        Some(Itv::new(
            *cs.iter().min().expect("four corners"),
            *cs.iter().max().expect("four corners"),
        ))
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
        let over = Itv::new(i32r.max, i32r.max).add(Itv::single(1));
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
    fn constants_decode_by_signedness() {
        assert_eq!(Range::int(32, true).of_const(u64::MAX), -1);
        assert_eq!(Range::int(32, false).of_const(0xffff_ffff), 0xffff_ffff);
        assert_eq!(Range::int(8, true).of_const(0x80), -128);
    }
}
