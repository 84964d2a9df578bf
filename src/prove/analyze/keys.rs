//! The key variables that partition the abstract states: lock words and 0/1 flags.
//!
//! A **lock** is a global integer or `_Bool` `m` that starts at 0 and that every write sets
//! to the constant 0 or 1 through a place that designates exactly `m`, every write of 1
//! inside an atomic section (the user-level acquire `assume(m == 0); m = 1`, often through
//! `__VERIFIER_atomic_acquire(int *m)`). It gets a ghost `owner_m`, zero initially, updated
//! in the same step as each write: `owner_m := self` after a write of 1, `owner_m := 0`
//! after a write of 0. Then, in every reachable state, exactly one of these holds, from the
//! point of view of an instance with `self`:
//! - `Free`:      `m == 0 && owner_m == 0`,
//! - `HeldSelf`:  `m == 1 && owner_m == self`,
//! - `HeldOther`: `m == 1 && owner_m != 0 && owner_m != self`,
//!
//! because `m` and `owner_m` always change together (a write of 1 by instance `i` sets
//! `owner_m := i`, which is `self` for `i` and another non-zero value for everybody else; a
//! write of 0 clears both). These are the *lock key values*; an instance's own writes move
//! its view to `HeldSelf`/`Free`, another instance's writes move it to `HeldOther`/`Free`.
//! Two instances' views are *compatible* (can describe one global state) only as
//! `(Free, Free)`, `(HeldSelf, HeldOther)`, `(HeldOther, HeldSelf)` or
//! `(HeldOther, HeldOther)`: two instances never both see `HeldSelf`, since their `self`
//! ghosts differ. This is what excludes another instance's step inside its critical section
//! at a location where this instance holds the lock.
//!
//! A **flag** is a global that only ever holds 0 or 1 (a `_Bool`, or an integer initialised
//! to 0 or 1 and written only the constants 0 and 1, each write designating exactly it); its
//! key value is its value.
//!
//! A **small** variable is a flag of a wider range `0..=max` (`max` at most [`SMALL_MAX`]): an
//! integer global initialised to a constant in that range whose every write designates exactly
//! it and assigns either such a constant or the value of another small variable (a copy,
//! possibly through an integer cast, which keeps values this small). By induction over the
//! writes it holds a value in `0..=max` in every state, where `max` is the largest initial value
//! or constant that reaches it through copies ([`small_max`]). Its key value is its value; the
//! partition over several small variables is then a finite set of tuples (a permutation of
//! `a, b, c` by rotations keeps `a != b`). The transfer function refuses (gives up on) a write
//! whose abstract value leaves `0..=max`, so a wrong choice here can cost a proof, never
//! soundness; and the checker re-establishes every fact the partitions produce.
//!
//! If any write may go through a pointer the pre-pass cannot resolve, no key is chosen:
//! every variable may be written anywhere.

use std::collections::HashMap;

use crate::ir::{ExprKind, InstrId, InstrKind, PlaceBase, Type, VarId};
use crate::prove::{TemplateId, Templates};

use super::ctx::{scalar_of, Scalar};
use super::pointsto::{PSet, PointsTo, Written};

/// At most this many keys (the partitions multiply).
pub const MAX_KEYS: usize = 6;

/// The largest value a small variable may hold (its partitions multiply by `max + 1`).
pub const SMALL_MAX: u64 = 7;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// A lock word with its owner ghost (assigned when the ghost is created).
    Lock {
        owner: Option<VarId>,
    },
    Flag,
}

#[derive(Clone, Debug)]
pub struct KeyVar {
    pub var: VarId,
    pub kind: KeyKind,
    /// The largest value a flag may hold (1 for a 0/1 flag, more for a small variable; 1 for
    /// a lock word).
    pub max: u8,
}

/// Lock key values (one byte in a [`crate::prove::domain::state::Key`]).
pub const FREE: u8 = 0;
pub const HELD_SELF: u8 = 1;
pub const HELD_OTHER: u8 = 2;

/// A write of a lock word: which key, which value (0 or 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LockWrite {
    pub key: usize,
    pub value: u8,
}

#[derive(Default)]
struct Cand {
    /// Written other than a must-write of the constant 0 or 1.
    non_const: bool,
    /// Written through an ambiguous place, or in a way the keys cannot follow.
    bad: bool,
    one_outside_atomic: bool,
    one_written: bool,
    /// Constants it is assigned (must-writes).
    consts: Vec<u64>,
    /// The globals whose value it is assigned (must-writes of a plain read, maybe cast).
    copies: Vec<VarId>,
    /// Assigned something that is neither a constant in `0..=SMALL_MAX` nor such a copy.
    not_small: bool,
}

