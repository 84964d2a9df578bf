//! Memory of the interpreter: objects of bytes with the provenance of the pointers stored in
//! them, places (lvalues) resolved to (object, offset), and loads and stores. Every access to
//! an object other threads could reach is logged as an [`Access`] of the current step: the
//! explorers' dependency relation is built from that log, so an access that is not logged
//! would be a missed interleaving.

use std::collections::BTreeMap;

use super::eval::{norm, Cx};
use super::{trap, Access, Machine, ObjId, Prov, Provs, Scalar, Target, Value, R};
use crate::explore::concolic::term::SymId;
use crate::ir::{Place, PlaceBase, Proj, TypeId, VarId};

/// The entries of `m` (offset → (what, its size in bytes ≤ 8)) that overlap the `n` bytes at
/// `off`: the per-byte-range maps of an object (pointers, shadows) keep entries of at most 8
/// bytes, so only the entries from `off - 8` on can reach `off`.
pub(super) fn overlapping<T: Copy>(
    m: &BTreeMap<u64, (T, u8)>,
    off: u64,
    n: u64,
) -> impl Iterator<Item = (u64, (T, u8))> + '_ {
    m.range(off.saturating_sub(8)..off.saturating_add(n))
        .filter(move |(k, (_, sz))| **k + *sz as u64 > off)
        .map(|(k, v)| (*k, *v))
}

/// Largest object (bytes) a run may allocate or touch at once.
pub(super) const MAX_OBJECT: u64 = 1 << 24;

/// A memory object.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Object {
    pub bytes: Vec<u8>,
    /// Offset → (what the pointer stored there points to, its size in bytes).
    pub provs: BTreeMap<u64, (Prov, u8)>,
    pub alive: bool,
    /// A `malloc`/`calloc` result: the only objects `free` may free (valid-memsafety).
    pub heap: bool,
    /// Only its own thread can ever reach it (a local whose address is never taken, or one
    /// the sharing pass finds private, see `private_locals`): its accesses are not
    /// scheduling-relevant and are not logged.
    pub private: bool,
    /// A private object whose address is taken: its thread may write it through a pointer,
    /// from any of its frames. Such writes are not accesses, but they are effects for the
    /// spin reduction, which compares only the top frame's live variables
    /// (`Machine::hidden_writes`).
    pub escapes: bool,
    /// Bytes whose value is indeterminate (a declared, not yet written local); `None` when all
    /// are defined. A scalar read of them is a nondet input, as in symbolic execution.
    pub undef: Option<Vec<bool>>,
    /// Offset → (the term of the bytes stored there, their number): the symbolic shadow of
    /// input-dependent scalars stored in the object (concolic runs).
    pub syms: BTreeMap<u64, (SymId, u8)>,
}

impl Object {
    fn is_undef(&self, off: u64, n: u64) -> bool {
        self.undef
            .as_ref()
            .is_some_and(|u| u.iter().skip(off as usize).take(n as usize).any(|&b| b))
    }
    fn define(&mut self, off: u64, n: u64) {
        if let Some(u) = &mut self.undef {
            for b in u.iter_mut().skip(off as usize).take(n as usize) {
                *b = false;
            }
            if u.iter().all(|&b| !b) {
                self.undef = None;
            }
        }
    }
}

