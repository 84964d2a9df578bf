//! valid-memsafety in symbolic execution (only under [`super::SymexOptions::memsafety`]).
//!
//! # Liveness
//! Every heap object (`malloc`, `calloc`) and every address-taken local has an *alive flag*:
//! a one-bit shared location of the equation, so that its value at an event is decided by the
//! ordering theory like any shared cell (a `free` in one thread and a dereference in another
//! are a use after free exactly when the free comes first in the interleaving). A heap flag
//! starts at 0 and the allocation writes 1; a local's starts at 1 (its object exists only in
//! its frame, no pointer to it exists before) and the return of its function writes 0 (main's
//! own frame excepted: its return ends the program). `free` reads the flag (0: a double free)
//! and writes 0.
//!
//! # Checks
//! A [`CheckKind::Memory`] per dereference: the pointer designates no object (null, a
//! function, an offset outside every object: `valid_target`), or a tracked object whose flag
//! reads 0 (valid-deref); per `free` of a non-null pointer: it is not the start of a heap
//! object, or the object's flag reads 0 (valid-free); per end of `main`: a heap object whose
//! flag reads 1 there and that no global or heap object may point to according to the
//! points-to analysis (valid-memtrack). Where the analysis says a global or heap object may
//! hold a pointer to it, reachability is not decided here and the check is
//! [`CheckKind::Unsupported`] (UNKNOWN, never a guess); so is memory alive at `exit`/`abort`
//! (the end of the program there keeps main's locals, whose reading SV-COMP leaves open),
//! and at a `pthread_exit` of main.
//!
//! A violation ends its path (the guard is cut by it), so that nothing the path does after
//! undefined behaviour (a read of no object gives an arbitrary value) can make another
//! violation; the value-arbitrary checks of invalid accesses (`CheckKind::InvalidRead`) keep
//! only the executions where no violation is the reason.
//!
//! # Objects made later
//! A computed pointer may designate objects that threads symbolic execution runs later make
//! (`Sharing::made_late`). Such a check gets a fresh literal now, which cuts the path now,
//! and its definition once every thread has run ([`Symex::close_memsafety`]): the flag reads
//! for those objects are then inserted at the check's place in program order, as the
//! alternatives of open accesses are (`access::close_open_accesses`).
//!
//! Pointer arithmetic is modelled on the object/offset pair (`memory`): an offset carried
//! past the offset bits into another object number would look valid; that takes an offset of
//! 2^48 bytes (2^24 on 32-bit), which no bounded execution of a test or task computes.

use std::collections::BTreeMap;

use cranelift_entity::EntityRef;
use encoder::{AccessKind, AtomicBlock, BitVec, EventData, Location, Thread};
use solver_glue::Lit;

use super::access::Via;
use super::exec::Symex;
use super::memory::{ObjId, ObjKind};
use super::state::State;
use super::{Check, CheckKind, SymexError};
use crate::ir::{Expr, Loc};
use crate::sharing::{AbsObj, ObjSet};
use crate::verdict::Violation;

/// What a deferred check decides.
#[derive(Clone, Copy, Debug)]
enum PendingKind {
    /// A dereference of this many bytes.
    Deref(u64),
    /// A `free`.
    Free,
}

/// A check whose objects are not all known yet (see the module doc).
pub(super) struct Pending {
    kind: PendingKind,
    /// The violation: fresh, defined by [`Symex::close_memsafety`].
    bad: Lit,
    /// The part decided by the objects made before the check (guard included).
    now: Lit,
    /// For a free: whether it hits the start of a heap object made before it.
    hits_now: Lit,
    guard: Lit,
    obj_part: BitVec,
    off: BitVec,
    /// The abstract objects the pointer may designate (None: any).
    may: Option<ObjSet>,
    /// Objects made before the check.
    made: usize,
    thread: Thread,
    /// Position in the thread's items where the check stands.
    pos: usize,
    atomic: Option<AtomicBlock>,
    loc: Loc,
}

/// A point where the program ends: the return of main, or an `exit`/`abort`.
pub(super) struct ProgramEnd {
    thread: Thread,
    pos: usize,
    guard: Lit,
    loc: Loc,
    /// The return of main (else `exit`, `abort` or a `pthread_exit` of main).
    main_return: bool,
}

