//! Small arrays as lists of element vectors, read and written at a symbolic index.
//!
//! An array of `n` elements is `&[BitVec]`; a read is an if-then-else chain over the `n`
//! possible indices and a write returns the new list (functional update), so the size is linear
//! in `n` per access. Meant for the few small arrays symex keeps whole; it is not a theory of
//! arrays. Indices are read unsigned. An out-of-range read returns a fresh unconstrained value
//! and an out-of-range write changes nothing: the caller asserts [`Encoder::array_in_bounds`]
//! where C makes the access undefined.

use crate::bitvec::BitVec;
use crate::gates::Encoder;
use solver_glue::Lit;

impl Encoder<'_> {
    /// `index < len`, unsigned.
    pub fn array_in_bounds(&mut self, index: &BitVec, len: usize) -> Lit {
        if index.width() < 64 && (len as u64) >= 1u64 << index.width() {
            return self.tru();
        }
        let bound = self.bv_const(index.width(), len as u64);
        self.bv_ult(index, &bound)
    }

    /// `elems[index]`; a fresh value when the index is out of range. `elems` is non-empty and
    /// all elements have one width.
    pub fn array_read(&mut self, elems: &[BitVec], index: &BitVec) -> BitVec {
        assert!(!elems.is_empty(), "array_read on an empty array");
        let width = elems[0].width();
        if let Some(i) = self.bv_const_value(index) {
            return match usize::try_from(i).ok().and_then(|i| elems.get(i)) {
                Some(e) => e.clone(),
                None => self.bv_fresh(width),
            };
        }
        let reachable = reachable_len(elems.len(), index.width());
        let (mut acc, rest) = if index_covers(index.width(), reachable) {
            // Every index value names an element: start from the last reachable one.
            (elems[reachable - 1].clone(), reachable - 1)
        } else {
            (self.bv_fresh(width), reachable)
        };
        for i in (0..rest).rev() {
            let k = self.bv_const(index.width(), i as u64);
            let hit = self.bv_eq(index, &k);
            acc = self.bv_ite(hit, &elems[i], &acc);
        }
        acc
    }

    /// `elems` with `elems[index] = value`; unchanged when the index is out of range.
    pub fn array_write(&mut self, elems: &[BitVec], index: &BitVec, value: &BitVec) -> Vec<BitVec> {
        let reachable = reachable_len(elems.len(), index.width());
        elems
            .iter()
            .enumerate()
            .map(|(i, e)| {
                if i >= reachable {
                    return e.clone();
                }
                let k = self.bv_const(index.width(), i as u64);
                let hit = self.bv_eq(index, &k);
                self.bv_ite(hit, value, e)
            })
            .collect()
    }
}

/// How many leading elements an index of `index_width` bits can name.
fn reachable_len(len: usize, index_width: u32) -> usize {
    if index_width >= 64 {
        len
    } else {
        len.min(usize::try_from(1u64 << index_width).unwrap_or(usize::MAX))
    }
}

/// Whether every value of an `index_width`-bit index is below `len`.
fn index_covers(index_width: u32, len: usize) -> bool {
    index_width < 64 && (len as u64) >= 1u64 << index_width
}
