//! The spin reduction: loops that wait are cut where an iteration had no visible effect.
//!
//! # Effect-free iterations (any loop)
//!
//! At a loop head the thread's configuration is its program point, the values of its live
//! private variables (thread-local globals and private memory cells included), its atomic
//! section, and, shared with the others, the memory, the lock cells and the set of threads.
//! An iteration that ends at the back edge with no write event, no thread created, no object
//! allocated, the same atomic section and every live private value equal to the one it had at
//! the head leaves the thread exactly where it was: the iteration consisted of reads only.
//! Take any execution in which the thread runs such an iteration: delete the iteration's
//! events. Under sequential consistency reads change nothing another thread can see, so what
//! remains is an execution too, and in it the thread stands at the head in the same
//! configuration as after the deleted iteration, so every later step (and every error) is
//! still possible. Hence the path that continues after an effect-free iteration can be cut
//! (its guard is made false at the back edge) without losing a reachable error, and without
//! an unwinding obligation for it. Holding a lock changes nothing in this argument: the
//! deleted iteration neither takes nor releases one, and a thread that spins while holding a
//! lock is in the same state after the deletion. Only effectful iterations are unrolled, so
//! only they count towards the loop's bound and its unwinding assertion. A self-loop
//! (`while (c);`) is the special case whose every iteration is effect-free: it becomes an
//! assumption of its exit condition.
//!
//! # Lock-retry loops
//!
//! An iteration that takes a mutex and releases it again (`while (1) { lock(m); if (c)
//! break; unlock(m); }`) writes the lock cell twice, but ends with the lock as it found it:
//! the thread only held `m` for a while. Deleting such an iteration yields an execution too:
//! no other thread takes `m` while it is held, and a `pthread_mutex_lock` of another thread
//! that waited for it simply happens after the deleted iteration, in the same order relative
//! to everything else; only `pthread_mutex_trylock` can see a mutex held without waiting, so
//! the exemption applies when the program has none. (Releasing a mutex another thread holds
//! is undefined behaviour and outside this argument.) The effect test above therefore skips
//! one acquisition followed by the release of the same mutex when both or neither happened
//! on the path.
//!
//! # Condition-variable waits
//!
//! `pthread_cond_wait(cv, m)` is modelled as unlock then lock (spurious wake-ups allowed). In
//! `while (c) pthread_cond_wait(cv, m)` every iteration writes the lock cell, so the rule
//! above never applies. Rotate the loop instead: between two passes of the same wait (each
//! just after its unlock) the thread takes `m`, reads, and releases `m` again. When nothing
//! else was written in between and the live private state is the same, that segment only
//! held `m` for a while. Deleting it yields an execution too (a `pthread_mutex_lock` of
//! another thread inside the segment happens after it, in the same order relative to
//! everything else), unless the program can observe that a mutex is held without blocking:
//! `pthread_mutex_trylock`. So the second pass of a wait blocks the thread right after its
//! unlock (the mutex stays released) when the segment was effect-free and the program has
//! no trylock; the path that wakes up and finds the condition false after one wait remains.

use std::collections::BTreeMap;

use encoder::{BitVec, Location};
use solver_glue::Lit;

use super::exec::Symex;
use super::memory::ObjId;
use super::state::{State, Val, VarKey, THREAD_FRAME};
use crate::ir::{FuncId, InstrId, InstrKind, LoopId};

/// Loops and waits the spin reduction cut somewhere, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpinStats {
    /// Loops whose body only re-evaluates the condition (`while (c);`): an assumption of `!c`.
    pub await_loops: usize,
    /// Other loops with an effect-free iteration on some path.
    pub pure_iteration_loops: usize,
    /// Loops that take a mutex, look, and release it again (without trylock in the program).
    pub lock_retry_loops: usize,
    /// `pthread_cond_wait` calls whose repeated wait blocks the thread.
    pub cond_wait_loops: usize,
}

impl SpinStats {
    pub fn total(&self) -> usize {
        self.await_loops + self.pure_iteration_loops + self.lock_retry_loops + self.cond_wait_loops
    }
}

/// The thread's private state at a point: what an iteration is compared against.
#[derive(Clone)]
pub(super) struct Snapshot {
    vars: BTreeMap<VarKey, Val>,
    mem: BTreeMap<(ObjId, u64), BitVec>,
    atomic: Option<(encoder::AtomicBlock, u32)>,
    /// The path's guard there.
    guard: Lit,
    /// The length of the effect log there.
    mark: usize,
    /// For a wait: the mutex pointer it released.
    mutex: Option<BitVec>,
}