/// The liveness state of one symbolic execution.
#[derive(Default)]
pub(super) struct Liveness {
    /// The alive flag of each tracked object.
    flags: BTreeMap<ObjId, Location>,
    /// The heap objects (`malloc`, `calloc`): the ones `free` may free.
    heap: BTreeMap<ObjId, ()>,
    pending: Vec<Pending>,
    ends: Vec<ProgramEnd>,
    /// The frees whose writes to the cells of the freed object are still to be made
    /// ([`super::SymexOptions::free_writes`]).
    free_writes: Vec<FreeWrite>,
}

/// A `free` as a write of every cell of the object (no-data-race), made once every thread
/// has run and so every cell of the object exists.
pub(super) struct FreeWrite {
    /// The path's guard and "the pointer is not null".
    guard: Lit,
    obj_part: BitVec,
    may: Option<ObjSet>,
    thread: Thread,
    pos: usize,
    /// The path's atomic section, if any.
    atomic: Option<AtomicBlock>,
    loc: Loc,
}

/// Reason of a memtrack check reachability is not decided for.
const MEMTRACK_REACH: &str =
    "valid-memtrack: memory alive at the end of main that a global or heap object may point to (reachability is not decided)";
/// Reason of a memtrack check at `exit`, `abort` or a `pthread_exit` of main.
const MEMTRACK_EXIT: &str = "valid-memtrack: memory alive at exit, abort or pthread_exit of main";

