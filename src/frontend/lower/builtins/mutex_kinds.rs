//! Recursive and error-checking mutexes (glibc's), and attribute objects that keep what is
//! set in them, lowered to the engines' plain mutex plus cells of the objects.
//!
//! Only in programs that may create such a mutex (see `lower::mutex_kinds`, which also says
//! why the others need none of this). There every lock operation reads the mutex's kind at
//! run time, so a kind that comes from an attribute object passed by pointer, or from a
//! static initialiser of a struct field, is exact. The cells are glibc's own fields:
//! `__count` (offset 4), `__owner` (offset 8) and `__kind` (where the program's
//! `struct __pthread_mutex_s` has it); an attribute object keeps its kind in its first `int`.
//! The owner is the thread's `pthread_self()` plus 1 (0: nobody).
//!
//! Lock (glibc `pthread_mutex_lock`): a normal (or adaptive) mutex is the engines' lock. Of a
//! recursive or error-checking one, the owner relocking gets the count incremented
//! (recursive; `EAGAIN` when it would wrap) or `EDEADLK` (error-checking); anybody else takes
//! the engines' lock, then records itself as owner with count 1. Unlock by a non-owner (or of
//! an unlocked mutex) returns `EPERM`; by the owner it decrements the count and releases the
//! engines' lock at 0. Trylock: as lock, except that the owner of an error-checking mutex and
//! a mutex held by another thread give `EBUSY`. `pthread_cond_wait` on such a mutex returns
//! `EPERM` to a non-owner; a recursive mutex held more than once stays held and the wait
//! returns (glibc unlocks it only when the count drops to 0, and relocking increments it
//! again: a spurious wake-up); otherwise owner and count are cleared around the engines' wait.
//!
//! Why exact: only the owner ever writes its own number into `__owner` (after it has the
//! engines' lock) and clears it (before releasing that lock), so "`__owner` is me" read by a
//! thread is true exactly when that thread holds the mutex, even though taking the lock and
//! recording the owner are two steps; `__count` is written only by the owner. The cells are
//! read and written in atomic sections, so the no-data-race property does not count them
//! (glibc's own accesses to them are no race of the program's). The kind is written only by
//! `pthread_mutex_init` and initialisers, which a program must not run concurrently with a
//! lock operation on the same mutex.

use super::super::mutex_kinds::kind_offset;
use super::super::{Lowerer, Patch};
use crate::ir::*;

const EPERM: u64 = 1;
const EAGAIN: u64 = 11;
const EBUSY: u64 = 16;
const EINVAL: u64 = 22;
const EDEADLK: u64 = 35;
const RECURSIVE: u64 = 1;
const ERRORCHECK: u64 = 2;
/// `PTHREAD_MUTEX_ADAPTIVE_NP`, the largest kind `pthread_mutexattr_settype` accepts.
const LAST_KIND: u64 = 3;
/// glibc's `__count` and `__owner` fields of `struct __pthread_mutex_s`.
const COUNT_AT: u64 = 4;
const OWNER_AT: u64 = 8;
/// Where an attribute object keeps its detach state (glibc's `flags` of `struct pthread_attr`).
const DETACH_AT: u64 = 8;

/// A mutex's cells, and what one atomic step read of them.
struct Seen {
    owner_cell: Place,
    count_cell: Place,
    kind: Expr,
    owner: Expr,
    count: Expr,
    /// The calling thread's owner number.
    me: Expr,
}

