//! Places: where an lvalue lives (a thread-private variable or memory through a pointer), and
//! reading and writing them, memory accesses becoming events of the equation.
//!
//! This module resolves places and handles thread-private variables; [`cells`] finds the
//! memory cells a pointer designates and makes their events, [`pointer`] loads and stores
//! through pointers (with the open accesses of pointers that objects made later may take).

use encoder::{AccessKind, AtomicBlock, BitVec, Thread};
use solver_glue::Lit;

use super::exec::Symex;
use super::memory::ObjId;
use super::state::{State, Val};
use super::{unsupported, CheckKind, SymexError};
use crate::ir::{Expr, Loc, Place, PlaceBase, Proj, Type, TypeId};
use crate::sharing::{var_object, AbsObj, ObjSet};

mod cells;
mod pointer;

const INVALID_WRITE: &str = "invalid memory write (null, dangling or out of bounds)";
/// A pointer read from or written to a byte object. Symbolic execution and the interpreter
/// represent a pointer's bytes differently (object number and offset here, offset and
/// provenance there), and neither is the machine's address: a pointer read back whole where it
/// was written whole would be exact, but one read from bytes written otherwise (or written and
/// read in part) would be a guess, so every pointer access to a byte object is reported.
pub(super) const POINTER_BYTES: &str =
    "pointer stored in or read from memory accessed at different widths (its bytes are not modelled)";
/// A copy of a union whose first member does not cover all its bytes: the copy moves the
/// first member's scalars only, which is exact while no other member is used (the object is
/// then typed), but not in a byte object, where the other bytes would keep stale values.
const UNION_COPY: &str =
    "copy of a union whose first member does not cover it, in memory accessed at different widths";
/// A second thread touches an object the sharing pass took as private to one.
const UNPREDICTED: &str =
    "an object the sharing analysis took as private to one thread is accessed by another";

/// A byte offset inside a thread-private variable.
#[derive(Clone, Debug)]
enum Offset {
    Const(u64),
    Sym(BitVec),
}

/// Why a scalar of a place's value would not be exact in a byte object: the place's type
/// holds a union its first member does not cover (`partial`), or the scalar is a pointer.
fn inexact_in_bytes(partial: bool, pointer: bool) -> Option<&'static str> {
    if partial {
        Some(UNION_COPY)
    } else if pointer {
        Some(POINTER_BYTES)
    } else {
        None
    }
}

/// Where a place lives.
#[derive(Clone, Debug)]
enum Target<'p> {
    Var {
        key: super::state::VarKey,
        ty: TypeId,
        off: Offset,
    },
    /// Memory at a pointer value, and where the pointer comes from.
    Mem(BitVec, Via<'p>),
}