impl Symex<'_, '_, '_> {
    fn memsafety_on(&self) -> bool {
        self.opts.memsafety && !self.init_mode
    }

    /// The alive flag of `o` (made on first use; its initial write is made by
    /// [`Symex::liveness_init_writes`]).
    fn alive_loc(&mut self, o: ObjId) -> Location {
        if let Some(&l) = self.live_state.flags.get(&o) {
            return l;
        }
        let name = format!("alive({})", self.mem.objects[o].name);
        let l = self.eq.add_location(name);
        self.live_state.flags.insert(o, l);
        l
    }

    /// Whether `o` has an alive flag: a heap object or an address-taken local.
    fn tracked(&self, o: ObjId) -> bool {
        self.live_state.heap.contains_key(&o) || self.mem.objects[o].kind == ObjKind::Local
    }

    /// After an allocation of kind `kind` made object `o` under `guard`.
    pub(super) fn allocated(&mut self, o: ObjId, kind: crate::ir::AllocKind, s: &State) {
        if !self.memsafety_on() {
            return;
        }
        if kind != crate::ir::AllocKind::Heap {
            self.unsupported_check(
                "alloca, a variable-length array or an internal allocation under valid-memsafety",
                s.guard,
            );
            return;
        }
        self.live_state.heap.insert(o, ());
        let l = self.alive_loc(o);
        let one = self.enc.bv_const(1, 1);
        self.emit_write(l, s.guard, one, s);
    }

    /// The return of a function whose frame was `frame`: its address-taken locals die (main's
    /// own frame excepted: its return ends the program, see `explore::interp`).
    pub(super) fn frame_ends(&mut self, frame: u32, top_of_main: bool, s: &State) {
        if !self.memsafety_on() || top_of_main {
            return;
        }
        let mut objs: Vec<ObjId> = self
            .local_obj
            .iter()
            .filter(|(k, _)| k.0 == frame)
            .map(|(_, &o)| o)
            .collect();
        objs.sort();
        let zero = self.enc.bv_const(1, 0);
        for o in objs {
            let l = self.alive_loc(o);
            self.emit_write(l, s.guard, zero.clone(), s);
        }
    }

    /// The program ends here under `guard`: main returns, or `exit`/`abort`.
    pub(super) fn program_end(&mut self, guard: Lit, main_return: bool) {
        if !self.memsafety_on() || self.enc.const_value(guard) == Some(false) {
            return;
        }
        self.live_state.ends.push(ProgramEnd {
            thread: self.cur,
            pos: self.eq.threads[self.cur].items.len(),
            guard,
            loc: self.loc,
            main_return,
        });
    }

    /// The abstract objects a pointer from `via` may designate (None: any object).
    fn may_of(&self, via: Via<'_>) -> Option<ObjSet> {
        match via {
            Via::Pointer(e) => Some(self.sharing.pointees(self.prog, e)),
            Via::Deref(p) => Some(self.sharing.points_to.place_objects(self.prog, p)),
            Via::Object(a) => Some(ObjSet::from([a])),
            Via::Unknown => None,
        }
    }

    fn may_hold(&self, may: &Option<ObjSet>, o: ObjId) -> bool {
        match may {
            None => true,
            Some(m) => self.abs[o.index()].is_some_and(|a| m.contains(&a)),
        }
    }

    /// The valid-deref check of an access of `bits` bits at pointer `p` + `lo` under `guard`:
    /// the violation literal (false when memsafety is not checked). The path is cut by it.
    pub(super) fn deref_check(
        &mut self,
        p: &BitVec,
        lo: u64,
        bits: u32,
        guard: Lit,
        via: Via<'_>,
        s: &mut State,
    ) -> Result<Lit, SymexError> {
        if !self.memsafety_on() || self.enc.const_value(guard) == Some(false) {
            return Ok(self.enc.fls());
        }
        let (obj_part, off) = self.split_pointer(p, lo);
        let bytes = (bits as u64).div_ceil(8).max(1);
        let konst = self.enc.bv_const_value(&obj_part);
        let may = self.may_of(via);
        let candidates: Vec<ObjId> = match konst {
            Some(c) => vec![ObjId::from_u32(c as u32)]
                .into_iter()
                .filter(|o| o.index() < self.mem.objects.len())
                .collect(),
            None => self.mem.objects.keys().collect(),
        };
        let mut now = Vec::new();
        for &o in &candidates {
            if !self.tracked(o) || (konst.is_none() && !self.may_hold(&may, o)) {
                continue;
            }
            let h = self.hits_object(&obj_part, o, guard);
            if self.enc.const_value(h) == Some(false) {
                continue;
            }
            let l = self.alive_loc(o);
            let flag = self.emit_read(l, h, 1, s);
            now.push(self.enc.and(h, !flag.bit(0)));
        }
        let now = self.enc.or_all(&now);
        let bad = if konst.is_some() {
            let inb = self.valid_target(&obj_part, &off, bytes, &candidates);
            let outside = self.enc.and(guard, !inb);
            self.enc.or(now, outside)
        } else {
            let bad = self.enc.new_lit();
            self.defer(
                PendingKind::Deref(bytes),
                bad,
                now,
                guard,
                obj_part,
                off,
                may,
                s,
            );
            bad
        };
        self.check(CheckKind::Memory(Violation::ValidDeref), bad);
        s.guard = self.enc.and(s.guard, !bad);
        Ok(bad)
    }

    /// `free(p)`: nothing for a null pointer; else `p` must be the start of a live heap
    /// object, which dies. Without memsafety, `free` is no event (the engines keep freed
    /// memory: no error of unreach-call depends on it... other than through undefined
    /// behaviour, which only valid-memsafety asks about).
    pub(super) fn free(&mut self, p: &Expr, s: &mut State) -> Result<(), SymexError> {
        if self.opts.free_writes && !self.init_mode {
            return self.free_as_write(p, s);
        }
        if !self.memsafety_on() {
            return Ok(());
        }
        let v = self.eval_scalar(p, s, None)?;
        let zero = self.enc.bv_const(v.width(), 0);
        let null = self.enc.bv_eq(&v, &zero);
        let g = self.enc.and(s.guard, !null);
        if self.enc.const_value(g) == Some(false) {
            return Ok(());
        }
        let v = self.resize(&v, self.mem.ptr_bits, false);
        let (obj_part, off) = self.split_pointer(&v, 0);
        let off_zero = self.enc.bv_const(off.width(), 0);
        let at_start = self.enc.bv_eq(&off, &off_zero);
        let konst = self.enc.bv_const_value(&obj_part);
        let may = self.may_of(Via::Pointer(p));
        let heap: Vec<ObjId> = self.live_state.heap.keys().copied().collect();
        let (mut hits, mut doubles) = (Vec::new(), Vec::new());
        for o in heap {
            if !konst.map_or(self.may_hold(&may, o), |c| c as usize == o.index()) {
                continue;
            }
            let (h, double) = self.free_object(&obj_part, at_start, o, g, s);
            hits.push(h);
            doubles.push(double);
        }
        self.effects.push(g);
        let hits_now = self.enc.or_all(&hits);
        let now = self.enc.or_all(&doubles);
        let bad = if konst.is_some() {
            let missed = self.enc.and(g, !hits_now);
            self.enc.or(now, missed)
        } else {
            let bad = self.enc.new_lit();
            self.defer(PendingKind::Free, bad, now, g, obj_part, off, may, s);
            if let Some(last) = self.live_state.pending.last_mut() {
                last.hits_now = hits_now;
            }
            bad
        };
        self.check(CheckKind::Memory(Violation::ValidFree), bad);
        s.guard = self.enc.and(s.guard, !bad);
        Ok(())
    }

    /// `free(p)` under no-data-race: a write of every cell of the heap object `p` designates,
    /// made by [`Symex::close_memsafety`] (the cells of an object are made on first access,
    /// by any thread). Each cell is read and written back with the value read, in one atomic
    /// step: the values the program sees are unchanged (the engines do not model the
    /// lifetime under this property), but the free is a write that races with an access of
    /// another thread it is not ordered with, as the interpreter's free is.
    fn free_as_write(&mut self, p: &Expr, s: &mut State) -> Result<(), SymexError> {
        let v = self.eval_scalar(p, s, None)?;
        let zero = self.enc.bv_const(v.width(), 0);
        let null = self.enc.bv_eq(&v, &zero);
        let g = self.enc.and(s.guard, !null);
        if self.enc.const_value(g) == Some(false) {
            return Ok(());
        }
        let v = self.resize(&v, self.mem.ptr_bits, false);
        let (obj_part, _) = self.split_pointer(&v, 0);
        let may = self.may_of(Via::Pointer(p));
        self.effects.push(g);
        self.live_state.free_writes.push(FreeWrite {
            guard: g,
            obj_part,
            may,
            thread: self.cur,
            pos: self.eq.threads[self.cur].items.len(),
            atomic: s.block(),
            loc: self.loc,
        });
        Ok(())
    }

    /// The events of the frees of [`Symex::free_as_write`], into `inserts`.
    fn close_free_writes(
        &mut self,
        inserts: &mut BTreeMap<Thread, Vec<(usize, EventData, Loc, bool)>>,
        sections: &mut std::collections::HashSet<AtomicBlock>,
    ) {
        for f in std::mem::take(&mut self.live_state.free_writes) {
            sections.extend(f.atomic);
            let objs: Vec<ObjId> = self
                .mem
                .objects
                .iter()
                .filter(|(o, obj)| obj.kind == ObjKind::Heap && self.may_hold(&f.may, *o))
                .map(|(o, _)| o)
                .collect();
            for o in objs {
                if self.private_owner.contains_key(&o) && !self.broken.contains(&o) {
                    // Private to one thread: no other thread's access to race with.
                    continue;
                }
                let h = self.hits_object(&f.obj_part, o, f.guard);
                if self.enc.const_value(h) == Some(false) {
                    continue;
                }
                let cells: Vec<(u32, Location)> =
                    self.mem.objects[o].cells.values().copied().collect();
                if cells.is_empty() {
                    continue;
                }
                let block = f.atomic.unwrap_or_else(|| self.eq.new_atomic_block());
                let list = inserts.entry(f.thread).or_default();
                for (bits, loc) in cells {
                    let value = self.enc.bv_fresh(bits);
                    let mut data = EventData {
                        thread: f.thread,
                        location: loc,
                        kind: AccessKind::Read,
                        guard: h,
                        value,
                        atomic: Some(block),
                        source: None,
                    };
                    list.push((f.pos, data.clone(), f.loc, false));
                    data.kind = AccessKind::Write;
                    list.push((f.pos, data, f.loc, false));
                }
            }
        }
    }

    /// The flag events of a `free` for heap object `o`, emitted now: (hit, double free).
    fn free_object(
        &mut self,
        obj_part: &BitVec,
        at_start: Lit,
        o: ObjId,
        g: Lit,
        s: &State,
    ) -> (Lit, Lit) {
        let is_o = self.hits_object(obj_part, o, g);
        let h = self.enc.and(is_o, at_start);
        if self.enc.const_value(h) == Some(false) {
            return (h, h);
        }
        let l = self.alive_loc(o);
        let flag = self.emit_read(l, h, 1, s);
        let zero = self.enc.bv_const(1, 0);
        self.emit_write(l, h, zero, s);
        (h, self.enc.and(h, !flag.bit(0)))
    }

    /// `guard` and "the object part is `o`".
    fn hits_object(&mut self, obj_part: &BitVec, o: ObjId, guard: Lit) -> Lit {
        let oc = self.enc.bv_const(obj_part.width(), o.as_u32() as u64);
        let is_o = self.enc.bv_eq(obj_part, &oc);
        self.enc.and(guard, is_o)
    }

    #[allow(clippy::too_many_arguments)]
    fn defer(
        &mut self,
        kind: PendingKind,
        bad: Lit,
        now: Lit,
        guard: Lit,
        obj_part: BitVec,
        off: BitVec,
        may: Option<ObjSet>,
        s: &State,
    ) {
        let fls = self.enc.fls();
        self.live_state.pending.push(Pending {
            kind,
            bad,
            now,
            hits_now: fls,
            guard,
            obj_part,
            off,
            may,
            made: self.mem.objects.len(),
            thread: self.cur,
            pos: self.eq.threads[self.cur].items.len(),
            atomic: s.block(),
            loc: self.loc,
        });
    }

    /// "The pointer (object part, offset) designates `bytes` bytes inside one of `objs`".
    fn valid_target(&mut self, obj_part: &BitVec, off: &BitVec, bytes: u64, objs: &[ObjId]) -> Lit {
        let mut inside = Vec::new();
        for &o in objs {
            let obj = &self.mem.objects[o];
            if matches!(obj.kind, ObjKind::Null | ObjKind::Function(_)) || obj.size < bytes {
                continue;
            }
            let (size, limit) = (obj.size, obj.limit.clone());
            let is_o = self.hits_object(obj_part, o, self.enc.tru());
            let last = self.enc.bv_const(off.width(), size - bytes);
            let mut fits = self.enc.bv_ule(off, &last);
            if let Some(limit) = limit {
                // A dynamic object: its size is `limit` (its cells cover `size` bytes).
                let offw = self.resize(off, limit.width().max(off.width() + 1), false);
                let lim = self.resize(&limit, offw.width(), false);
                let n = self.enc.bv_const(offw.width(), bytes);
                let end = self.enc.bv_add(&offw, &n);
                let le = self.enc.bv_ule(&end, &lim);
                fits = self.enc.and(fits, le);
            }
            inside.push(self.enc.and(is_o, fits));
        }
        self.enc.or_all(&inside)
    }

    /// The initial writes of the alive flags: 1 for locals, 0 for heap objects (the
    /// allocation writes 1).
    pub(super) fn liveness_init_writes(&mut self) {
        let flags: Vec<(ObjId, Location)> = self
            .live_state
            .flags
            .iter()
            .map(|(&o, &l)| (o, l))
            .collect();
        for (o, l) in flags {
            let init = (self.mem.objects[o].kind == ObjKind::Local) as u64;
            let v = self.enc.bv_const(1, init);
            self.eq.add_init_write(l, v);
        }
    }

    /// Once every thread has run: the writes of frees (no-data-race), the deferred checks and
    /// the memtrack checks, whose events go into `inserts` (position, event, where, whether it
    /// continues the previous one), for `access::close_open_accesses` to place with its own;
    /// the atomic sections those events lie in go into `sections`.
    #[allow(clippy::type_complexity)]
    pub(super) fn close_memsafety(
        &mut self,
        inserts: &mut BTreeMap<Thread, Vec<(usize, EventData, Loc, bool)>>,
        sections: &mut std::collections::HashSet<AtomicBlock>,
    ) {
        self.close_free_writes(inserts, sections);
        if !self.opts.memsafety {
            return;
        }
        let all: Vec<ObjId> = self.mem.objects.keys().collect();
        for p in std::mem::take(&mut self.live_state.pending) {
            let mut read_flag = |sx: &mut Self, o: ObjId, g: Lit, write: bool| -> Lit {
                let l = sx.alive_loc(o);
                let value = sx.enc.bv_fresh(1);
                let mut data = EventData {
                    thread: p.thread,
                    location: l,
                    kind: AccessKind::Read,
                    guard: g,
                    value: value.clone(),
                    atomic: p.atomic,
                    source: None,
                };
                sections.extend(p.atomic);
                let list = inserts.entry(p.thread).or_default();
                list.push((p.pos, data.clone(), p.loc, false));
                if write {
                    data.kind = AccessKind::Write;
                    data.value = sx.enc.bv_const(1, 0);
                    list.push((p.pos, data, p.loc, false));
                }
                value.bit(0)
            };
            let late: Vec<ObjId> = (p.made..all.len())
                .map(ObjId::new)
                .filter(|&o| self.may_hold(&p.may, o))
                .collect();
            let def = match p.kind {
                PendingKind::Deref(bytes) => {
                    let inb = self.valid_target(&p.obj_part, &p.off, bytes, &all);
                    let mut bad = vec![p.now, self.enc.and(p.guard, !inb)];
                    for o in late {
                        if !self.tracked(o) {
                            continue;
                        }
                        let h = self.hits_object(&p.obj_part, o, p.guard);
                        if self.enc.const_value(h) == Some(false) {
                            continue;
                        }
                        let alive = read_flag(self, o, h, false);
                        bad.push(self.enc.and(h, !alive));
                    }
                    self.enc.or_all(&bad)
                }
                PendingKind::Free => {
                    let zero = self.enc.bv_const(p.off.width(), 0);
                    let at_start = self.enc.bv_eq(&p.off, &zero);
                    let mut hits = vec![p.hits_now];
                    let mut bad = vec![p.now];
                    for o in late {
                        if !self.live_state.heap.contains_key(&o) {
                            continue;
                        }
                        let is_o = self.hits_object(&p.obj_part, o, p.guard);
                        let h = self.enc.and(is_o, at_start);
                        if self.enc.const_value(h) == Some(false) {
                            continue;
                        }
                        let alive = read_flag(self, o, h, true);
                        hits.push(h);
                        bad.push(self.enc.and(h, !alive));
                    }
                    let any = self.enc.or_all(&hits);
                    bad.push(self.enc.and(p.guard, !any));
                    self.enc.or_all(&bad)
                }
            };
            let same = self.enc.iff(p.bad, def);
            self.enc.assert_lit(same);
        }
        let heap: Vec<ObjId> = self.live_state.heap.keys().copied().collect();
        for e in std::mem::take(&mut self.live_state.ends) {
            for &o in &heap {
                let l = self.alive_loc(o);
                let value = self.enc.bv_fresh(1);
                let data = EventData {
                    thread: e.thread,
                    location: l,
                    kind: AccessKind::Read,
                    guard: e.guard,
                    value: value.clone(),
                    atomic: None,
                    source: None,
                };
                inserts
                    .entry(e.thread)
                    .or_default()
                    .push((e.pos, data, e.loc, false));
                let alive = self.enc.and(e.guard, value.bit(0));
                let kind = if !e.main_return {
                    CheckKind::Unsupported(MEMTRACK_EXIT.into())
                } else if self.may_be_reached(o) {
                    CheckKind::Unsupported(MEMTRACK_REACH.into())
                } else {
                    CheckKind::Memory(Violation::ValidMemtrack)
                };
                self.checks.push(Check {
                    kind,
                    lit: alive,
                    loc: e.loc,
                    thread: e.thread,
                });
            }
        }
    }

    /// Whether the points-to analysis says a global or a heap object may hold a pointer to
    /// heap object `o` (else no pointer to it outlives main's frame: alive at the end of main,
    /// it is lost).
    fn may_be_reached(&self, o: ObjId) -> bool {
        let Some(target) = self.abs[o.index()] else {
            return true;
        };
        self.sharing
            .points_to
            .holders(target)
            .any(|h| matches!(h, AbsObj::Global(_) | AbsObj::Heap(_)))
    }
}