impl Symex<'_, '_, '_> {
    /// The private state of `s` worth comparing: the current frame's variables live at `at`,
    /// every thread-local global, every private cell.
    pub(super) fn snapshot(&mut self, func: FuncId, at: InstrId, s: &State) -> Snapshot {
        let live = self.liveness(func);
        let frame = self.frame;
        let vars = s
            .vars
            .iter()
            .filter(|(k, _)| {
                k.0 == THREAD_FRAME
                    || (k.0 == frame && live.live_in(at).is_some_and(|l| l.contains(&k.1)))
            })
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        Snapshot {
            vars,
            mem: s.mem.clone(),
            atomic: s.atomic,
            guard: s.guard,
            mark: self.effects.len(),
            mutex: None,
        }
    }

    /// A literal true iff the thread's path from `before` to `after` (taken at the same
    /// program point) did something visible: a write or another effect logged in
    /// `before.mark..upto`, or a change of its private state.
    pub(super) fn changed(&mut self, before: &Snapshot, after: &Snapshot, upto: usize) -> Lit {
        if before.atomic != after.atomic {
            return self.enc.tru();
        }
        let mut diffs: Vec<Lit> = Vec::new();
        let mut locks: Vec<(Lit, Location, bool)> = Vec::new();
        for i in before.mark..upto {
            match self.lock_effects.get(&i) {
                Some(&(loc, take)) => locks.push((self.effects[i], loc, take)),
                None => diffs.push(self.effects[i]),
            }
        }
        match locks.as_slice() {
            [] => {}
            // Took a mutex and released it again: a transient hold, invisible without
            // trylock. The state is the same when both happened or neither did.
            [(ga, la, true), (gr, lr, false)] if la == lr && !self.has_trylock => {
                let one_only = self.enc.xor(*ga, *gr);
                diffs.push(one_only);
            }
            _ => diffs.extend(locks.iter().map(|l| l.0)),
        }
        match (&before.mutex, &after.mutex) {
            (Some(a), Some(b)) if a.width() == b.width() => {
                if a != b {
                    let eq = self.enc.bv_eq(a, b);
                    diffs.push(!eq);
                }
            }
            (None, None) => {}
            _ => return self.enc.tru(),
        }
        let keys: std::collections::BTreeSet<VarKey> = before
            .vars
            .keys()
            .chain(after.vars.keys())
            .copied()
            .collect();
        for k in keys {
            match (before.vars.get(&k), after.vars.get(&k)) {
                (Some(a), Some(b)) => {
                    let d = self.val_differs(a, b);
                    diffs.push(d);
                }
                _ => return self.enc.tru(),
            }
        }
        let cells: std::collections::BTreeSet<(ObjId, u64)> =
            before.mem.keys().chain(after.mem.keys()).copied().collect();
        for c in cells {
            let (a, b) = match (before.mem.get(&c), after.mem.get(&c)) {
                (Some(a), Some(b)) => (a.clone(), b.clone()),
                // First touched during the iteration: it held its initial value before.
                (None, Some(b)) => (self.private_initial(c.0, c.1, b.width()), b.clone()),
                _ => return self.enc.tru(),
            };
            if a != b {
                let eq = self.enc.bv_eq(&a, &b);
                diffs.push(!eq);
            }
        }
        self.enc.or_all(&diffs)
    }

    fn val_differs(&mut self, a: &Val, b: &Val) -> Lit {
        if a == b {
            return self.enc.fls();
        }
        let (la, lb) = (a.leaves(), b.leaves());
        if la.len() != lb.len() {
            return self.enc.tru();
        }
        let mut diffs = Vec::new();
        for ((oa, x), (ob, y)) in la.iter().zip(lb.iter()) {
            if oa != ob || x.width() != y.width() {
                return self.enc.tru();
            }
            if x != y {
                let eq = self.enc.bv_eq(x, y);
                diffs.push(!eq);
            }
        }
        self.enc.or_all(&diffs)
    }

    /// At the back edge of `lp`: the guard of the path that goes round again, `taken`, is
    /// narrowed to iterations that had a visible effect (see the module documentation).
    /// Also returns the state compared, with the narrowed guard: the head's snapshot of the
    /// next iteration (nothing happens between the back edge and the head).
    pub(super) fn spin_back_edge(
        &mut self,
        func: FuncId,
        lp: LoopId,
        head: &Snapshot,
        s: &State,
        taken: Lit,
    ) -> (Lit, Snapshot) {
        let body = self.prog.funcs[func].body.as_ref().expect("a body");
        let info = &body.loops[lp];
        let now = self.snapshot(func, info.head, s);
        let upto = self.effects.len();
        let changed = self.changed(head, &now, upto);
        let narrowed = self.enc.and(taken, changed);
        // The statistics walk the loop once: a loop already counted is not looked at again.
        if self.enc.const_value(changed) != Some(true)
            && !self.spin_seen.contains(&(func, lp, None))
            && quiet_path(self, body, info.head, info.back_edge)
            && self.spin_seen.insert((func, lp, None))
        {
            let only_test = (info.head.as_u32()..=info.back_edge.as_u32()).all(|i| {
                matches!(
                    body.instrs[InstrId::from_u32(i)].kind,
                    InstrKind::Goto { .. } | InstrKind::Skip
                )
            });
            let locks = (info.head.as_u32()..=info.back_edge.as_u32()).any(|i| {
                matches!(
                    body.instrs[InstrId::from_u32(i)].kind,
                    InstrKind::MutexLock(_)
                )
            });
            if only_test {
                self.spin.await_loops += 1;
            } else if locks {
                self.spin.lock_retry_loops += 1;
            } else {
                self.spin.pure_iteration_loops += 1;
            }
        }
        let mut next = now;
        next.guard = narrowed;
        (narrowed, next)
    }

    /// `pthread_cond_wait` with the reduction: unlock, block when the pass since the previous
    /// one (of this call of the function) only held the mutex, lock.
    pub(super) fn cond_wait_spin(
        &mut self,
        func: FuncId,
        at: InstrId,
        mutex: &crate::ir::Expr,
        s: &mut State,
    ) -> Result<(), super::SymexError> {
        let before_unlock = self.effects.len();
        let ptr = self.eval_scalar(mutex, s, None)?;
        self.unlock(mutex, s)?;
        let next = InstrId::from_u32(at.as_u32() + 1);
        let key = (self.frame, func, at);
        // The state just after the unlock: compared with the previous pass, then kept as the
        // previous pass of the next one (the blocking below changes only the guard).
        let mut snap = self.snapshot(func, next, s);
        snap.mutex = Some(ptr);
        if let Some(prev) = self.wait_snaps.remove(&key) {
            let changed = self.changed(&prev, &snap, before_unlock);
            let both = self.enc.and(prev.guard, s.guard);
            let repeat = self.enc.and(both, !changed);
            if self.enc.const_value(repeat) != Some(false) {
                if self
                    .spin_seen
                    .insert((func, LoopId::from_u32(u32::MAX), Some(at)))
                {
                    self.spin.cond_wait_loops += 1;
                }
                s.guard = self.enc.and(s.guard, !repeat);
            }
        }
        snap.guard = s.guard;
        self.lock(mutex, s)?;
        snap.mark = self.effects.len();
        self.wait_snaps.insert(key, snap);
        Ok(())
    }

    /// The liveness of `func`'s body, computed once.
    fn liveness(&mut self, func: FuncId) -> std::rc::Rc<crate::ir::liveness::Liveness> {
        if let Some(l) = self.live.get(&func) {
            return l.clone();
        }
        let body = self.prog.funcs[func].body.as_ref().expect("a body");
        let l = std::rc::Rc::new(crate::ir::liveness::Liveness::of(body));
        self.live.insert(func, l.clone());
        l
    }
}