/// A value summary of bytes for access logs: the scalar's bits when it fits in 64 bits, else a
/// hash of the bytes (two equal values give equal summaries).
pub fn summary(bytes: &[u8]) -> u64 {
    if bytes.len() <= 8 {
        let mut raw = 0u64;
        for (k, b) in bytes.iter().enumerate() {
            raw |= (*b as u64) << (8 * k);
        }
        return raw;
    }
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

impl<'p> Machine<'p> {
    pub(super) fn new_var_object(&mut self, owner: u32, v: Option<VarId>, ty: TypeId) -> ObjId {
        let size = self.prog.types.size_of(ty).unwrap_or(0);
        let private = v.is_some_and(|v| {
            let d = &self.prog.vars[v];
            !d.is_global() && !self.reachable_local(v)
        });
        let o = self.new_object(owner, size, private);
        if private && v.is_some_and(|v| self.prog.vars[v].address_taken) {
            self.obj_mut(o).escapes = true;
        }
        o
    }

    /// A new object owned by `owner` (0: the program's globals; t + 1: thread t). Ids are
    /// numbered per owner, so that the objects a thread makes get the same ids whatever the
    /// other threads did before: two runs that differ only in the order of independent steps
    /// name their objects alike.
    pub(super) fn new_object(&mut self, owner: u32, size: u64, private: bool) -> ObjId {
        let o = owner as usize;
        if self.objects.len() <= o {
            self.objects.resize_with(o + 1, Vec::new);
        }
        self.objects[o].push(std::sync::Arc::new(Object {
            bytes: vec![0; size as usize],
            provs: BTreeMap::new(),
            alive: true,
            heap: false,
            private,
            escapes: false,
            undef: None,
            syms: BTreeMap::new(),
        }));
        ObjId {
            owner,
            index: (self.objects[o].len() - 1) as u32,
        }
    }

    pub(super) fn obj(&self, o: ObjId) -> &Object {
        &self.objects[o.owner as usize][o.index as usize]
    }

    pub(super) fn obj_mut(&mut self, o: ObjId) -> &mut Object {
        std::sync::Arc::make_mut(&mut self.objects[o.owner as usize][o.index as usize])
    }

    /// Marks the bytes of a local indeterminate (its lifetime starts again).
    pub(super) fn undefine(&mut self, o: ObjId) {
        let obj = self.obj_mut(o);
        obj.undef = Some(vec![true; obj.bytes.len()]);
    }

    /// Records an access of the current step to an object others may reach.
    pub(super) fn log(&mut self, o: ObjId, off: u64, len: u64, write: bool, value: u64) {
        let obj = self.obj(o);
        if !obj.private {
            self.accesses.push(Access {
                target: Target::Mem { obj: o, off, len },
                write,
                value,
            });
        } else if write && obj.escapes {
            self.hidden_writes += 1;
        }
    }

    /// Kills an object (a returning frame's locals, `free`): a write of all of it.
    pub(super) fn kill(&mut self, o: ObjId) {
        self.log(o, 0, u64::MAX, true, 0);
        self.obj_mut(o).alive = false;
    }

    /// `free`: a write of all its bytes (a data access, which races with an unordered access
    /// of another thread under no-data-race, unlike the lifetime write of [`Machine::kill`]),
    /// then the object dies.
    pub(super) fn free_object(&mut self, o: ObjId) {
        let n = self.obj(o).bytes.len() as u64;
        if n > 0 {
            self.log(o, 0, n, true, 0);
        }
        self.kill(o);
    }

    /// The object and offset a pointer designates, dereferenced by thread `t`.
    pub(super) fn deref(&self, t: usize, p: Scalar) -> R<(ObjId, u64)> {
        if p.sym.is_some() {
            return trap("unsupported: input-dependent pointer");
        }
        match p.prov {
            // A private object is its thread's own (see `private_locals`): main's frames
            // belong to owner 0 or 1, thread t's to t + 1.
            Some(Prov::Obj(o))
                if self.obj(o).private
                    && o.owner as usize != t + 1
                    && !(t == 0 && o.owner == 0) =>
            {
                trap("unsupported: another thread reaches a local the sharing pass found private")
            }
            Some(Prov::Obj(o)) => Ok((o, p.bits)),
            Some(Prov::Func(_)) => trap("dereference of a function pointer"),
            None if p.bits == 0 => trap("null pointer dereference"),
            None => trap("dereference of a pointer to no known object"),
        }
    }

    /// Whether reading or writing the place is an access other threads may observe.
    pub(super) fn shared(&self, p: &Place) -> bool {
        match &p.base {
            PlaceBase::Deref(_) => true,
            PlaceBase::Var(v) => {
                let d = &self.prog.vars[*v];
                (d.is_global() && !d.thread_local) || self.reachable_local(*v)
            }
        }
    }

    /// A local or parameter another thread may reach through a pointer: its address is
    /// taken and the sharing pass does not find it private (`private_locals`).
    pub(super) fn reachable_local(&self, v: VarId) -> bool {
        self.prog.vars[v].address_taken && !self.private_locals.contains(&v)
    }

    pub(super) fn var_object(&self, t: usize, v: VarId) -> R<ObjId> {
        let d = &self.prog.vars[v];
        let found = if d.is_global() {
            if d.thread_local {
                self.threads[t].tls.get(&v)
            } else {
                self.globals.get(&v)
            }
        } else {
            self.frame(t).vars.get(&v)
        };
        match found {
            Some(o) => Ok(*o),
            None => trap(format!("variable '{}' is not in scope", d.name)),
        }
    }

    /// The object and byte offset of a place.
    pub(super) fn place(&self, cx: &mut Cx, p: &Place) -> R<(ObjId, u64)> {
        let (o, mut off) = match &p.base {
            PlaceBase::Var(v) => (self.var_object(cx.t, *v)?, 0),
            PlaceBase::Deref(e) => self.deref(cx.t, self.eval_scalar(cx, e)?)?,
        };
        for pr in &p.projs {
            match pr {
                Proj::Field { offset, .. } => off = off.wrapping_add(*offset),
                Proj::Index { index, elem_size } => {
                    let i = self.eval_scalar(cx, index)?;
                    if i.prov.is_some() {
                        return trap("pointer used as an array index");
                    }
                    if let Some(s) = i.sym {
                        let len = self.obj(o).bytes.len() as u64;
                        let ptr_bits = self.prog.types.ptr_bits() as u32;
                        self.split_index(off, s, i.bits, *elem_size, len, ptr_bits)?;
                    }
                    off = off.wrapping_add(i.bits.wrapping_mul(*elem_size));
                }
            }
        }
        let ptr_bits = self.prog.types.ptr_bits() as u32;
        Ok((o, norm(off, ptr_bits, false)))
    }

    pub(super) fn check(&self, o: ObjId, off: u64, n: u64) -> R<()> {
        let obj = self.obj(o);
        if !obj.alive {
            return trap("access to a dead object");
        }
        if off
            .checked_add(n)
            .is_none_or(|e| e > obj.bytes.len() as u64)
        {
            return trap("out-of-bounds access");
        }
        Ok(())
    }

    pub(super) fn read_bytes(&self, o: ObjId, off: u64, n: u64) -> R<(Vec<u8>, Provs)> {
        self.check(o, off, n)?;
        let obj = self.obj(o);
        let bytes = obj.bytes[off as usize..(off + n) as usize].to_vec();
        let provs = obj
            .provs
            .range(off..off + n)
            .filter(|(k, (_, sz))| **k + *sz as u64 <= off + n)
            .map(|(k, (p, sz))| (k - off, *p, *sz))
            .collect();
        Ok((bytes, provs))
    }

    /// Writes bytes (logged as one write access).
    pub(super) fn write_bytes(
        &mut self,
        o: ObjId,
        off: u64,
        bytes: &[u8],
        provs: &[(u64, Prov, u8)],
    ) -> R<()> {
        let n = bytes.len() as u64;
        self.check(o, off, n)?;
        self.log(o, off, n, true, summary(bytes));
        let obj = self.obj_mut(o);
        obj.bytes[off as usize..(off + n) as usize].copy_from_slice(bytes);
        obj.define(off, n);
        // Pointers overlapping the written range lose their provenance.
        let stale: Vec<u64> = overlapping(&obj.provs, off, n).map(|(k, _)| k).collect();
        for k in stale {
            obj.provs.remove(&k);
        }
        for (k, p, sz) in provs {
            obj.provs.insert(off + k, (*p, *sz));
        }
        self.clear_shadow(o, off, n);
        Ok(())
    }

    /// Whether a scalar read of the range would see indeterminate bytes.
    pub(super) fn undefined(&self, o: ObjId, off: u64, ty: TypeId) -> bool {
        let types = &self.prog.types;
        (types.is_integer(ty)
            || types.is_pointer(ty)
            || crate::ir::float::float_bits(types, ty).is_some())
            && types
                .size_of(ty)
                .is_some_and(|n| self.obj(o).is_undef(off, n))
    }

    /// The value at (o, off) of type `ty` (not logged: the caller logs what it reads).
    pub(super) fn load(&self, o: ObjId, off: u64, ty: TypeId) -> R<Value> {
        let types = &self.prog.types;
        let Some(size) = types.size_of(ty) else {
            return trap("read of an object of unknown size");
        };
        let float = crate::ir::float::float_bits(types, ty).is_some();
        if types.is_float(ty) && !float {
            return trap("unsupported: floating point of this width");
        }
        let (bytes, provs) = self.read_bytes(o, off, size)?;
        let shadow = self.shadow_of(o, off, size)?;
        if types.is_integer(ty) || types.is_pointer(ty) || float {
            let raw = summary(&bytes);
            let bits = norm(raw, types.bits(ty), types.is_signed(ty));
            let prov = match provs.as_slice() {
                [(0, p, sz)] if *sz as u64 == size => Some(*p),
                _ => None,
            };
            let sym = shadow.map(|s| self.loaded(s, types.bits(ty), types.is_signed(ty)));
            Ok(Value::Scalar(Scalar { bits, prov, sym }))
        } else if shadow.is_some() {
            trap("unsupported: input-dependent value inside an aggregate")
        } else {
            Ok(Value::Bytes(bytes, provs))
        }
    }

    pub(super) fn store(&mut self, o: ObjId, off: u64, ty: TypeId, v: &Value) -> R<()> {
        let types = &self.prog.types;
        let Some(size) = types.size_of(ty) else {
            return trap("write of an object of unknown size");
        };
        match v {
            Value::Scalar(s) => {
                if size > 8 {
                    return trap("scalar stored into an aggregate");
                }
                let bytes: Vec<u8> = (0..size).map(|k| (s.bits >> (8 * k)) as u8).collect();
                let provs: Vec<(u64, Prov, u8)> =
                    s.prov.map(|p| (0, p, size as u8)).into_iter().collect();
                self.write_bytes(o, off, &bytes, &provs)?;
                if let Some(t) = s.sym {
                    self.set_shadow(o, off, size, t);
                }
                Ok(())
            }
            Value::Bytes(b, p) => {
                if b.len() as u64 != size {
                    return trap("aggregate of the wrong size");
                }
                self.write_bytes(o, off, b, p)
            }
        }
    }
}
