//! Builtins with a memory effect of their own: `malloc`/`calloc` (a heap object per site and
//! occurrence), and `memset`/`memcpy` with a constant length, leaf by leaf.

use encoder::BitVec;

use super::access::{Via, POINTER_BYTES};
use super::exec::Symex;
use super::memory::{InitValue, ObjId, ObjKind, Object};
use super::state::{State, Val};
use super::{unsupported, SymexError};
use crate::ir::{Expr, Place};
use crate::sharing::AbsObj;

/// Elements of cells a dynamic object (`malloc` of a size that is not a constant) is given; its
/// accesses beyond them are invalid accesses (see `memory::Object::limit`), which only an
/// UNKNOWN can come from.
pub const DYNAMIC_CAPACITY: u64 = 32;

impl Symex<'_, '_, '_> {
    /// `malloc`/`calloc`: a heap object of the constant size, typed by the pointer it is
    /// assigned to when the size fits that type; of a size that is not constant, a dynamic
    /// object whose accesses are checked against that size (`memory::Object::limit`).
    pub(super) fn alloc(
        &mut self,
        dst: Option<&Place>,
        size: &Expr,
        zeroed: bool,
        site: u32,
        kind: crate::ir::AllocKind,
        s: &mut State,
    ) -> Result<(), SymexError> {
        self.effects.push(s.guard);
        let sz = self.eval_scalar(size, s, None)?;
        let (n, limit) = match self.enc.bv_const_value(&sz) {
            Some(n) => (n, None),
            None => (self.dynamic_capacity(dst), Some(sz)),
        };
        let name = format!("heap{}#{}", site, self.mem.objects.len());
        let init = if zeroed {
            InitValue::Zero
        } else {
            InitValue::Nondet
        };
        // Typed by the pointer it is assigned to, when the size fits that type.
        let types = &self.prog.types;
        let leaves = dst
            .and_then(|d| types.pointee(d.ty))
            .and_then(|t| {
                let es = types.size_of(t)?;
                (es > 0 && n % es == 0).then_some((t, n / es, es))
            })
            .and_then(|(t, k, es)| {
                let inner = super::memory::leaves(types, t).ok()?;
                Some(
                    (0..k)
                        .flat_map(|i| inner.iter().map(move |&(o, b)| (i * es + o, b)))
                        .collect::<Vec<_>>(),
                )
            });
        let obj = self.new_object(
            AbsObj::Heap(crate::ir::AllocSite::from_u32(site)),
            Object {
                name,
                kind: ObjKind::Heap,
                size: n,
                leaves,
                init,
                bytes: false,
                cells: Default::default(),
                limit,
            },
        )?;
        self.allocated(obj, kind, s);
        if let Some(d) = dst {
            let bits = self.prog.types.bits(d.ty);
            let p = self.enc.bv_const(bits, self.mem.pointer(obj, 0));
            let g = s.guard;
            self.write_place(d, Val::Scalar(p), g, s)?;
        }
        Ok(())
    }

    /// The bytes of cells a dynamic object gets: [`DYNAMIC_CAPACITY`] elements of the type the
    /// result is assigned to (8-byte units when untyped).
    fn dynamic_capacity(&self, dst: Option<&Place>) -> u64 {
        let types = &self.prog.types;
        let es = dst
            .and_then(|d| types.pointee(d.ty))
            .and_then(|t| types.size_of(t))
            .filter(|&es| es > 0)
            .unwrap_or(8);
        es * DYNAMIC_CAPACITY
    }

    /// `memset(dst, byte, len)` with a constant length on the leaves of the target.
    pub fn memset(
        &mut self,
        dst: &Expr,
        byte: &Expr,
        len: &Expr,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let p = self.eval_scalar(dst, s, None)?;
        let b = self.eval_scalar(byte, s, None)?;
        let b = self.resize(&b, 8, false);
        let n = self.eval_scalar(len, s, None)?;
        let (Some(n), Some((o, off))) = (self.enc.bv_const_value(&n), self.const_pointer(&p))
        else {
            return unsupported("memset with a computed length or target");
        };
        let leaves = self.object_leaves_in(o, off, n)?;
        let g = s.guard;
        for (lo, bits) in leaves {
            let mut v = b.clone();
            while v.width() < bits {
                let mut bitsv = v.bits().to_vec();
                bitsv.extend_from_slice(b.bits());
                v = BitVec::from_bits(bitsv);
            }
            let v = self.resize(&v, bits, false);
            let ptr = self
                .enc
                .bv_const(self.mem.ptr_bits, self.mem.pointer(o, lo));
            self.store_through(&ptr, 0, Val::Scalar(v), bits, None, g, s, Via::Unknown)?;
        }
        Ok(())
    }

    /// `memcpy(dst, src, len)` with a constant length, leaf by leaf.
    pub fn memcpy(
        &mut self,
        dst: &Expr,
        src: &Expr,
        len: &Expr,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let pd = self.eval_scalar(dst, s, None)?;
        let ps = self.eval_scalar(src, s, None)?;
        let n = self.eval_scalar(len, s, None)?;
        let (Some(n), Some((od, offd)), Some((os, offs))) = (
            self.enc.bv_const_value(&n),
            self.const_pointer(&pd),
            self.const_pointer(&ps),
        ) else {
            return unsupported("memcpy with a computed length, source or target");
        };
        let g = s.guard;
        // Every value is read before the first store, so overlapping ranges copy as if through
        // a temporary buffer (memmove; for memcpy an overlap is undefined and this is one of
        // its meanings).
        // A leaf of pointer width may be a pointer: copied between a typed object and a byte
        // object, it is reported (see `access::POINTER_BYTES`).
        let leaves = self.object_leaves_in(od, offd, n)?;
        let ptr_bits = self.mem.ptr_bits;
        let mut values = Vec::with_capacity(leaves.len());
        for &(lo, bits) in &leaves {
            let from = self
                .enc
                .bv_const(ptr_bits, self.mem.pointer(os, offs + lo - offd));
            let inexact = (bits == ptr_bits).then_some(POINTER_BYTES);
            values.push(self.load(&from, 0, bits, inexact, s, g, Via::Unknown)?);
        }
        for ((lo, bits), v) in leaves.into_iter().zip(values) {
            let to = self.enc.bv_const(ptr_bits, self.mem.pointer(od, lo));
            let inexact = (bits == ptr_bits).then_some(POINTER_BYTES);
            self.store_through(&to, 0, Val::Scalar(v), bits, inexact, g, s, Via::Unknown)?;
        }
        Ok(())
    }

    pub(super) fn const_pointer(&self, p: &BitVec) -> Option<(ObjId, u64)> {
        let c = self.enc.bv_const_value(p)?;
        let off_bits = self.mem.off_bits();
        Some((
            ObjId::from_u32((c >> off_bits) as u32),
            c & ((1u64 << off_bits) - 1),
        ))
    }

    /// The cells of `o` inside [off, off + n): every byte of a byte object; else the typed
    /// leaves. The range must lie in the object; in a typed object it must cut no leaf, and
    /// bytes of it that are no leaf are padding, which no typed access reads (a read of padding
    /// through another type makes the object a byte object), so they are skipped. An untyped
    /// object, or a range that cuts a leaf, makes the object one that needs byte objects (no
    /// cells now; `exec::run` executes again).
    pub(super) fn object_leaves_in(
        &mut self,
        o: ObjId,
        off: u64,
        n: u64,
    ) -> Result<Vec<(u64, u32)>, SymexError> {
        let Some(obj) = self.mem.objects.get(o) else {
            return unsupported("memset/memcpy on an invalid pointer");
        };
        if matches!(obj.kind, ObjKind::Null | ObjKind::Function(_)) {
            return unsupported("memset/memcpy on an invalid pointer");
        }
        if off.checked_add(n).is_none_or(|end| end > obj.size) {
            return unsupported("memset/memcpy past the end of an object");
        }
        if obj.bytes {
            return Ok((off..off + n).map(|k| (k, 8)).collect());
        }
        let Some(leaves) = &obj.leaves else {
            if self.needs_bytes(o) {
                return Ok(Vec::new());
            }
            return unsupported("memset/memcpy on untyped memory");
        };
        let end = off + n;
        let mut inside = Vec::new();
        for &(lo, b) in leaves {
            let hi = lo + (b as u64).div_ceil(8);
            if lo >= off && hi <= end {
                inside.push((lo, b));
            } else if lo < end && hi > off {
                if self.needs_bytes(o) {
                    return Ok(Vec::new());
                }
                return unsupported("memset/memcpy over part of a scalar");
            }
        }
        Ok(inside)
    }
}