/// Where a pointer comes from, which says what it may designate when its object part is
/// computed (symbolic): an index past the end of an array cannot carry it into another object.
#[derive(Clone, Copy, Debug)]
pub enum Via<'p> {
    /// The address of a variable (plus projections): that variable's object.
    Object(AbsObj),
    /// The value of an expression: its points-to set.
    Pointer(&'p Expr),
    /// The address of a place whose base is a dereference (`p->f`, `p[i].g`): the points-to
    /// set of the pointer, and the offsets the place may start at in each of its objects
    /// (`sharing::Offs`), which rule out the other cells.
    Deref(&'p Place),
    /// Unknown: any object.
    Unknown,
}

/// An access through a computed pointer that objects made later may still take (the sharing
/// pass says the pointer may designate objects of threads symbolic execution runs later): its
/// alternatives for those objects are added once all threads have run, at its place in its
/// thread's program order, and its invalid-access check waits until then.
pub(super) struct OpenAccess {
    thread: Thread,
    /// Position in the thread's items right after the access's own events.
    pos: usize,
    ptr: BitVec,
    lo: u64,
    bits: u32,
    guard: Lit,
    /// The value read (the alternatives constrain it) or written.
    kind: AccessKind,
    value: BitVec,
    /// Why the access would not be exact in a byte object (see [`POINTER_BYTES`]).
    inexact: Option<&'static str>,
    atomic: Option<AtomicBlock>,
    loc: Loc,
    /// The abstract objects the pointer may designate.
    may: ObjSet,
    /// Objects made before the access (the later ones are the new alternatives).
    made: usize,
    /// Conditions of the alternatives so far.
    conds: Vec<Lit>,
    /// The valid-memsafety violation of the access (false when not checked).
    violation: Lit,
}

/// Where a pointer (plus an offset) may point, for an access.
struct Cells {
    /// Cells of the objects made so far, each with its condition.
    now: Vec<(ObjId, u64, Lit)>,
    /// For a computed pointer that objects made later may satisfy: what it may designate.
    later: Option<ObjSet>,
}

impl Symex<'_, '_, '_> {
    fn resolve<'p>(
        &mut self,
        place: &'p Place,
        s: &mut State,
        guard: Lit,
    ) -> Result<Target<'p>, SymexError> {
        let ptr_bits = self.mem.ptr_bits;
        let mut target = match &place.base {
            PlaceBase::Var(v) => {
                if self.is_memory_var(*v) {
                    let o = self.obj_of_var(*v)?;
                    let abs = var_object(self.prog, *v);
                    Target::Mem(
                        self.enc.bv_const(ptr_bits, self.mem.pointer(o, 0)),
                        Via::Object(abs),
                    )
                } else {
                    let var = &self.prog.vars[*v];
                    Target::Var {
                        key: self.var_key(*v),
                        ty: var.ty,
                        off: Offset::Const(0),
                    }
                }
            }
            PlaceBase::Deref(e) => Target::Mem(self.eval_scalar_g(e, s, guard)?, Via::Deref(place)),
        };
        for p in &place.projs {
            match p {
                Proj::Field { offset, .. } => self.add_offset_const(&mut target, *offset),
                Proj::Index { index, elem_size } => {
                    let i = self.eval_scalar_g(index, s, guard)?;
                    let i = self.resize(&i, ptr_bits, true);
                    let size = self.enc.bv_const(ptr_bits, *elem_size);
                    let delta = self.enc.bv_mul(&i, &size);
                    self.add_offset_sym(&mut target, delta);
                }
            }
        }
        Ok(target)
    }

    fn add_offset_const(&mut self, t: &mut Target<'_>, k: u64) {
        if k == 0 {
            return;
        }
        let bits = self.mem.ptr_bits;
        match t {
            Target::Var {
                off: Offset::Const(o),
                ..
            } => *o += k,
            Target::Var {
                off: Offset::Sym(o),
                ..
            } => {
                let kc = self.enc.bv_const(bits, k);
                *o = self.enc.bv_add(o, &kc);
            }
            Target::Mem(p, _) => {
                let kc = self.enc.bv_const(bits, k);
                *p = self.enc.bv_add(p, &kc);
            }
        }
    }

    fn add_offset_sym(&mut self, t: &mut Target<'_>, d: BitVec) {
        let bits = self.mem.ptr_bits;
        match t {
            Target::Var { off, .. } => {
                let cur = match off {
                    Offset::Const(o) => self.enc.bv_const(bits, *o),
                    Offset::Sym(o) => o.clone(),
                };
                let sum = self.enc.bv_add(&cur, &d);
                *off = match self.enc.bv_const_value(&sum) {
                    Some(c) => Offset::Const(c),
                    None => Offset::Sym(sum),
                };
            }
            Target::Mem(p, _) => *p = self.enc.bv_add(p, &d),
        }
    }

    /// The address of a place (a memory place; thread-private variables have none).
    pub fn address_of(
        &mut self,
        place: &Place,
        s: &mut State,
        guard: Lit,
    ) -> Result<BitVec, SymexError> {
        match self.resolve(place, s, guard)? {
            Target::Mem(p, _) => Ok(p),
            Target::Var { .. } => unsupported("address of a variable not marked address-taken"),
        }
    }

    /// Reads a place (under `guard`: memory events happen only when it holds).
    pub fn read_place(
        &mut self,
        place: &Place,
        s: &mut State,
        guard: Lit,
    ) -> Result<Val, SymexError> {
        let target = self.resolve(place, s, guard)?;
        let (aggregate, leaves) = self.shape(place.ty)?;
        let (ptrs, partial) = match &target {
            Target::Mem(..) => self.byte_exactness(place.ty),
            Target::Var { .. } => (Vec::new(), false),
        };
        let mut out = Vec::with_capacity(leaves.len());
        for (lo, bits) in leaves {
            let v = match &target {
                Target::Var { key, ty, off } => {
                    self.read_var_leaf(*key, *ty, off, lo, bits, s, guard)?
                }
                Target::Mem(p, via) => {
                    let inexact = inexact_in_bytes(partial, ptrs.contains(&lo));
                    self.load(p, lo, bits, inexact, s, guard, *via)?
                }
            };
            out.push((lo, v));
        }
        Ok(Val::from_leaves(out, aggregate))
    }

    /// Writes `val` (of the place's type) into a place.
    pub fn write_place(
        &mut self,
        place: &Place,
        val: Val,
        guard: Lit,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let target = self.resolve(place, s, guard)?;
        match target {
            Target::Var {
                key,
                ty,
                off: Offset::Const(0),
            } if place.projs.is_empty() => {
                let _ = ty;
                s.vars.insert(key, val);
                Ok(())
            }
            Target::Var { key, ty, off } => {
                for (lo, v) in val.leaves() {
                    self.write_var_leaf(key, ty, &off, lo, v, s, guard)?;
                }
                Ok(())
            }
            Target::Mem(p, via) => {
                let (ptrs, partial) = self.byte_exactness(place.ty);
                for (lo, v) in val.leaves() {
                    let bits = v.width();
                    let inexact = inexact_in_bytes(partial, ptrs.contains(&lo));
                    self.store_through(&p, lo, Val::Scalar(v), bits, inexact, guard, s, via)?;
                }
                Ok(())
            }
        }
    }

    /// For a memory access of type `ty`: the offsets of its pointer scalars and whether it
    /// holds a partial union (the arguments of [`inexact_in_bytes`]). Only a byte object asks
    /// for them, so with no byte object in this execution they are not computed: the type walk
    /// would otherwise run on every memory access of every program.
    fn byte_exactness(&self, ty: TypeId) -> (Vec<u64>, bool) {
        if self.bytewise.is_empty() {
            return (Vec::new(), false);
        }
        let types = &self.prog.types;
        (
            super::memory::pointer_offsets(types, ty),
            super::memory::has_partial_union(types, ty),
        )
    }

    /// Whether a type is an aggregate, and its leaves.
    fn shape(&self, ty: TypeId) -> Result<(bool, Vec<(u64, u32)>), SymexError> {
        let types = &self.prog.types;
        let aggregate = matches!(types.get(ty), Type::Array { .. } | Type::Struct(_));
        let leaves = super::memory::leaves(types, ty).or_else(unsupported)?;
        Ok((aggregate, leaves))
    }

    /// The valid-memsafety check of an access of `bits` bits at `off` + `lo` of a private
    /// variable of type `ty` (false when not checked; the path is cut by it).
    #[allow(clippy::too_many_arguments)]
    fn var_bounds_check(
        &mut self,
        ty: TypeId,
        off: &Offset,
        lo: u64,
        bits: u32,
        guard: Lit,
        s: &mut State,
    ) -> Lit {
        if !self.opts.memsafety || self.init_mode {
            return self.enc.fls();
        }
        let size = self.prog.types.size_of(ty).unwrap_or(0);
        let bytes = (bits as u64).div_ceil(8).max(1);
        let ptr_bits = self.mem.ptr_bits;
        let inside = match off {
            Offset::Const(o) => {
                let ok = o.checked_add(lo + bytes).is_some_and(|end| end <= size);
                self.enc.constant(ok)
            }
            Offset::Sym(o) if size >= bytes => {
                let lo_c = self.enc.bv_const(ptr_bits, lo);
                let at = self.enc.bv_add(o, &lo_c);
                let last = self.enc.bv_const(ptr_bits, size - bytes);
                self.enc.bv_ule(&at, &last)
            }
            Offset::Sym(_) => self.enc.fls(),
        };
        let bad = self.enc.and(guard, !inside);
        self.check(
            CheckKind::Memory(crate::verdict::Violation::ValidDeref),
            bad,
        );
        s.guard = self.enc.and(s.guard, !bad);
        bad
    }

    fn var_value(
        &mut self,
        key: super::state::VarKey,
        ty: TypeId,
        s: &mut State,
    ) -> Result<Val, SymexError> {
        if let Some(v) = s.vars.get(&key) {
            return Ok(v.clone());
        }
        // Never assigned on this path (a parameter of main, an uninitialised local): its
        // value is indeterminate.
        let v = self.fresh_value(ty)?;
        s.vars.insert(key, v.clone());
        Ok(v)
    }

    #[allow(clippy::too_many_arguments)]
    fn read_var_leaf(
        &mut self,
        key: super::state::VarKey,
        ty: TypeId,
        off: &Offset,
        lo: u64,
        bits: u32,
        s: &mut State,
        guard: Lit,
    ) -> Result<BitVec, SymexError> {
        let val = self.var_value(key, ty, s)?;
        let leaves = val.leaves();
        let violation = self.var_bounds_check(ty, off, lo, bits, guard, s);
        match off {
            Offset::Const(o) => match leaves.iter().find(|(lo2, _)| *lo2 == o + lo) {
                Some((_, v)) if v.width() == bits => Ok(v.clone()),
                _ => {
                    let guard = self.enc.and(guard, !violation);
                    self.unsupported_check("access to a variable through another type", guard);
                    Ok(self.enc.bv_fresh(bits))
                }
            },
            Offset::Sym(o) => {
                let ptr_bits = self.mem.ptr_bits;
                let lo_c = self.enc.bv_const(ptr_bits, lo);
                let at = self.enc.bv_add(o, &lo_c);
                let mut acc = self.enc.bv_fresh(bits);
                let mut hits = Vec::new();
                for (lo2, v) in leaves.iter().rev() {
                    if v.width() != bits {
                        continue;
                    }
                    let k = self.enc.bv_const(ptr_bits, *lo2);
                    let hit = self.enc.bv_eq(&at, &k);
                    hits.push(hit);
                    acc = self.enc.bv_ite(hit, v, &acc);
                }
                let any = self.enc.or_all(&hits);
                let bad = self.enc.and(guard, !any);
                let bad = self.enc.and(bad, !violation);
                self.unsupported_check("out-of-bounds array access", bad);
                Ok(acc)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn write_var_leaf(
        &mut self,
        key: super::state::VarKey,
        ty: TypeId,
        off: &Offset,
        lo: u64,
        v: BitVec,
        s: &mut State,
        guard: Lit,
    ) -> Result<(), SymexError> {
        let val = self.var_value(key, ty, s)?;
        let mut leaves = val.leaves();
        let aggregate = matches!(val, Val::Agg(_));
        let violation = self.var_bounds_check(ty, off, lo, v.width(), guard, s);
        let guard = self.enc.and(guard, !violation);
        match off {
            Offset::Const(o) => match leaves.iter_mut().find(|(lo2, _)| *lo2 == o + lo) {
                Some((_, slot)) if slot.width() == v.width() => *slot = v,
                _ => {
                    self.unsupported_check("access to a variable through another type", guard);
                    return Ok(());
                }
            },
            Offset::Sym(o) => {
                let ptr_bits = self.mem.ptr_bits;
                let lo_c = self.enc.bv_const(ptr_bits, lo);
                let at = self.enc.bv_add(o, &lo_c);
                let mut hits = Vec::new();
                for (lo2, slot) in leaves.iter_mut() {
                    if slot.width() != v.width() {
                        continue;
                    }
                    let k = self.enc.bv_const(ptr_bits, *lo2);
                    let hit = self.enc.bv_eq(&at, &k);
                    hits.push(hit);
                    *slot = self.enc.bv_ite(hit, &v, slot);
                }
                let any = self.enc.or_all(&hits);
                let bad = self.enc.and(guard, !any);
                self.unsupported_check("out-of-bounds array access", bad);
            }
        }
        s.vars.insert(key, Val::from_leaves(leaves, aggregate));
        Ok(())
    }

    /// The object part and the offset (plus `lo`) of a pointer.
    pub(super) fn split_pointer(&mut self, p: &BitVec, lo: u64) -> (BitVec, BitVec) {
        let off_bits = self.mem.off_bits();
        let obj_part = BitVec::from_bits(p.bits()[off_bits as usize..].to_vec());
        let off_part = BitVec::from_bits(p.bits()[..off_bits as usize].to_vec());
        let lo_c = self.enc.bv_const(off_bits, lo);
        let off = self.enc.bv_add(&off_part, &lo_c);
        (obj_part, off)
    }
}
