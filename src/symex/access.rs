//! Places: where an lvalue lives (a thread-private variable or memory through a pointer), and
//! reading and writing them, memory accesses becoming events of the equation.

use encoder::{AccessKind, BitVec, EventData, Location};
use solver_glue::Lit;

use super::exec::Symex;
use cranelift_entity::EntityRef;

use super::memory::{CellLookup, ObjId};
use super::state::{State, Val};
use super::{unsupported, EventInfo, SymexError};
use crate::ir::{Place, PlaceBase, Proj, Type, TypeId};

/// A byte offset inside a thread-private variable.
#[derive(Clone, Debug)]
enum Offset {
    Const(u64),
    Sym(BitVec),
}

/// Where a place lives.
#[derive(Clone, Debug)]
enum Target {
    Var {
        key: super::state::VarKey,
        ty: TypeId,
        off: Offset,
    },
    /// Memory at a pointer value.
    Mem(BitVec),
}

impl Symex<'_, '_, '_> {
    fn resolve(&mut self, place: &Place, s: &mut State, guard: Lit) -> Result<Target, SymexError> {
        let ptr_bits = self.mem.ptr_bits;
        let mut target = match &place.base {
            PlaceBase::Var(v) => {
                if self.is_memory_var(*v) {
                    let o = self.obj_of_var(*v)?;
                    Target::Mem(self.enc.bv_const(ptr_bits, self.mem.pointer(o, 0)))
                } else {
                    let var = &self.prog.vars[*v];
                    Target::Var {
                        key: self.var_key(*v),
                        ty: var.ty,
                        off: Offset::Const(0),
                    }
                }
            }
            PlaceBase::Deref(e) => Target::Mem(self.eval_scalar_g(e, s, guard)?),
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

    fn add_offset_const(&mut self, t: &mut Target, k: u64) {
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
            Target::Mem(p) => {
                let kc = self.enc.bv_const(bits, k);
                *p = self.enc.bv_add(p, &kc);
            }
        }
    }

    fn add_offset_sym(&mut self, t: &mut Target, d: BitVec) {
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
            Target::Mem(p) => *p = self.enc.bv_add(p, &d),
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
            Target::Mem(p) => Ok(p),
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
        let mut out = Vec::with_capacity(leaves.len());
        for (lo, bits) in leaves {
            let v = match &target {
                Target::Var { key, ty, off } => {
                    self.read_var_leaf(*key, *ty, off, lo, bits, s, guard)?
                }
                Target::Mem(p) => self.load(p, lo, bits, s, guard)?,
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
            Target::Mem(p) => {
                for (lo, v) in val.leaves() {
                    let bits = v.width();
                    self.store_through(&p, lo, Val::Scalar(v), bits, guard, s)?;
                }
                Ok(())
            }
        }
    }

    /// Whether a type is an aggregate, and its leaves.
    fn shape(&self, ty: TypeId) -> Result<(bool, Vec<(u64, u32)>), SymexError> {
        let types = &self.prog.types;
        let aggregate = matches!(types.get(ty), Type::Array { .. } | Type::Struct(_));
        let leaves = super::memory::leaves(types, ty).or_else(unsupported)?;
        Ok((aggregate, leaves))
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
        match off {
            Offset::Const(o) => match leaves.iter().find(|(lo2, _)| *lo2 == o + lo) {
                Some((_, v)) if v.width() == bits => Ok(v.clone()),
                _ => {
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

    /// The memory cells a pointer (plus `lo`) may designate for an access of `bits` bits, each
    /// with its condition; reports the rest as an invalid access.
    fn cells_at(&mut self, p: &BitVec, lo: u64, bits: u32, guard: Lit) -> Vec<(ObjId, u64, Lit)> {
        let off_bits = self.mem.off_bits();
        let obj_part = BitVec::from_bits(p.bits()[off_bits as usize..].to_vec());
        let off_part = BitVec::from_bits(p.bits()[..off_bits as usize].to_vec());
        let lo_c = self.enc.bv_const(off_bits, lo);
        let off = self.enc.bv_add(&off_part, &lo_c);
        let objs: Vec<ObjId> = match self.enc.bv_const_value(&obj_part) {
            Some(o) => vec![ObjId::from_u32(o as u32)],
            None => {
                self.sym_deref = true;
                self.mem.objects.keys().collect()
            }
        };
        let mut out = Vec::new();
        for o in objs {
            if o.index() >= self.mem.objects.len() {
                continue;
            }
            let oc = self.enc.bv_const(obj_part.width(), o.as_u32() as u64);
            let is_obj = self.enc.bv_eq(&obj_part, &oc);
            if self.enc.const_value(is_obj) == Some(false) {
                continue;
            }
            let offsets = match self.enc.bv_const_value(&off) {
                Some(c) => vec![c],
                None => self.mem.candidate_offsets(o, bits),
            };
            for c in offsets {
                let k = self.enc.bv_const(off_bits, c);
                let at = self.enc.bv_eq(&off, &k);
                let cond = self.enc.and(is_obj, at);
                let g = self.enc.and(guard, cond);
                if self.enc.const_value(g) == Some(false) {
                    continue;
                }
                out.push((o, c, cond));
            }
        }
        out
    }

    /// The location of a cell, or why it has none.
    fn cell_loc(&mut self, o: ObjId, off: u64, bits: u32) -> Result<Option<Location>, SymexError> {
        let eq = &mut self.eq;
        match self.mem.cell(o, off, bits, |name| eq.add_location(name)) {
            CellLookup::Cell(l) => Ok(Some(l)),
            CellLookup::Overlap => unsupported(format!(
                "accesses of different sizes to one memory object ({})",
                self.mem.objects[o].name
            )),
            CellLookup::OutOfBounds => Ok(None),
        }
    }

    /// A memory read of `bits` bits at pointer `p` + `lo`.
    pub fn load(
        &mut self,
        p: &BitVec,
        lo: u64,
        bits: u32,
        s: &mut State,
        guard: Lit,
    ) -> Result<BitVec, SymexError> {
        let cands = self.cells_at(p, lo, bits, guard);
        let mut acc: Option<BitVec> = None;
        let mut hits = Vec::new();
        for (o, off, cond) in cands.into_iter().rev() {
            let Some(loc) = self.cell_loc(o, off, bits)? else {
                continue;
            };
            let g = self.enc.and(guard, cond);
            let v = if self.init_mode {
                self.init_vals
                    .get(&(o, off))
                    .cloned()
                    .unwrap_or_else(|| self.enc.bv_const(bits, 0))
            } else if let Some(old) = self.private_cell(o, off, bits, s) {
                old
            } else {
                self.emit_read(loc, g, bits, s)
            };
            hits.push(cond);
            acc = Some(match acc {
                None => v,
                Some(a) => self.enc.bv_ite(cond, &v, &a),
            });
        }
        let any = self.enc.or_all(&hits);
        let bad = self.enc.and(guard, !any);
        self.unsupported_check("invalid memory read (null, dangling or out of bounds)", bad);
        Ok(acc.unwrap_or_else(|| self.enc.bv_fresh(bits)))
    }

    /// A memory write of a scalar at pointer `p` + `lo`.
    pub fn store_through(
        &mut self,
        p: &BitVec,
        lo: u64,
        v: Val,
        bits: u32,
        guard: Lit,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let Val::Scalar(v) = v else {
            return unsupported("store of an aggregate through a pointer leaf");
        };
        let cands = self.cells_at(p, lo, bits, guard);
        let mut hits = Vec::new();
        for (o, off, cond) in cands {
            let Some(loc) = self.cell_loc(o, off, bits)? else {
                continue;
            };
            let g = self.enc.and(guard, cond);
            if self.init_mode {
                let old = self
                    .init_vals
                    .get(&(o, off))
                    .cloned()
                    .unwrap_or_else(|| self.enc.bv_const(bits, 0));
                let new = self.enc.bv_ite(g, &v, &old);
                self.init_vals.insert((o, off), new);
            } else if let Some(old) = self.private_cell(o, off, bits, s) {
                let new = self.enc.bv_ite(g, &v, &old);
                s.mem.insert((o, off), new);
            } else {
                self.emit_write(loc, g, v.clone(), s);
            }
            hits.push(cond);
        }
        let any = self.enc.or_all(&hits);
        let bad = self.enc.and(guard, !any);
        self.unsupported_check(
            "invalid memory write (null, dangling or out of bounds)",
            bad,
        );
        Ok(())
    }

    /// Records an access of `o` by the current thread; for an object private to it, the
    /// cell's current value on the path.
    fn private_cell(&mut self, o: ObjId, off: u64, bits: u32, s: &mut State) -> Option<BitVec> {
        let me = self.cur_number;
        self.accessors
            .entry(o)
            .and_modify(|w| {
                if *w != Some(me) {
                    *w = None
                }
            })
            .or_insert(Some(me));
        let owner = *self.private_owner.get(&o)?;
        if owner != me {
            self.private_broken = true;
            return None;
        }
        if let Some(v) = s.mem.get(&(o, off)) {
            return Some(v.clone());
        }
        let v = match (self.init_vals.get(&(o, off)), self.mem.objects[o].init) {
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
        };
        s.mem.insert((o, off), v.clone());
        Some(v)
    }

    pub fn emit_read(&mut self, loc: Location, guard: Lit, bits: u32, s: &State) -> BitVec {
        let value = self.enc.bv_fresh(bits);
        self.emit(loc, AccessKind::Read, guard, value.clone(), s);
        value
    }

    pub fn emit_write(&mut self, loc: Location, guard: Lit, value: BitVec, s: &State) {
        self.emit(loc, AccessKind::Write, guard, value, s);
    }

    fn emit(&mut self, location: Location, kind: AccessKind, guard: Lit, value: BitVec, s: &State) {
        if self.enc.const_value(guard) == Some(false) {
            return;
        }
        let e = self.eq.add_event(EventData {
            thread: self.cur,
            location,
            kind,
            guard,
            value,
            atomic: s.block(),
            source: None,
        });
        self.event_info[e] = EventInfo { loc: self.loc };
    }
}
