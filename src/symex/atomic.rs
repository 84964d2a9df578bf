//! Atomic sections and mutexes. `__VERIFIER_atomic_begin/end`, atomic functions and every
//! lock operation make atomic blocks of the equation; a mutex is a one-bit lock cell per
//! address, read free and written taken in one atomic step.

use encoder::{BitVec, Location};
use solver_glue::Lit;

use cranelift_entity::EntityRef;

use super::exec::Symex;
use super::memory::ObjId;
use super::state::{State, Val};
use super::{unsupported, SymexError};
use crate::ir::{Expr, Place};
use crate::sharing::AbsObj;

impl Symex<'_, '_, '_> {
    /// The lock-state locations a mutex pointer may designate, each with its condition.
    pub(super) fn lock_targets(
        &mut self,
        m: &Expr,
        s: &mut State,
    ) -> Result<Vec<(Location, Lit)>, SymexError> {
        let p = self.eval_scalar(m, s, None)?;
        if self.opts.memsafety {
            // The mutex lies in memory that must be live (valid-deref), as a one-byte access.
            let p = self.resize(&p, self.mem.ptr_bits, false);
            let g = s.guard;
            self.deref_check(&p, 0, 8, g, super::access::Via::Pointer(m), s)?;
        }
        let off_bits = self.mem.off_bits();
        let mut out = Vec::new();
        if let Some(c) = self.enc.bv_const_value(&p) {
            let obj = ObjId::from_u32((c >> off_bits) as u32);
            let off = c & ((1u64 << off_bits) - 1);
            if obj.index() == 0 || obj.index() >= self.mem.objects.len() {
                self.unsupported_check("mutex operation on an invalid pointer", s.guard);
                return Ok(out);
            }
            out.push((self.lock_loc(obj, off), s.guard));
            return Ok(out);
        }
        // A symbolic mutex pointer: any object of its points-to set at any offset where a lock
        // is known, or the start of an object of the set.
        let may = self.sharing.pointees(self.prog, m);
        self.make_singles(&may)?;
        let mut keys: Vec<(ObjId, u64)> = self
            .locks
            .keys()
            .copied()
            .filter(|(o, _)| self.abs[o.index()].is_some_and(|a| may.contains(&a)))
            .collect();
        // The objects of the set that hold a known lock: every one is in `keys` already.
        let locked: std::collections::HashSet<ObjId> = keys.iter().map(|&(o, _)| o).collect();
        for (i, &o) in &self.singles {
            if matches!(i, AbsObj::Global(_)) && may.contains(i) {
                keys.push((o, 0));
            }
        }
        // The start of every object of the set made so far that holds no known lock yet (a
        // mutex allocated on its own, `(pthread_mutex_t *) malloc(...)`, before its first
        // lock). An object with a known lock does not get its start as well: a struct's first
        // field is rarely its mutex, and each such candidate is a guarded lock event the
        // solver must refute. Leaving a candidate out is sound: a pointer that hits none of
        // them fails the "cannot be resolved" check below, which makes the verdict UNKNOWN.
        for (o, _) in self.mem.objects.iter() {
            if self.abs[o.index()].is_some_and(|a| may.contains(&a)) && !locked.contains(&o) {
                keys.push((o, 0));
            }
        }
        keys.sort();
        keys.dedup();
        let mut hits = Vec::new();
        for (o, off) in keys {
            let k = self.enc.bv_const(p.width(), self.mem.pointer(o, off));
            let hit = self.enc.bv_eq(&p, &k);
            let g = self.enc.and(s.guard, hit);
            if self.enc.const_value(g) == Some(false) {
                continue;
            }
            hits.push(hit);
            out.push((self.lock_loc(o, off), g));
        }
        let any = self.enc.or_all(&hits);
        let miss = self.enc.and(s.guard, !any);
        self.unsupported_check("mutex pointer that cannot be resolved", miss);
        Ok(out)
    }

    pub(super) fn lock_loc(&mut self, obj: ObjId, off: u64) -> Location {
        if let Some(&l) = self.locks.get(&(obj, off)) {
            return l;
        }
        let name = format!("lock({}+{off})", self.mem.objects[obj].name);
        let l = self.eq.add_location(name);
        self.locks.insert((obj, off), l);
        l
    }

    pub(super) fn lock_write(
        &mut self,
        m: &Expr,
        value: BitVec,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let targets = self.lock_targets(m, s)?;
        let single = targets.len() == 1;
        for (loc, g) in targets {
            let at = self.effects.len();
            self.emit_write(loc, g, value.clone(), s);
            if single && self.effects.len() == at + 1 {
                self.lock_effects.insert(at, (loc, false));
            }
        }
        Ok(())
    }

    /// Acquire: atomically, the lock is read free and written taken; the thread blocks
    /// (its guard requires the free read) otherwise.
    pub(super) fn lock(&mut self, m: &Expr, s: &mut State) -> Result<(), SymexError> {
        let opened = self.open_atomic(s);
        let mut acquired = Vec::new();
        let targets = self.lock_targets(m, s)?;
        let single = targets.len() == 1;
        for (loc, g) in targets {
            let v = self.emit_read(loc, g, 1, s);
            let free = !v.bit(0);
            let ok = self.enc.and(g, free);
            let one = self.enc.bv_const(1, 1);
            let at = self.effects.len();
            self.emit_write(loc, ok, one, s);
            if single && self.effects.len() == at + 1 {
                self.lock_effects.insert(at, (loc, true));
            }
            acquired.push(ok);
        }
        s.guard = self.enc.or_all(&acquired);
        self.close_atomic(s, opened);
        Ok(())
    }

    pub(super) fn trylock(
        &mut self,
        m: &Expr,
        dst: Option<&Place>,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let opened = self.open_atomic(s);
        let mut got = Vec::new();
        for (loc, g) in self.lock_targets(m, s)? {
            let v = self.emit_read(loc, g, 1, s);
            let ok = self.enc.and(g, !v.bit(0));
            let one = self.enc.bv_const(1, 1);
            self.emit_write(loc, ok, one, s);
            got.push(ok);
        }
        self.close_atomic(s, opened);
        if let Some(d) = dst {
            let any = self.enc.or_all(&got);
            let bits = self.prog.types.bits(d.ty);
            let zero = self.enc.bv_const(bits, 0);
            let busy = self.enc.bv_const(bits, 16); // EBUSY
            let v = self.enc.bv_ite(any, &zero, &busy);
            let g = s.guard;
            self.write_place(d, Val::Scalar(v), g, s)?;
        }
        Ok(())
    }

    pub(super) fn open_atomic(&mut self, s: &mut State) -> bool {
        if s.atomic.is_none() {
            s.atomic = Some((self.eq.new_atomic_block(), 1));
            true
        } else {
            false
        }
    }

    pub(super) fn close_atomic(&mut self, s: &mut State, opened: bool) {
        if opened {
            s.atomic = None;
        }
    }

    /// `__VERIFIER_atomic_begin`: opens a block, or nests in the open one.
    pub(super) fn atomic_begin(&mut self, s: &mut State) {
        match &mut s.atomic {
            Some((_, d)) => *d += 1,
            None => s.atomic = Some((self.eq.new_atomic_block(), 1)),
        }
    }

    /// `__VERIFIER_atomic_end`: closes the innermost nesting level.
    pub(super) fn atomic_end(&mut self, s: &mut State) -> Result<(), SymexError> {
        match &mut s.atomic {
            Some((_, d)) if *d > 1 => *d -= 1,
            Some(_) => s.atomic = None,
            None => return unsupported("atomic section end without a begin"),
        }
        Ok(())
    }

    /// Unlock (and initialisation): the lock cell is written free.
    pub(super) fn unlock(&mut self, m: &Expr, s: &mut State) -> Result<(), SymexError> {
        let zero = self.enc.bv_const(1, 0);
        self.lock_write(m, zero, s)
    }

    /// `pthread_cond_wait`: POSIX allows spurious wake-ups, so waiting is unlocking and
    /// locking again.
    pub(super) fn cond_wait(&mut self, mutex: &Expr, s: &mut State) -> Result<(), SymexError> {
        self.unlock(mutex, s)?;
        self.lock(mutex, s)
    }
}