/// The variable a must-write copies: `src` is a read of a whole variable, maybe under integer
/// casts.
fn copy_source(prog: &crate::ir::Program, src: &crate::ir::Expr) -> Option<VarId> {
    match &src.kind {
        ExprKind::Read(p) if p.projs.is_empty() => match p.base {
            PlaceBase::Var(v) => Some(v),
            PlaceBase::Deref(_) => None,
        },
        ExprKind::Cast(a) if matches!(scalar_of(prog, src.ty), Scalar::Int(_)) => {
            copy_source(prog, a)
        }
        _ => None,
    }
}

/// Chooses the keys and finds the lock writes.
pub fn choose(tpls: &Templates) -> (Vec<KeyVar>, HashMap<(TemplateId, InstrId), LockWrite>) {
    let prog = &tpls.program;
    let pts = PointsTo::of(tpls);
    let mut cands: HashMap<VarId, Cand> = HashMap::new();
    let mut any_unknown = false;
    let mut const_writes: Vec<(TemplateId, InstrId, VarId, u8)> = Vec::new();
    for (tid, t) in tpls.templates.iter() {
        for (l, ins) in t.body.instrs.iter() {
            let depth = t.atomic_depth[l];
            // Writes through pointer operands other than places.
            let mut ptr_writes = Vec::new();
            match &ins.kind {
                InstrKind::Memset { dst, .. } | InstrKind::Memcpy { dst, .. } => {
                    ptr_writes.push(dst)
                }
                InstrKind::ThreadJoin {
                    retval: Some(r), ..
                } => ptr_writes.push(r),
                InstrKind::MutexInit(e)
                | InstrKind::MutexLock(e)
                | InstrKind::MutexUnlock(e)
                | InstrKind::MutexDestroy(e)
                | InstrKind::MutexTryLock { mutex: e, .. }
                | InstrKind::CondInit(e)
                | InstrKind::CondDestroy(e)
                | InstrKind::Free(e) => ptr_writes.push(e),
                _ => {}
            }
            for e in ptr_writes {
                match pts.expr(e) {
                    PSet::Top => any_unknown = true,
                    PSet::Set(s) => {
                        for tg in s {
                            if let crate::prove::domain::state::Tgt::Var(v) = tg {
                                cands.entry(v).or_default().bad = true;
                            }
                        }
                    }
                }
            }
            let Some(dst) = ins.kind.dst() else {
                continue;
            };
            match pts.written(dst) {
                Written::Any => any_unknown = true,
                Written::May(vs) => {
                    for v in vs {
                        cands.entry(v).or_default().bad = true;
                    }
                }
                Written::Must(v) => {
                    let c = cands.entry(v).or_default();
                    let value = match &ins.kind {
                        InstrKind::Assign { src, .. } => match src.kind {
                            ExprKind::Const(0) => Some(0),
                            ExprKind::Const(1) => Some(1),
                            _ => None,
                        },
                        _ => None,
                    };
                    match &ins.kind {
                        InstrKind::Assign { src, .. } => {
                            match (&src.kind, copy_source(prog, src)) {
                                (ExprKind::Const(x), _) if *x <= SMALL_MAX => c.consts.push(*x),
                                (_, Some(w)) => c.copies.push(w),
                                _ => c.not_small = true,
                            }
                        }
                        _ => c.not_small = true,
                    }
                    match value {
                        Some(x) => {
                            if x == 1 {
                                c.one_written = true;
                                if depth == 0 {
                                    c.one_outside_atomic = true;
                                }
                            }
                            const_writes.push((tid, l, v, x));
                        }
                        None => c.non_const = true,
                    }
                    if !matches!(
                        ins.kind,
                        InstrKind::Assign { .. } | InstrKind::Nondet { .. }
                    ) {
                        c.bad = true;
                    }
                }
            }
        }
    }
    if any_unknown {
        return (Vec::new(), HashMap::new());
    }
    let inits = init_values(tpls);
    let mut locks = Vec::new();
    let mut flags = Vec::new();
    let mut smalls: HashMap<VarId, Cand> = HashMap::new();
    for (v, d) in prog.vars.iter() {
        if !d.is_global() || d.thread_local {
            continue;
        }
        let is_bool = matches!(prog.types.get(d.ty), Type::Bool);
        if !matches!(scalar_of(prog, d.ty), Scalar::Int(_)) {
            continue;
        }
        let c = cands.remove(&v).unwrap_or_default();
        let init = inits.get(&v).copied().unwrap_or(Some(0));
        if c.bad || init.is_none() {
            continue;
        }
        let init = init.expect("checked");
        if !c.non_const && init == 0 && c.one_written && !c.one_outside_atomic {
            locks.push(v);
        } else if (is_bool || !c.non_const) && init <= 1 && (c.one_written || c.non_const) {
            flags.push(v);
        } else if !is_bool && c.non_const && !c.not_small && init <= SMALL_MAX {
            let mut c = c;
            c.consts.push(init);
            smalls.insert(v, c);
        }
    }
    let smalls = small_max(smalls, &flags);
    let mut keys: Vec<KeyVar> = Vec::new();
    for v in locks.into_iter().take(MAX_KEYS) {
        keys.push(KeyVar {
            var: v,
            kind: KeyKind::Lock { owner: None },
            max: 1,
        });
    }
    for v in flags {
        if keys.len() >= MAX_KEYS {
            break;
        }
        keys.push(KeyVar {
            var: v,
            kind: KeyKind::Flag,
            max: 1,
        });
    }
    // Small variables only when all of them fit: a copy from one left out would not be
    // followed exactly.
    if keys.len() + smalls.len() <= MAX_KEYS {
        for (v, max) in smalls {
            keys.push(KeyVar {
                var: v,
                kind: KeyKind::Flag,
                max,
            });
        }
    }
    let mut lock_writes = HashMap::new();
    for (t, l, v, x) in const_writes {
        if let Some(i) = keys.iter().position(|k| k.var == v) {
            if matches!(keys[i].kind, KeyKind::Lock { .. }) {
                lock_writes.insert((t, l), LockWrite { key: i, value: x });
            }
        }
    }
    (keys, lock_writes)
}

