//! The byte offsets a pointer may have inside an object it designates: the offset half of the
//! points-to analysis ([`super::PointsTo`]).
//!
//! Symbolic execution expands an access through a computed pointer into one alternative per
//! cell the pointer may hit. Without offsets that is every cell of the access's width in every
//! object of the points-to set: a pointer to the `cell` member of one of four structs of an
//! array, read back from shared memory, becomes sixteen alternative reads instead of four. The
//! offsets cut the alternatives to the cells the pointer's provenance allows.
//!
//! The domain, per object: a finite set of offsets (at most [`SET_LIMIT`]), the offsets
//! congruent to a remainder modulo a stride (an array element's member whatever the index),
//! or any offset. Offsets are true integers (signed), not wrapped: a pointer that stays in its
//! object (the IR's rule for pointer arithmetic, which the object half relies on as well) has
//! its offset as the true sum of the constants and multiples of element sizes added to the
//! address it started from.
//!
//! Why an offset it does not list cannot hide a bug: symbolic execution builds no alternative
//! for such a cell, so an execution whose pointer hits it hits no alternative at all, which is
//! the invalid-access case of every computed pointer: an invalid read (its value arbitrary, an
//! over-approximation; no counterexample may contain one) or an invalid write (unsupported,
//! which blocks TRUE). The analysis can only cost precision if it misses an offset, never a
//! verdict.

use std::collections::BTreeSet;

/// At most this many offsets are kept as a set; more become a stride.
pub const SET_LIMIT: usize = 64;

/// The offsets a pointer may have inside one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offs {
    /// Exactly these offsets (never empty, at most [`SET_LIMIT`]).
    Set(BTreeSet<i64>),
    /// The offsets `rem + k·stride` for every integer `k` (`stride ≥ 2`, `0 ≤ rem < stride`).
    Stride { rem: i64, stride: i64 },
    /// Any offset.
    Any,
}

/// What is added to a pointer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A known byte count.
    Const(i64),
    /// An unknown multiple of this many bytes (≥ 1; 1 is any count).
    Multiple(i64),
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.min(i64::MAX as u64) as i64
}

impl Offs {
    /// The offset of an object's start.
    pub fn zero() -> Offs {
        Offs::at(0)
    }

    /// One offset.
    pub fn at(k: i64) -> Offs {
        Offs::Set(BTreeSet::from([k]))
    }

    /// `rem + k·stride` for all `k`, normalised (a stride of 0 is the single offset, of 1 any).
    fn stride(rem: i64, stride: i64) -> Offs {
        match stride.unsigned_abs() {
            0 => Offs::at(rem),
            1 => Offs::Any,
            _ => {
                let s = stride.abs();
                Offs::Stride {
                    rem: rem.rem_euclid(s),
                    stride: s,
                }
            }
        }
    }

    /// Whether `off` is one of the offsets.
    pub fn contains(&self, off: i64) -> bool {
        match self {
            Offs::Set(s) => s.contains(&off),
            Offs::Stride { rem, stride } => off.rem_euclid(*stride) == *rem,
            Offs::Any => true,
        }
    }

    /// The least upper bound of two offset sets.
    pub fn join(&self, other: &Offs) -> Offs {
        match (self, other) {
            (Offs::Any, _) | (_, Offs::Any) => Offs::Any,
            (Offs::Set(a), Offs::Set(b)) => {
                let u: BTreeSet<i64> = a.union(b).copied().collect();
                if u.len() <= SET_LIMIT {
                    return Offs::Set(u);
                }
                let first = *u.first().expect("a union of non-empty sets");
                let g = u.iter().fold(0, |g, &x| gcd(g, x.wrapping_sub(first)));
                Offs::stride(first, g)
            }
            (Offs::Set(s), Offs::Stride { rem, stride })
            | (Offs::Stride { rem, stride }, Offs::Set(s)) => {
                let g = s.iter().fold(*stride, |g, &x| gcd(g, x.wrapping_sub(*rem)));
                Offs::stride(*rem, g)
            }
            (
                Offs::Stride {
                    rem: r1,
                    stride: s1,
                },
                Offs::Stride {
                    rem: r2,
                    stride: s2,
                },
            ) => Offs::stride(*r1, gcd(gcd(*s1, *s2), r1.wrapping_sub(*r2))),
        }
    }

    /// The offsets after adding `step`.
    pub fn add(&self, step: Step) -> Offs {
        match (self, step) {
            (Offs::Any, _) => Offs::Any,
            (Offs::Set(s), Step::Const(k)) => {
                Offs::Set(s.iter().map(|&x| x.wrapping_add(k)).collect())
            }
            (Offs::Stride { rem, stride }, Step::Const(k)) => {
                Offs::stride(rem.wrapping_add(k), *stride)
            }
            (_, Step::Multiple(m)) => {
                let base = match self {
                    Offs::Set(s) => *s.first().expect("a non-empty set"),
                    Offs::Stride { rem, .. } => *rem,
                    Offs::Any => unreachable!("handled above"),
                };
                self.join(&Offs::stride(base, m))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_widens_sets_to_the_gcd_stride() {
        let a = (0..SET_LIMIT as i64).map(|k| 8 + 16 * k).collect();
        let big = Offs::Set(a).join(&Offs::at(8 + 16 * 64));
        assert_eq!(big, Offs::Stride { rem: 8, stride: 16 });
        assert!(big.contains(-8) && big.contains(24) && !big.contains(12));
        let odd = big.join(&Offs::at(12));
        assert_eq!(odd, Offs::Stride { rem: 0, stride: 4 });
        assert_eq!(odd.join(&Offs::at(13)), Offs::Any);
    }

    #[test]
    fn adding_a_multiple_keeps_the_member_offset() {
        // &threads[i].cell: the start of the array, any element of 16 bytes, member at 8.
        let p = Offs::zero().add(Step::Multiple(16)).add(Step::Const(8));
        assert_eq!(p, Offs::Stride { rem: 8, stride: 16 });
        assert!(p.contains(40) && !p.contains(44));
        // `p + 4` then `- 4`: back to the member.
        assert_eq!(p.add(Step::Const(4)).add(Step::Const(-4)), p);
        // An element of 12 bytes, a negative index included: true integers, not wrapped.
        let q = Offs::at(4).add(Step::Multiple(12));
        assert!(q.contains(4) && q.contains(16) && q.contains(-8) && !q.contains(8));
        assert_eq!(Offs::at(3).add(Step::Multiple(1)), Offs::Any);
    }
}