impl Lowerer<'_> {
    fn k(&mut self, v: u64) -> Expr {
        let int = self.types.int32();
        Expr::constant(v, int)
    }

    fn set(&mut self, dst: &Place, src: Expr) {
        self.emit(InstrKind::Assign {
            dst: dst.clone(),
            src,
        });
    }

    fn cmp(&mut self, op: BinOp, a: &Expr, b: u64) -> Expr {
        let int = self.types.int32();
        let b = self.k(b);
        self.binary(op, a.clone(), b, int)
    }

    /// An `int` temporary holding `v`.
    fn int_temp(&mut self, v: u64) -> Place {
        let int = self.types.int32();
        let r = self.temp(int);
        let c = self.k(v);
        self.set(&r, c);
        r
    }

    /// The caller's owner number, and the mutex's kind, owner and count read in one atomic step.
    fn look(&mut self, m: &Expr) -> Seen {
        let int = self.types.int32();
        let tid = self.types.long(false);
        let id = self.temp(tid);
        self.emit(InstrKind::ThreadSelf { dst: id.clone() });
        let id = self.cast(Expr::read(id), int);
        let one = self.k(1);
        let me = self.binary(BinOp::Add, id, one, int);
        let me = self.freeze(me);
        let kind_cell = self.cell(m.clone(), kind_offset(&self.types));
        let owner_cell = self.cell(m.clone(), OWNER_AT);
        let count_cell = self.cell(m.clone(), COUNT_AT);
        let [kind, owner, count] = [self.temp(int), self.temp(int), self.temp(int)];
        self.emit(InstrKind::AtomicBegin);
        self.set(&kind, Expr::read(kind_cell.clone()));
        self.set(&owner, Expr::read(owner_cell.clone()));
        self.set(&count, Expr::read(count_cell.clone()));
        self.emit(InstrKind::AtomicEnd);
        Seen {
            owner_cell,
            count_cell,
            kind: Expr::read(kind),
            owner: Expr::read(owner),
            count: Expr::read(count),
            me,
        }
    }

    /// A jump taken for a mutex of a kind the engines' mutex is (not recursive, not
    /// error-checking).
    fn jump_if_plain(&mut self, s: &Seen) -> Patch {
        let int = self.types.int32();
        let rec = self.cmp(BinOp::Eq, &s.kind, RECURSIVE);
        let chk = self.cmp(BinOp::Eq, &s.kind, ERRORCHECK);
        let special = self.binary(BinOp::LogOr, rec, chk, int);
        let plain = self.unary(UnOp::LogNot, special, int);
        self.emit_jump(Some(plain))
    }

    fn jump_if_owner(&mut self, s: &Seen, owner: bool) -> Patch {
        let int = self.types.int32();
        let op = if owner { BinOp::Eq } else { BinOp::Ne };
        let c = self.binary(op, s.owner.clone(), s.me.clone(), int);
        self.emit_jump(Some(c))
    }

    /// Atomically: owner `owner`, count `count`.
    fn record(&mut self, s: &Seen, owner: Expr, count: u64) {
        self.emit(InstrKind::AtomicBegin);
        self.set(&s.owner_cell, owner);
        let c = self.k(count);
        self.set(&s.count_cell, c);
        self.emit(InstrKind::AtomicEnd);
    }

    /// The owner locks again: `busy` for an error-checking mutex, else the count goes up
    /// (`EAGAIN` if it would wrap). Gives the jumps to the end.
    fn relock(&mut self, s: &Seen, r: &Place, busy: u64) -> Vec<Patch> {
        let mut ends = Vec::new();
        let b = self.k(busy);
        self.set(r, b);
        let chk = self.cmp(BinOp::Eq, &s.kind, ERRORCHECK);
        ends.push(self.emit_jump(Some(chk)));
        let e = self.k(EAGAIN);
        self.set(r, e);
        let full = self.cmp(BinOp::Eq, &s.count, u64::MAX);
        ends.push(self.emit_jump(Some(full)));
        let int = self.types.int32();
        let one = self.k(1);
        let inc = self.binary(BinOp::Add, s.count.clone(), one, int);
        self.emit(InstrKind::AtomicBegin);
        self.set(&s.count_cell, inc);
        self.emit(InstrKind::AtomicEnd);
        let z = self.k(0);
        self.set(r, z);
        ends.push(self.emit_jump(None));
        ends
    }

    fn patch_all_here(&mut self, ends: Vec<Patch>) {
        for p in ends {
            self.patch_here(p);
        }
    }

    /// `pthread_mutex_lock(m)` with kinds.
    pub(super) fn kinds_lock(&mut self, m: Expr) -> Expr {
        let r = self.int_temp(0);
        let s = self.look(&m);
        let plain = self.jump_if_plain(&s);
        let mine = self.jump_if_owner(&s, true);
        self.emit(InstrKind::MutexLock(m.clone()));
        let me = s.me.clone();
        self.record(&s, me, 1);
        let mut ends = vec![self.emit_jump(None)];
        self.patch_here(mine);
        ends.extend(self.relock(&s, &r, EDEADLK));
        self.patch_here(plain);
        self.emit(InstrKind::MutexLock(m));
        self.patch_all_here(ends);
        Expr::read(r)
    }

    /// `pthread_mutex_trylock(m)` with kinds.
    pub(super) fn kinds_trylock(&mut self, m: Expr) -> Expr {
        let r = self.int_temp(0);
        let s = self.look(&m);
        let plain = self.jump_if_plain(&s);
        let mine = self.jump_if_owner(&s, true);
        self.emit(InstrKind::MutexTryLock {
            mutex: m.clone(),
            dst: Some(r.clone()),
        });
        let failed = self.cmp(BinOp::Ne, &Expr::read(r.clone()), 0);
        let mut ends = vec![self.emit_jump(Some(failed))];
        let me = s.me.clone();
        self.record(&s, me, 1);
        ends.push(self.emit_jump(None));
        self.patch_here(mine);
        ends.extend(self.relock(&s, &r, EBUSY));
        self.patch_here(plain);
        self.emit(InstrKind::MutexTryLock {
            mutex: m,
            dst: Some(r.clone()),
        });
        self.patch_all_here(ends);
        Expr::read(r)
    }

    /// `pthread_mutex_unlock(m)` with kinds.
    pub(super) fn kinds_unlock(&mut self, m: Expr) -> Expr {
        let r = self.int_temp(EPERM);
        let s = self.look(&m);
        let plain = self.jump_if_plain(&s);
        let mut ends = vec![self.jump_if_owner(&s, false)];
        let z = self.k(0);
        self.set(&r, z);
        // The owner: one level less (an error-checking mutex has count 1).
        let int = self.types.int32();
        let one = self.k(1);
        let dec = self.binary(BinOp::Sub, s.count.clone(), one, int);
        let dec = self.freeze(dec);
        self.emit(InstrKind::AtomicBegin);
        self.set(&s.count_cell, dec.clone());
        self.emit(InstrKind::AtomicEnd);
        let still = self.cmp(BinOp::Ne, &dec, 0);
        ends.push(self.emit_jump(Some(still)));
        let z = self.k(0);
        self.record(&s, z, 0);
        self.emit(InstrKind::MutexUnlock(m.clone()));
        ends.push(self.emit_jump(None));
        self.patch_here(plain);
        let z = self.k(0);
        self.set(&r, z);
        self.emit(InstrKind::MutexUnlock(m));
        self.patch_all_here(ends);
        Expr::read(r)
    }

    /// `pthread_cond_wait(c, m)` (and the wait of `pthread_cond_timedwait`) with kinds.
    pub(super) fn kinds_cond_wait(&mut self, c: Expr, m: Expr) -> Expr {
        let r = self.int_temp(EPERM);
        let s = self.look(&m);
        let plain = self.jump_if_plain(&s);
        let mut ends = vec![self.jump_if_owner(&s, false)];
        let z = self.k(0);
        self.set(&r, z);
        let nested = self.cmp(BinOp::Ne, &s.count, 1);
        ends.push(self.emit_jump(Some(nested)));
        let z = self.k(0);
        self.record(&s, z, 0);
        self.emit(InstrKind::CondWait {
            cond: c.clone(),
            mutex: m.clone(),
        });
        let me = s.me.clone();
        self.record(&s, me, 1);
        ends.push(self.emit_jump(None));
        self.patch_here(plain);
        let z = self.k(0);
        self.set(&r, z);
        self.emit(InstrKind::CondWait { cond: c, mutex: m });
        self.patch_all_here(ends);
        Expr::read(r)
    }

    /// `pthread_mutex_init(m, attr)` with kinds: the kind of `*attr` (normal for null), no
    /// owner.
    pub(super) fn kinds_init(&mut self, m: Expr, attr: Option<Expr>) {
        self.emit(InstrKind::MutexInit(m.clone()));
        let kind = match attr {
            Some(a) => {
                let int = self.types.int32();
                let t = self.temp(int);
                let cell = self.cell(a, 0);
                self.set(&t, Expr::read(cell));
                Expr::read(t)
            }
            None => self.k(0),
        };
        let kind_cell = self.cell(m.clone(), kind_offset(&self.types));
        let owner_cell = self.cell(m.clone(), OWNER_AT);
        let count_cell = self.cell(m, COUNT_AT);
        self.emit(InstrKind::AtomicBegin);
        self.set(&kind_cell, kind);
        for c in [owner_cell, count_cell] {
            let z = self.k(0);
            self.set(&c, z);
        }
        self.emit(InstrKind::AtomicEnd);
    }

    /// `pthread_mutexattr_init(a)` with kinds: the normal kind.
    pub(super) fn kinds_attr_init(&mut self, a: Expr) {
        let cell = self.cell(a, 0);
        let z = self.k(0);
        self.set(&cell, z);
    }

    /// `pthread_mutexattr_settype(a, kind)` with kinds: `EINVAL` for a kind glibc does not
    /// know (the object unchanged).
    pub(super) fn kinds_settype(&mut self, a: Expr, kind: Expr) -> Expr {
        let r = self.int_temp(EINVAL);
        let kind = self.freeze(kind);
        let int = self.types.int32();
        let u = self.types.int(32, false);
        let ku = self.cast(kind.clone(), u);
        let last = Expr::constant(LAST_KIND, u);
        let bad = self.binary(BinOp::UGt, ku, last, int);
        let skip = self.emit_jump(Some(bad));
        let cell = self.cell(a, 0);
        self.set(&cell, kind);
        let z = self.k(0);
        self.set(&r, z);
        self.patch_here(skip);
        Expr::read(r)
    }

    /// `*out = ` the kind in attribute object `a` (`None`: the normal kind, in a program
    /// without kinds).
    pub(super) fn kinds_gettype(&mut self, a: Option<Expr>, out: Place) {
        let v = match a {
            Some(a) => Expr::read(self.cell(a, 0)),
            None => self.k(0),
        };
        self.store_int(out, v);
    }

    /// Stores an `int` value into a place of the type the program gave it.
    fn store_int(&mut self, out: Place, v: Expr) {
        let int = self.types.int32();
        let t = self.temp(int);
        self.set(&t, v);
        let v = self.cast(Expr::read(t), out.ty);
        self.emit(InstrKind::Assign { dst: out, src: v });
    }

    /// `pthread_attr_init(a)` when detach states are kept: joinable.
    pub(super) fn detach_state_init(&mut self, a: Expr) {
        let cell = self.cell(a, DETACH_AT);
        let z = self.k(0);
        self.set(&cell, z);
    }

    /// `pthread_attr_setdetachstate(a, s)` when detach states are kept: `EINVAL` unless `s`
    /// is `PTHREAD_CREATE_JOINABLE` (0) or `PTHREAD_CREATE_DETACHED` (1).
    pub(super) fn detach_state_set(&mut self, a: Expr, state: Expr) -> Expr {
        let r = self.int_temp(EINVAL);
        let state = self.freeze(state);
        let int = self.types.int32();
        let u = self.types.int(32, false);
        let su = self.cast(state.clone(), u);
        let one = Expr::constant(1, u);
        let bad = self.binary(BinOp::UGt, su, one, int);
        let skip = self.emit_jump(Some(bad));
        let cell = self.cell(a, DETACH_AT);
        let s = self.cast(state, int);
        self.set(&cell, s);
        let z = self.k(0);
        self.set(&r, z);
        self.patch_here(skip);
        Expr::read(r)
    }

    /// `pthread_attr_getdetachstate(a, out)`.
    pub(super) fn detach_state_get(&mut self, a: Expr, out: Place) {
        let v = Expr::read(self.cell(a, DETACH_AT));
        self.store_int(out, v);
    }
}