/// Whether some control-flow path from `head` to the back edge `back` stays inside the loop
/// and passes no instruction that writes shared state itself (calls may write nothing; for
/// the statistics only: the reduction itself decides per path, on the values).
fn quiet_path(
    sx: &Symex<'_, '_, '_>,
    body: &crate::ir::Body,
    head: InstrId,
    back: InstrId,
) -> bool {
    use crate::ir::{Place, PlaceBase};
    let private = |p: &Place| matches!(p.base, PlaceBase::Var(v) if !sx.is_memory_var(v));
    let quiet = |k: &InstrKind| match k {
        InstrKind::Assign { dst, .. } | InstrKind::Nondet { dst } => private(dst),
        InstrKind::Skip
        | InstrKind::Decl(_)
        | InstrKind::Goto { .. }
        | InstrKind::Assume(_)
        | InstrKind::Assert { .. }
        | InstrKind::AtomicBegin
        | InstrKind::AtomicEnd
        | InstrKind::ThreadSelf { .. }
        | InstrKind::Call { .. }
        | InstrKind::CondSignal(_)
        | InstrKind::CondBroadcast(_) => true,
        InstrKind::MutexLock(_) | InstrKind::MutexUnlock(_) => !sx.has_trylock,
        _ => false,
    };
    let (lo, hi) = (head.as_u32(), back.as_u32());
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![head];
    while let Some(i) = work.pop() {
        if !seen.insert(i) || !quiet(&body.instrs[i].kind) {
            continue;
        }
        if i == back {
            return true;
        }
        for n in body.successors(i) {
            if (lo..=hi).contains(&n.as_u32()) && n != head {
                work.push(n);
            }
        }
    }
    false
}
