//! Memory cells: which cells a pointer designates, their values on the path (shared cells
//! become read and write events, cells private to one thread are values of the state), and
//! the events of the equation they make.

use cranelift_entity::EntityRef;
use encoder::{AccessKind, AtomicBlock, BitVec, Event, EventData, Location};
use solver_glue::Lit;

use super::{Cells, Via, UNPREDICTED};
use crate::sharing::ObjSet;
use crate::symex::exec::Symex;
use crate::symex::memory::{CellLookup, ObjId};
use crate::symex::state::State;
use crate::symex::{unsupported, EventInfo, SymexError};

impl Symex<'_, '_, '_> {
    /// The memory cells a pointer (plus `lo`) may designate for an access of `bits` bits, each
    /// with its condition. A computed object part may designate the objects `via` allows;
    /// every other value is an invalid access.
    pub(super) fn cells_at(
        &mut self,
        p: &BitVec,
        lo: u64,
        bits: u32,
        guard: Lit,
        via: Via<'_>,
    ) -> Result<Cells, SymexError> {
        let (obj_part, off) = self.split_pointer(p, lo);
        // Where a dereferenced place may start in each object (`sharing::Offs`): an offset the
        // analysis rules out gets no alternative, and an execution that hits it anyway is an
        // invalid access (below), so a missed offset can cost precision, not a verdict.
        let starts = match via {
            Via::Deref(place) if self.enc.bv_const_value(&off).is_none() => {
                Some(self.sharing.points_to.address_offsets(self.prog, place))
            }
            _ => None,
        };
        let (objs, later): (Vec<ObjId>, Option<ObjSet>) = match self.enc.bv_const_value(&obj_part) {
            Some(o) => (vec![ObjId::from_u32(o as u32)], None),
            None => match via {
                Via::Unknown => (self.mem.objects.keys().collect(), None),
                Via::Object(_) | Via::Pointer(_) | Via::Deref(_) => {
                    let may = match via {
                        Via::Pointer(e) => self.sharing.pointees(self.prog, e),
                        Via::Deref(place) => self.sharing.points_to.place_objects(self.prog, place),
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
            let allowed = starts
                .as_ref()
                .zip(self.abs[o.index()])
                .and_then(|(m, a)| m.get(&a));
            let start = allowed.map(|a| (a, lo));
            self.object_cells(o, &obj_part, &off, bits, guard, start, &mut now)?;
        }
        Ok(Cells { now, later })
    }

    /// Makes the globals and functions of `may` that do not exist yet (a computed pointer may
    /// designate them before their first use by name).
    pub(in crate::symex) fn make_singles(&mut self, may: &ObjSet) -> Result<(), SymexError> {
        for &a in may {
            if a.is_single() {
                self.single_object(a)?;
            }
        }
        Ok(())
    }

    /// The cells of object `o` a pointer (object part, offset) may designate; with `start`
    /// (the offsets the accessed place may start at, and the access's offset `lo` in it), only
    /// the cells those allow (see [`Symex::cells_at`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn object_cells(
        &mut self,
        o: ObjId,
        obj_part: &BitVec,
        off: &BitVec,
        bits: u32,
        guard: Lit,
        start: Option<(&crate::sharing::Offs, u64)>,
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
        let allowed = |c: u64| start.is_none_or(|(a, lo)| a.contains(c as i64 - lo as i64));
        for c in offsets.into_iter().filter(|&c| allowed(c)) {
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
    pub(in crate::symex) fn needs_bytes(&mut self, o: ObjId) -> bool {
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
    pub(super) fn cell_loc(
        &mut self,
        o: ObjId,
        off: u64,
        bits: u32,
    ) -> Result<Option<Location>, SymexError> {
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
    pub(super) fn pieces(
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
    pub(super) fn access_block(&mut self, n: usize, s: &State) -> Option<AtomicBlock> {
        match s.block() {
            Some(b) => Some(b),
            None if n > 1 && !self.init_mode => Some(self.eq.new_atomic_block()),
            None => None,
        }
    }

    /// Records that `events` (in address order) are the bytes of one access, for traces.
    pub(super) fn link_pieces(&mut self, events: &[Event]) {
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
    pub(super) fn join_pieces(&mut self, parts: Vec<BitVec>, bits: u32) -> BitVec {
        if parts.len() == 1 {
            return parts.into_iter().next().expect("one piece");
        }
        let all: Vec<Lit> = parts.iter().flat_map(|p| p.bits().to_vec()).collect();
        let v = BitVec::from_bits(all);
        self.resize(&v, bits, false)
    }

    /// A value cut into `n` pieces (bytes, lowest first, when `n > 1`).
    pub(super) fn split_pieces(&mut self, v: &BitVec, n: usize) -> Vec<BitVec> {
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
    pub(super) fn read_cell(
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
            } else if let Some(v) = self.own_value(o, k, b, loc) {
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
    pub(super) fn write_cell(
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

    /// For an object private to one thread (the sharing pass says so), the cell's current
    /// value on the path; the first thread to access it becomes its owner. Another thread's
    /// access is a fact the pass did not predict: recorded, and reported as unsupported where
    /// `guard` holds, since the owner's values are not visible to it.
    pub(super) fn private_cell(
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
    pub(in crate::symex) fn private_initial(&mut self, o: ObjId, off: u64, bits: u32) -> BitVec {
        match (self.init_vals.get(&(o, off)), self.mem.objects[o].init) {
            (Some(v), _) => v.clone(),
            (None, crate::symex::memory::InitValue::Nondet) => {
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

    pub(super) fn emit(
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
