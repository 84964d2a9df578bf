//! Places: where an lvalue lives (a thread-private variable or memory through a pointer), and
//! reading and writing them, memory accesses becoming events of the equation.

use std::collections::BTreeMap;

use cranelift_entity::EntityRef;
use encoder::{AccessKind, AtomicBlock, BitVec, Event, EventData, Location, Thread};
use solver_glue::Lit;

use super::exec::Symex;
use super::memory::{CellLookup, ObjId};
use super::state::{State, Val};
use super::{unsupported, Check, CheckKind, EventInfo, SymexError};
use crate::ir::{Expr, Loc, Place, PlaceBase, Proj, Type, TypeId};
use crate::sharing::{var_object, AbsObj, ObjSet};

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
            PlaceBase::Deref(e) => Target::Mem(self.eval_scalar_g(e, s, guard)?, Via::Pointer(e)),
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

    /// The memory cells a pointer (plus `lo`) may designate for an access of `bits` bits, each
    /// with its condition. A computed object part may designate the objects `via` allows;
    /// every other value is an invalid access.
    fn cells_at(
        &mut self,
        p: &BitVec,
        lo: u64,
        bits: u32,
        guard: Lit,
        via: Via<'_>,
    ) -> Result<Cells, SymexError> {
        let (obj_part, off) = self.split_pointer(p, lo);
        let (objs, later): (Vec<ObjId>, Option<ObjSet>) = match self.enc.bv_const_value(&obj_part) {
            Some(o) => (vec![ObjId::from_u32(o as u32)], None),
            None => match via {
                Via::Unknown => (self.mem.objects.keys().collect(), None),
                Via::Object(_) | Via::Pointer(_) => {
                    let may = match via {
                        Via::Pointer(e) => self.sharing.pointees(self.prog, e),
                        Via::Object(a) => ObjSet::from([a]),
                        Via::Unknown => unreachable!("handled above"),
                    };
                    self.make_singles(&may)?;
                    let objs = self
                        .mem
                        .objects
                        .keys()
                        .filter(|o| self.abs[o.index()].is_some_and(|a| may.contains(&a)))
                        .collect();
                    let late = !self.init_mode && may.iter().any(|&a| self.sharing.made_late(a));
                    (objs, late.then_some(may))
                }
            },
        };
        let mut now = Vec::new();
        for o in objs {
            self.object_cells(o, &obj_part, &off, bits, guard, &mut now)?;
        }
        Ok(Cells { now, later })
    }

    /// Makes the globals and functions of `may` that do not exist yet (a computed pointer may
    /// designate them before their first use by name).
    pub(super) fn make_singles(&mut self, may: &ObjSet) -> Result<(), SymexError> {
        for &a in may {
            if a.is_single() {
                self.single_object(a)?;
            }
        }
        Ok(())
    }

    /// The cells of object `o` a pointer (object part, offset) may designate.
    fn object_cells(
        &mut self,
        o: ObjId,
        obj_part: &BitVec,
        off: &BitVec,
        bits: u32,
        guard: Lit,
        out: &mut Vec<(ObjId, u64, Lit)>,
    ) -> Result<(), SymexError> {
        if o.index() >= self.mem.objects.len() {
            return Ok(());
        }
        let off_bits = self.mem.off_bits();
        let oc = self.enc.bv_const(obj_part.width(), o.as_u32() as u64);
        let is_obj = self.enc.bv_eq(obj_part, &oc);
        if self.enc.const_value(is_obj) == Some(false) {
            return Ok(());
        }
        let offsets = match self.enc.bv_const_value(off) {
            Some(c) => vec![c],
            None => self.mem.candidate_offsets(o, bits),
        };
        // A computed offset into a typed object that has no scalar of the access's width (a
        // byte index into an int): any cell it hits is read at another width, so the object
        // is a byte object (`exec::run` executes again), where every offset is a candidate.
        let obj = &self.mem.objects[o];
        if offsets.is_empty()
            && !obj.bytes
            && obj.leaves.as_ref().is_some_and(|l| !l.is_empty())
            && obj.size >= (bits as u64).div_ceil(8)
        {
            let name = obj.name.clone();
            if self.needs_bytes(o) {
                return Ok(());
            }
            return unsupported(format!(
                "accesses of different sizes to one memory object ({name})"
            ));
        }
        let limit = self.mem.objects[o].limit.clone();
        for c in offsets {
            let k = self.enc.bv_const(off_bits, c);
            let at = self.enc.bv_eq(off, &k);
            let mut cond = self.enc.and(is_obj, at);
            // A dynamic object's cell exists where its size covers it.
            if let Some(limit) = &limit {
                let end = self
                    .enc
                    .bv_const(limit.width(), c + (bits as u64).div_ceil(8));
                let inside = self.enc.bv_ule(&end, limit);
                cond = self.enc.and(cond, inside);
            }
            let g = self.enc.and(guard, cond);
            if self.enc.const_value(g) == Some(false) {
                continue;
            }
            out.push((o, c, cond));
        }
        Ok(())
    }

    /// Records that the abstract object of `o` needs byte objects ([`Symex::widen`]); false
    /// when `o` has none (it cannot then be modelled).
    pub(super) fn needs_bytes(&mut self, o: ObjId) -> bool {
        match self.abs[o.index()] {
            Some(a) => {
                self.widen.insert(a);
                true
            }
            None => false,
        }
    }

    /// The location of a cell, or why it has none. Two accesses of different extents to a
    /// typed object make its abstract object one that needs byte objects: the execution goes
    /// on with no cell for the access (its result is discarded) and `exec::run` starts over
    /// with that abstract object modelled byte by byte ([`Symex::widen`]).
    fn cell_loc(&mut self, o: ObjId, off: u64, bits: u32) -> Result<Option<Location>, SymexError> {
        let eq = &mut self.eq;
        match self.mem.cell(o, off, bits, |name| eq.add_location(name)) {
            CellLookup::Cell(l) => Ok(Some(l)),
            CellLookup::Overlap if self.needs_bytes(o) => Ok(None),
            CellLookup::Overlap => unsupported(format!(
                "accesses of different sizes to one memory object ({})",
                self.mem.objects[o].name
            )),
            CellLookup::OutOfBounds => Ok(None),
        }
    }

    /// The cells an access of `bits` bits at offset `off` of `o` is made of, each with its
    /// location, lowest offset first: the access's own cell in a typed object, its bytes in a
    /// byte object. None when the access does not lie inside the object.
    #[allow(clippy::type_complexity)]
    fn pieces(
        &mut self,
        o: ObjId,
        off: u64,
        bits: u32,
    ) -> Result<Option<Vec<(u64, u32, Location)>>, SymexError> {
        if !self.mem.objects[o].bytes {
            return Ok(self.cell_loc(o, off, bits)?.map(|l| vec![(off, bits, l)]));
        }
        let n = (bits as u64).div_ceil(8);
        if !self.mem.in_bounds(o, off, n) {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(n as usize);
        for k in off..off + n {
            match self.cell_loc(o, k, 8)? {
                Some(l) => out.push((k, 8, l)),
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    /// The atomic block the events of an access of `n` cells go into: the path's atomic
    /// section, else, for the bytes of one access to a byte object, a block of their own. A
    /// scalar access is one indivisible step, as in the interpreter the explorers and witness
    /// replay run (and as an aligned access is on the machine): another thread's access to the
    /// object comes before or after all of its bytes, so no execution reads half of a write.
    fn access_block(&mut self, n: usize, s: &State) -> Option<AtomicBlock> {
        match s.block() {
            Some(b) => Some(b),
            None if n > 1 && !self.init_mode => Some(self.eq.new_atomic_block()),
            None => None,
        }
    }

    /// Records that `events` (in address order) are the bytes of one access, for traces.
    fn link_pieces(&mut self, events: &[Event]) {
        if let [head, rest @ ..] = events {
            if !rest.is_empty() {
                self.event_info[*head].rest = rest.to_vec();
                for &e in rest {
                    self.event_info[e].head = Some(*head);
                }
            }
        }
    }

    /// The value of `bits` bits the pieces' values make: the first piece is the lowest byte
    /// (little-endian).
    fn join_pieces(&mut self, parts: Vec<BitVec>, bits: u32) -> BitVec {
        if parts.len() == 1 {
            return parts.into_iter().next().expect("one piece");
        }
        let all: Vec<Lit> = parts.iter().flat_map(|p| p.bits().to_vec()).collect();
        let v = BitVec::from_bits(all);
        self.resize(&v, bits, false)
    }

    /// A value cut into `n` pieces (bytes, lowest first, when `n > 1`).
    fn split_pieces(&mut self, v: &BitVec, n: usize) -> Vec<BitVec> {
        if n == 1 {
            return vec![v.clone()];
        }
        let v = self.resize(v, 8 * n as u32, false);
        v.bits()
            .chunks(8)
            .map(|c| BitVec::from_bits(c.to_vec()))
            .collect()
    }

    /// Reads the cell(s) of an access of `bits` bits at `off` of `o` (under `g`): from the
    /// initial values while the initialisers run, from the path for a private object, else as
    /// read events. None when the access lies outside the object. `inexact`: why the access
    /// would not be exact in a byte object (a check there, see [`POINTER_BYTES`]).
    #[allow(clippy::too_many_arguments)]
    fn read_cell(
        &mut self,
        o: ObjId,
        off: u64,
        bits: u32,
        inexact: Option<&'static str>,
        g: Lit,
        s: &mut State,
    ) -> Result<Option<BitVec>, SymexError> {
        let Some(pieces) = self.pieces(o, off, bits)? else {
            return Ok(None);
        };
        if let (Some(why), true) = (inexact, self.mem.objects[o].bytes) {
            self.unsupported_check(why, g);
        }
        let atomic = self.access_block(pieces.len(), s);
        let section = s.block().is_some();
        let mut parts = Vec::with_capacity(pieces.len());
        let mut events = Vec::new();
        for (k, b, loc) in pieces {
            let v = if self.init_mode {
                self.init_vals
                    .get(&(o, k))
                    .cloned()
                    .unwrap_or_else(|| self.enc.bv_const(b, 0))
            } else if let Some(old) = self.private_cell(o, k, b, s, g) {
                old
            } else if let Some(v) = self.main_value(o, k, b, loc) {
                v
            } else {
                let value = self.enc.bv_fresh(b);
                events.extend(self.emit(loc, AccessKind::Read, g, value.clone(), atomic, section));
                value
            };
            parts.push(v);
        }
        self.link_pieces(&events);
        Ok(Some(self.join_pieces(parts, bits)))
    }

    /// Writes `v` into the cell(s) of an access at `off` of `o` (under `g`), the counterpart
    /// of [`Symex::read_cell`]. False when the access lies outside the object.
    #[allow(clippy::too_many_arguments)]
    fn write_cell(
        &mut self,
        o: ObjId,
        off: u64,
        v: &BitVec,
        inexact: Option<&'static str>,
        g: Lit,
        s: &mut State,
    ) -> Result<bool, SymexError> {
        let Some(pieces) = self.pieces(o, off, v.width())? else {
            return Ok(false);
        };
        if let (Some(why), true) = (inexact, self.mem.objects[o].bytes) {
            self.unsupported_check(why, g);
        }
        let atomic = self.access_block(pieces.len(), s);
        let section = s.block().is_some();
        let values = self.split_pieces(v, pieces.len());
        let mut events = Vec::new();
        for ((k, b, loc), pv) in pieces.into_iter().zip(values) {
            if self.init_mode {
                let old = self
                    .init_vals
                    .get(&(o, k))
                    .cloned()
                    .unwrap_or_else(|| self.enc.bv_const(b, 0));
                let new = self.enc.bv_ite(g, &pv, &old);
                self.init_vals.insert((o, k), new);
            } else if let Some(old) = self.private_cell(o, k, b, s, g) {
                let new = self.enc.bv_ite(g, &pv, &old);
                s.mem.insert((o, k), new);
            } else {
                events.extend(self.emit(loc, AccessKind::Write, g, pv, atomic, section));
            }
        }
        self.link_pieces(&events);
        Ok(true)
    }

    /// A memory read of `bits` bits at pointer `p` + `lo` (`via`: the pointer's expression;
    /// `inexact`: why it would not be exact in a byte object, see `Symex::read_cell`).
    #[allow(clippy::too_many_arguments)]
    pub fn load(
        &mut self,
        p: &BitVec,
        lo: u64,
        bits: u32,
        inexact: Option<&'static str>,
        s: &mut State,
        guard: Lit,
        via: Via<'_>,
    ) -> Result<BitVec, SymexError> {
        let cells = self.cells_at(p, lo, bits, guard, via)?;
        let violation = self.deref_check(p, lo, bits, guard, via, s)?;
        if let Some(may) = cells.later {
            let v = self.enc.bv_fresh(bits);
            let mut conds = Vec::new();
            for (o, off, cond) in cells.now {
                let g = self.enc.and(guard, cond);
                let Some(val) = self.read_cell(o, off, bits, inexact, g, s)? else {
                    continue;
                };
                let same = self.enc.bv_eq(&v, &val);
                self.enc.assert_implies(g, same);
                conds.push(cond);
            }
            self.open_access(
                p,
                lo,
                AccessKind::Read,
                v.clone(),
                inexact,
                guard,
                s,
                may,
                conds,
                violation,
            );
            return Ok(v);
        }
        // When no cell may be hit, the value is arbitrary (see `CheckKind::InvalidRead`): the
        // alternatives are chosen over a fresh value, not over the last candidate's.
        let mut acc: Option<BitVec> = None;
        let mut hits = Vec::new();
        let mut conds_all = Vec::new();
        for (o, off, cond) in cells.now.into_iter().rev() {
            let g = self.enc.and(guard, cond);
            let Some(v) = self.read_cell(o, off, bits, inexact, g, s)? else {
                continue;
            };
            hits.push(cond);
            conds_all.push((cond, v));
        }
        let any = self.enc.or_all(&hits);
        let bad = self.enc.and(guard, !any);
        // A violation of valid-memsafety is the error there, not an approximation.
        let bad = self.enc.and(bad, !violation);
        let exact = self.enc.const_value(bad) == Some(false);
        for (i, (cond, v)) in conds_all.into_iter().enumerate() {
            acc = Some(match acc {
                None if exact || i > 0 => v,
                None => {
                    let fresh = self.enc.bv_fresh(bits);
                    self.enc.bv_ite(cond, &v, &fresh)
                }
                Some(a) => self.enc.bv_ite(cond, &v, &a),
            });
        }
        if !exact {
            self.check(CheckKind::InvalidRead, bad);
        }
        Ok(acc.unwrap_or_else(|| self.enc.bv_fresh(bits)))
    }

    /// A memory write of a scalar at pointer `p` + `lo` (`via`: the pointer's expression;
    /// `inexact`: as for [`Symex::load`]).
    #[allow(clippy::too_many_arguments)]
    pub fn store_through(
        &mut self,
        p: &BitVec,
        lo: u64,
        v: Val,
        bits: u32,
        inexact: Option<&'static str>,
        guard: Lit,
        s: &mut State,
        via: Via<'_>,
    ) -> Result<(), SymexError> {
        let Val::Scalar(v) = v else {
            return unsupported("store of an aggregate through a pointer leaf");
        };
        let cells = self.cells_at(p, lo, bits, guard, via)?;
        let violation = self.deref_check(p, lo, bits, guard, via, s)?;
        let mut hits = Vec::new();
        for (o, off, cond) in cells.now {
            let g = self.enc.and(guard, cond);
            if !self.write_cell(o, off, &v, inexact, g, s)? {
                continue;
            }
            hits.push(cond);
        }
        if let Some(may) = cells.later {
            self.open_access(
                p,
                lo,
                AccessKind::Write,
                v,
                inexact,
                guard,
                s,
                may,
                hits,
                violation,
            );
            return Ok(());
        }
        let any = self.enc.or_all(&hits);
        let bad = self.enc.and(guard, !any);
        let bad = self.enc.and(bad, !violation);
        self.unsupported_check(INVALID_WRITE, bad);
        Ok(())
    }

    /// Records an access that objects made later may still take.
    #[allow(clippy::too_many_arguments)]
    fn open_access(
        &mut self,
        p: &BitVec,
        lo: u64,
        kind: AccessKind,
        value: BitVec,
        inexact: Option<&'static str>,
        guard: Lit,
        s: &State,
        may: ObjSet,
        conds: Vec<Lit>,
        violation: Lit,
    ) {
        if kind == AccessKind::Write {
            self.effects.push(guard);
        }
        self.open.push(OpenAccess {
            thread: self.cur,
            pos: self.eq.threads[self.cur].items.len(),
            ptr: p.clone(),
            lo,
            bits: value.width(),
            guard,
            kind,
            value,
            inexact,
            atomic: s.block(),
            loc: self.loc,
            may,
            made: self.mem.objects.len(),
            conds,
            violation,
        });
    }

    /// Once every thread has run: the alternatives of the open accesses for the objects made
    /// after them, at their places in program order, and their invalid-access checks.
    pub(super) fn close_open_accesses(&mut self) -> Result<(), SymexError> {
        // (position, event, where, whether it is a further byte of the access before it)
        let mut inserts: BTreeMap<Thread, Vec<(usize, EventData, Loc, bool)>> = BTreeMap::new();
        let mut sections = std::collections::HashSet::new();
        for a in std::mem::take(&mut self.open) {
            sections.extend(a.atomic);
            let (obj_part, off) = self.split_pointer(&a.ptr, a.lo);
            let mut cells = Vec::new();
            for i in a.made..self.mem.objects.len() {
                if self.abs[i].is_some_and(|x| a.may.contains(&x)) {
                    let o = ObjId::new(i);
                    self.object_cells(o, &obj_part, &off, a.bits, a.guard, &mut cells)?;
                }
            }
            let mut conds = a.conds;
            for (o, c, cond) in cells {
                let Some(pieces) = self.pieces(o, c, a.bits)? else {
                    continue;
                };
                conds.push(cond);
                let g = self.enc.and(a.guard, cond);
                if self.private_owner.contains_key(&o) {
                    // The owner's accesses stayed on its path: this one cannot see them.
                    self.unpredicted.push(format!(
                        "{} made late but private",
                        self.mem.objects[o].name
                    ));
                    self.checks.push(Check {
                        kind: CheckKind::Unsupported(UNPREDICTED.into()),
                        lit: g,
                        loc: a.loc,
                        thread: a.thread,
                    });
                    continue;
                }
                if let (Some(why), true) = (a.inexact, self.mem.objects[o].bytes) {
                    self.checks.push(Check {
                        kind: CheckKind::Unsupported(why.into()),
                        lit: g,
                        loc: a.loc,
                        thread: a.thread,
                    });
                }
                // The pieces' values, lowest first (see `read_cell`, `write_cell`).
                let values = match a.kind {
                    AccessKind::Read => {
                        let vals: Vec<BitVec> = pieces
                            .iter()
                            .map(|&(_, b, _)| self.enc.bv_fresh(b))
                            .collect();
                        let val = self.join_pieces(vals.clone(), a.bits);
                        let same = self.enc.bv_eq(&a.value, &val);
                        self.enc.assert_implies(g, same);
                        vals
                    }
                    AccessKind::Write => self.split_pieces(&a.value, pieces.len()),
                };
                // The bytes of one access are one step (see `access_block`).
                let atomic = match a.atomic {
                    None if pieces.len() > 1 => Some(self.eq.new_atomic_block()),
                    b => b,
                };
                for (i, ((_, _, loc), value)) in pieces.into_iter().zip(values).enumerate() {
                    let data = EventData {
                        thread: a.thread,
                        location: loc,
                        kind: a.kind,
                        guard: g,
                        value,
                        atomic,
                        source: None,
                    };
                    inserts
                        .entry(a.thread)
                        .or_default()
                        .push((a.pos, data, a.loc, i > 0));
                }
            }
            let any = self.enc.or_all(&conds);
            let bad = self.enc.and(a.guard, !any);
            let bad = self.enc.and(bad, !a.violation);
            if self.enc.const_value(bad) != Some(false) {
                self.checks.push(Check {
                    kind: match a.kind {
                        AccessKind::Read => CheckKind::InvalidRead,
                        AccessKind::Write => CheckKind::Unsupported(INVALID_WRITE.into()),
                    },
                    lit: bad,
                    loc: a.loc,
                    thread: a.thread,
                });
            }
        }
        self.close_memsafety(&mut inserts, &mut sections);
        for (t, list) in inserts {
            // An open access's own block is its section's (`OpenAccess::atomic`, the path's
            // section), unless it is the block of its bytes, made above.
            let info: Vec<(Loc, bool, bool)> = list
                .iter()
                .map(|(_, d, l, c)| (*l, *c, d.atomic.is_some_and(|b| sections.contains(&b))))
                .collect();
            let events = self
                .eq
                .insert_events(t, list.into_iter().map(|(pos, d, _, _)| (pos, d)));
            let mut group: Vec<Event> = Vec::new();
            for (e, (loc, cont, section)) in events.into_iter().zip(info) {
                self.event_info[e] = EventInfo {
                    loc,
                    section,
                    ..Default::default()
                };
                if !cont {
                    self.link_pieces(&std::mem::take(&mut group));
                }
                group.push(e);
            }
            self.link_pieces(&group);
        }
        Ok(())
    }

    /// For an object private to one thread (the sharing pass says so), the cell's current
    /// value on the path; the first thread to access it becomes its owner. Another thread's
    /// access is a fact the pass did not predict: recorded, and reported as unsupported where
    /// `guard` holds, since the owner's values are not visible to it.
    fn private_cell(
        &mut self,
        o: ObjId,
        off: u64,
        bits: u32,
        s: &mut State,
        guard: Lit,
    ) -> Option<BitVec> {
        let abs = self.abs[o.index()]?;
        if self.sharing.is_shared(abs) || self.broken.contains(&o) {
            return None;
        }
        let me = self.cur_number;
        let owner = *self.private_owner.entry(o).or_insert(me);
        if owner != me {
            self.unpredicted.push(format!(
                "{} accessed by threads {owner} and {me}",
                self.mem.objects[o].name
            ));
            self.broken.insert(o);
            self.unsupported_check(UNPREDICTED, guard);
            return None;
        }
        if let Some(v) = s.mem.get(&(o, off)) {
            return Some(v.clone());
        }
        let v = self.private_initial(o, off, bits);
        s.mem.insert((o, off), v.clone());
        Some(v)
    }

    /// The value a private cell holds before its owner first touches it.
    pub(super) fn private_initial(&mut self, o: ObjId, off: u64, bits: u32) -> BitVec {
        match (self.init_vals.get(&(o, off)), self.mem.objects[o].init) {
            (Some(v), _) => v.clone(),
            (None, super::memory::InitValue::Nondet) => {
                if let Some(v) = self.private_init.get(&(o, off)) {
                    v.clone()
                } else {
                    let v = self.enc.bv_fresh(bits);
                    self.private_init.insert((o, off), v.clone());
                    v
                }
            }
            (None, _) => self.enc.bv_const(bits, 0),
        }
    }

    pub fn emit_read(&mut self, loc: Location, guard: Lit, bits: u32, s: &State) -> BitVec {
        let value = self.enc.bv_fresh(bits);
        let section = s.block().is_some();
        self.emit(
            loc,
            AccessKind::Read,
            guard,
            value.clone(),
            s.block(),
            section,
        );
        value
    }

    pub fn emit_write(&mut self, loc: Location, guard: Lit, value: BitVec, s: &State) {
        let section = s.block().is_some();
        self.emit(loc, AccessKind::Write, guard, value, s.block(), section);
    }

    fn emit(
        &mut self,
        location: Location,
        kind: AccessKind,
        guard: Lit,
        value: BitVec,
        atomic: Option<AtomicBlock>,
        section: bool,
    ) -> Option<Event> {
        if self.enc.const_value(guard) == Some(false) {
            return None;
        }
        if kind == AccessKind::Write {
            self.effects.push(guard);
        }
        let e = self.eq.add_event(EventData {
            thread: self.cur,
            location,
            kind,
            guard,
            value,
            atomic,
            source: None,
        });
        self.event_info[e] = EventInfo {
            loc: self.loc,
            section,
            ..Default::default()
        };
        if kind == AccessKind::Write {
            self.writes_at.entry(location).or_default().push(e);
        }
        Some(e)
    }
}