/// The small variables (see the module doc) among the candidates, each with its largest value:
/// a candidate that copies a variable that is neither a candidate nor a 0/1 flag is none, and
/// the others' maxima are the largest constant reaching them through copies. Ordered by
/// variable.
fn small_max(mut cands: HashMap<VarId, Cand>, flags: &[VarId]) -> Vec<(VarId, u8)> {
    loop {
        let drop: Vec<VarId> = cands
            .iter()
            .filter(|(_, c)| {
                c.copies
                    .iter()
                    .any(|w| !cands.contains_key(w) && !flags.contains(w))
            })
            .map(|(v, _)| *v)
            .collect();
        if drop.is_empty() {
            break;
        }
        for v in drop {
            cands.remove(&v);
        }
    }
    let mut max: HashMap<VarId, u64> = cands
        .iter()
        .map(|(v, c)| (*v, c.consts.iter().copied().max().unwrap_or(0)))
        .collect();
    loop {
        let mut changed = false;
        for (v, c) in &cands {
            for w in &c.copies {
                let m = max.get(w).copied().unwrap_or(1);
                if m > max[v] {
                    max.insert(*v, m);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut out: Vec<(VarId, u8)> = max
        .into_iter()
        .map(|(v, m)| (v, m.min(SMALL_MAX) as u8))
        .collect();
    out.sort();
    out
}

/// The initial value of each global `init` assigns a constant (`None`: assigned otherwise).
pub fn init_values(tpls: &Templates) -> HashMap<VarId, Option<u64>> {
    let prog = &tpls.program;
    let mut out = HashMap::new();
    if let Some(b) = &prog.funcs[prog.init].body {
        for ins in b.instrs.values() {
            if let Some(dst) = ins.kind.dst() {
                let v = match (&dst.base, dst.projs.is_empty()) {
                    (PlaceBase::Var(v), true) => *v,
                    (PlaceBase::Var(v), false) => {
                        out.insert(*v, None);
                        continue;
                    }
                    _ => {
                        // A write through a pointer in the initialiser: trust no key.
                        for (g, _) in prog.globals() {
                            out.insert(g, None);
                        }
                        return out;
                    }
                };
                let val = match &ins.kind {
                    InstrKind::Assign { src, .. } => src.as_const(),
                    _ => None,
                };
                out.insert(v, val);
            }
        }
    }
    out
}
