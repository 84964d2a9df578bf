//! Pinning input-dependent pointer offsets and sizes: where a value computed from an input
//! becomes a pointer's offset (`p + i`, `p - i`) or the size of an allocation or a memory
//! operation, the run records decisions that locate the value exactly, and goes on with it
//! as a constant. The search explores the other way of each decision the path condition
//! allows (`concolic::search`), so every feasible value is a branch of its own.
//!
//! Why exact: the decisions are comparisons of the value's term with constants that depend
//! only on the outcomes of the decisions before them (never on this run's concrete value),
//! so the decisions of a branch hold for exactly the inputs that give its value. Under the
//! branch's path condition every input then gives the same pointer or size, which is the
//! invariant of `shadow` (a value without a term is the same for all inputs of the path);
//! no value is left out, as the decisions of every level split the whole range in two.
//! The cost is the number of feasible values: an offset inside its object takes about
//! log2(object size) decisions, a size about 2 × log2(size). An unconstrained size
//! enumerates its values until the time limit (UNKNOWN): the memory stays concrete.

use super::{trap, Machine, ObjId, Prov, R};
use crate::explore::concolic::term::{BvOp, CmpOp, SymId};

impl<'p> Machine<'p> {
    /// Pins the offset `base ± d` (modulo the pointer width) of a pointer with provenance
    /// `prov` plus (or minus, `sub`) an integer with term `d` (64 bits), whose value this run
    /// is `off`. First whether the offset lies in the object or just past it (the offsets C
    /// allows), then bisection over those; the branch of the offsets elsewhere ends as
    /// unsupported (with constant operands such a pointer is no trap until it is used).
    pub(super) fn pin_offset(
        &self,
        prov: Option<Prov>,
        base: u64,
        d: SymId,
        sub: bool,
        off: u64,
        ptr_bits: u32,
    ) -> R<()> {
        let w = ptr_bits.clamp(1, 64);
        let t = {
            let mut k = self.terms();
            let d = k.trunc(w, d);
            let b = k.constant(w, base);
            k.bin(if sub { BvOp::Sub } else { BvOp::Add }, b, d)
        };
        let len = match prov {
            Some(Prov::Obj(o)) => self.object_len(o),
            _ => 0,
        };
        let top = 1u128 << w;
        let end = (len as u128 + 1).min(top);
        if end == top {
            return self.bisect(t, w, off, 0, top);
        }
        let inside = (off as u128) < end;
        self.record(self.below(t, w, end as u64), inside)?;
        if !inside {
            // Pinning would make each feasible offset out there a branch: an offset
            // checked only after the arithmetic (`p = a + x; if (0 <= x && x < n) *p`)
            // would enumerate every value of x.
            return trap("unsupported: input-dependent pointer offset outside its object");
        }
        self.bisect(t, w, off, 0, end)
    }

    /// Pins an unsigned size of `bits` bits with term `s` (64 bits), `n` this run.
    pub(super) fn pin_size(&self, s: SymId, bits: u32, n: u64) -> R<()> {
        let w = bits.clamp(1, 64);
        let t = self.terms().trunc(w, s);
        let n = super::eval::norm(n, w, false);
        self.gallop(t, w, n, 0)
    }

    /// The bytes of an object.
    fn object_len(&self, o: ObjId) -> u64 {
        self.obj(o).bytes.len() as u64
    }

    /// The one-bit term `t < c` (unsigned, `w` bits).
    fn below(&self, t: SymId, w: u32, c: u64) -> SymId {
        let mut k = self.terms();
        let c = k.constant(w, c);
        k.cmp(CmpOp::Ult, t, c)
    }

    /// Pins `t` (value `v`), known to be at least `lo`: decisions `t < lo + 2^k` for k = 0, 1,
    /// ... until one holds (or the range ends), then bisection of the last interval.
    fn gallop(&self, t: SymId, w: u32, v: u64, lo: u128) -> R<()> {
        let top = 1u128 << w;
        let mut from = lo;
        let mut k = 0;
        loop {
            let c = lo + (1u128 << k);
            if c >= top {
                return self.bisect(t, w, v, from, top);
            }
            let under = (v as u128) < c;
            self.record(self.below(t, w, c as u64), under)?;
            if under {
                return self.bisect(t, w, v, from, c);
            }
            from = c;
            k += 1;
        }
    }

    /// Pins `t` (value `v`), known to lie in [lo, hi), by halving the interval.
    fn bisect(&self, t: SymId, w: u32, v: u64, mut lo: u128, mut hi: u128) -> R<()> {
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let under = (v as u128) < mid;
            self.record(self.below(t, w, mid as u64), under)?;
            if under {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Ok(())
    }
}
