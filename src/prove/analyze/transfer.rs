//! The abstract effect of one instruction of a template on one partition.
//!
//! Soundness: for every concrete state of the partition and every execution of the
//! instruction from it, the successor state belongs to the partition [`step`] produces for
//! that successor location (with the ghost updates of the instruction applied, which move a
//! lock's key exactly as [`super::keys`] explains). Anything the domain cannot follow — a
//! write through a pointer it cannot resolve, pthread objects, the heap — gives up instead.

use cranelift_entity::EntityRef;

use crate::ir::{Body, Callee, Expr, InstrId, InstrKind, Place, PlaceBase, VarId};
use crate::prove::domain::itv::Itv;
use crate::prove::domain::state::{Env, Key, Tgt, Val};
use crate::prove::{GiveUp, TemplateId};

use super::ctx::{Ctx, Scalar};
use super::eval::{assume, eval, place_ref, read_var, PlaceRef};
use super::keys::{KeyKind, FREE, HELD_OTHER, HELD_SELF};

/// The partitions an instruction leads to.
#[derive(Default)]
pub struct Out {
    pub succ: Vec<(InstrId, Key, Env)>,
    /// Entry partitions of threads created here.
    pub creates: Vec<(TemplateId, Key, Env)>,
}

fn unsupported(cx: &Ctx, t: TemplateId, l: InstrId, what: &str) -> GiveUp {
    GiveUp::Unsupported {
        what: format!("the analyser does not model {what}"),
        at: Some(cx.at(t, l)),
    }
}

/// Executes the instruction at `(t, l)` on one partition, its phase ghost updates included
/// (they move the phase keys on every successor, see [`super::phases`]).
pub fn step(
    cx: &Ctx,
    t: TemplateId,
    l: InstrId,
    key: &Key,
    env: &Env,
    out: &mut Out,
) -> Result<(), GiveUp> {
    let start = out.succ.len();
    step_plain(cx, t, l, key, env, out)?;
    if let Some(ups) = cx.phase_updates.get(&(t, l)) {
        for (_, k, _) in &mut out.succ[start..] {
            for &(i, v) in ups {
                k[i] = v;
            }
        }
    }
    Ok(())
}

fn step_plain(
    cx: &Ctx,
    t: TemplateId,
    l: InstrId,
    key: &Key,
    env: &Env,
    out: &mut Out,
) -> Result<(), GiveUp> {
    let body = &cx.tpls.templates[t].body;
    let ins = &body.instrs[l];
    let next = InstrId::new(l.index() + 1);
    let pass = |out: &mut Out, k: Key, e: Env| {
        for s in body.successors(l) {
            out.succ.push((s, k.clone(), e.clone()));
        }
    };
    match &ins.kind {
        InstrKind::Skip
        | InstrKind::Fence(_)
        | InstrKind::Approximate(_)
        | InstrKind::AtomicBegin
        | InstrKind::AtomicEnd
        | InstrKind::Assert { .. }
        | InstrKind::ThreadJoin { retval: None, .. } => pass(out, key.clone(), env.clone()),
        InstrKind::Decl(v) => {
            let mut e = env.clone();
            e.set(*v, None, None);
            let mut k = key.clone();
            if let Some(p) = cx.private.position(*v) {
                k[p] = super::private_keys::UNKNOWN;
            }
            pass(out, k, e);
        }
        InstrKind::Assign { dst, src } => {
            let v = eval(cx, key, env, src);
            for (k, e) in write(cx, t, l, key, env, dst, v)? {
                pass(out, k, e);
            }
        }
        InstrKind::Nondet { dst } | InstrKind::ThreadSelf { dst } => {
            for (k, e) in write(cx, t, l, key, env, dst, None)? {
                pass(out, k, e);
            }
        }
        InstrKind::Assume(c) => {
            let mut e = env.clone();
            if assume(cx, key, &mut e, c, true) {
                pass(out, key.clone(), e);
            }
        }
        InstrKind::Goto { target, cond, .. } => {
            for s in body.successors(l) {
                let mut e = env.clone();
                let ok = match cond {
                    Some(c) if s == *target && s != next => assume(cx, key, &mut e, c, true),
                    Some(c) if s == next && s != *target => assume(cx, key, &mut e, c, false),
                    _ => true,
                };
                if ok {
                    out.succ.push((s, key.clone(), e));
                }
            }
        }
        InstrKind::Return(_) | InstrKind::Halt | InstrKind::ThreadExit(_) => {}
        InstrKind::ThreadCreate { handle, entry, arg } => {
            let Callee::Direct(f) = entry else {
                return Err(unsupported(cx, t, l, "a creation through a pointer"));
            };
            let u = cx
                .tpls
                .templates
                .iter()
                .find(|(_, u)| u.entry == *f && !u.is_main)
                .map(|(id, _)| id)
                .ok_or_else(|| unsupported(cx, t, l, "a creation of a thread without template"))?;
            let (k, e) = thread_entry(cx, t, l, u, key, env, arg)?;
            out.creates.push((u, k, e));
            for (k, e) in write(cx, t, l, key, env, handle, None)? {
                pass(out, k, e);
            }
        }
        InstrKind::Call { .. } => return Err(unsupported(cx, t, l, "a call left in a template")),
        InstrKind::ThreadJoin {
            retval: Some(_), ..
        } => return Err(unsupported(cx, t, l, "a join that stores the return value")),
        InstrKind::MutexInit(_)
        | InstrKind::MutexLock(_)
        | InstrKind::MutexUnlock(_)
        | InstrKind::MutexTryLock { .. }
        | InstrKind::MutexDestroy(_)
        | InstrKind::CondInit(_)
        | InstrKind::CondWait { .. }
        | InstrKind::CondSignal(_)
        | InstrKind::CondBroadcast(_)
        | InstrKind::CondDestroy(_) => return Err(unsupported(cx, t, l, "pthread mutexes")),
        InstrKind::Alloc { .. }
        | InstrKind::Free(_)
        | InstrKind::Memset { .. }
        | InstrKind::Memcpy { .. } => {
            return Err(unsupported(cx, t, l, "the heap and memset/memcpy"))
        }
    }
    Ok(())
}

/// The partitions after writing `val` (`None`: any value) into `dst`.
#[allow(clippy::too_many_arguments)]
fn write(
    cx: &Ctx,
    t: TemplateId,
    l: InstrId,
    key: &Key,
    env: &Env,
    dst: &Place,
    val: Option<Val>,
) -> Result<Vec<(Key, Env)>, GiveUp> {
    let mut e = env.clone();
    let mut key = key.clone();
    match place_ref(cx, &key, env, dst) {
        PlaceRef::Var(v) => {
            if let Some(i) = cx.key_index(v) {
                return key_write(cx, t, l, &key, env, i, val);
            }
            e.set(v, val, cx.range(v));
            if let Some(p) = cx.private.position(v) {
                key[p] = cx.private.tag_of(p - cx.private.base, e.get(v));
            }
        }
        PlaceRef::Weak(vs) => {
            for v in vs {
                if let Some(p) = cx.private.position(v) {
                    key[p] = super::private_keys::UNKNOWN;
                }
                if cx.key_index(v).is_some() {
                    return Err(unsupported(
                        cx,
                        t,
                        l,
                        "an ambiguous write of a lock or flag",
                    ));
                }
                let old = read_var(cx, &key, env, v);
                let j = match (old, &val) {
                    (Some(a), Some(b)) => a.join(b),
                    _ => None,
                };
                e.set(v, j, cx.range(v));
            }
        }
        PlaceRef::Untracked => {}
        PlaceRef::Unknown => {
            return Err(unsupported(
                cx,
                t,
                l,
                "a write through a pointer it cannot resolve",
            ))
        }
    }
    Ok(vec![(key, e)])
}

fn key_write(
    cx: &Ctx,
    t: TemplateId,
    l: InstrId,
    key: &Key,
    env: &Env,
    i: usize,
    val: Option<Val>,
) -> Result<Vec<(Key, Env)>, GiveUp> {
    match cx.keys[i].kind {
        KeyKind::Lock { .. } => {
            let w = cx
                .lock_writes
                .get(&(t, l))
                .filter(|w| w.key == i)
                .ok_or_else(|| unsupported(cx, t, l, "a lock write it did not foresee"))?;
            let mut k = key.clone();
            k[i] = if w.value == 1 { HELD_SELF } else { FREE };
            Ok(vec![(k, env.clone())])
        }
        KeyKind::Flag => {
            let max = cx.keys[i].max;
            let itv = match val {
                Some(Val::Int(x)) => x,
                _ => Itv::new(0, i128::from(max)),
            };
            let mut out = Vec::new();
            for b in 0..=max {
                if itv.contains(i128::from(b)) {
                    let mut k = key.clone();
                    k[i] = if cx.skew_small_copies && max > 1 {
                        (b + 1) % (max + 1)
                    } else {
                        b
                    };
                    out.push((k, env.clone()));
                }
            }
            if itv.lo < 0 || itv.hi > i128::from(max) {
                return Err(unsupported(
                    cx,
                    t,
                    l,
                    "a flag written a value outside its range",
                ));
            }
            Ok(out)
        }
    }
}

/// A lock key as another instance sees it: held by `self` becomes held by another.
pub fn foreign_key(cx: &Ctx, key: &Key) -> Key {
    key.iter()
        .enumerate()
        .map(|(i, &b)| match cx.keys.get(i).map(|k| k.kind) {
            Some(KeyKind::Lock { .. }) if b == HELD_SELF => HELD_OTHER,
            _ => b,
        })
        .collect()
}

/// The entry partition of a thread of template `u` created at `(t, l)` from this partition:
/// the shared variables as they are, its parameter the argument, every other private
/// variable any value (the template's body initialises its thread-locals itself).
#[allow(clippy::too_many_arguments)]
fn thread_entry(
    cx: &Ctx,
    t: TemplateId,
    l: InstrId,
    u: TemplateId,
    key: &Key,
    env: &Env,
    arg: &Expr,
) -> Result<(Key, Env), GiveUp> {
    let mut e = env.clone();
    e.retain(|v| cx.is_shared(v));
    if let Some(p) = cx.tpls.templates[u].param {
        let a = eval(cx, key, env, arg);
        if let Some(Val::Ptr(s)) = &a {
            if s.iter()
                .any(|x| matches!(x, Tgt::Var(v) if !cx.is_shared(*v)))
            {
                return Err(unsupported(
                    cx,
                    t,
                    l,
                    "a thread argument pointing to a private variable",
                ));
            }
        }
        e.set(p, a, cx.range(p));
    }
    Ok((cx.private.forget(&foreign_key(cx, key)), e))
}

pub fn zero(cx: &Ctx, v: VarId) -> Option<Val> {
    match cx.scalar(v) {
        Scalar::Int(_) => Some(Val::Int(Itv::single(0))),
        Scalar::Ptr => Some(Val::Ptr([Tgt::Null].into())),
        Scalar::Other => None,
    }
}

/// Runs a body of plain assignments to variables (an initialiser) on `env` (no keys: the
/// caller sets them); `false` when the body is anything else.
pub fn straight_line(cx: &Ctx, body: Option<&Body>, env: &mut Env) -> bool {
    let Some(body) = body else { return true };
    let nokey: Key = Vec::new();
    for ins in body.instrs.values() {
        match &ins.kind {
            InstrKind::Skip | InstrKind::Return(None) => {}
            InstrKind::Assign { dst, src } => match (&dst.base, dst.projs.is_empty()) {
                (PlaceBase::Var(v), true) if cx.key_index(*v).is_none() => {
                    let x = if uses_keys(cx, src) {
                        None
                    } else {
                        eval(cx, &nokey, env, src)
                    };
                    env.set(*v, x, cx.range(*v));
                }
                (PlaceBase::Var(v), true) => {
                    // A key's initial value was checked when it was chosen.
                    let _ = v;
                }
                (PlaceBase::Var(_), false) => {}
                _ => return false,
            },
            _ => return false,
        }
    }
    true
}

fn uses_keys(cx: &Ctx, e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        if let crate::ir::ExprKind::Read(p) | crate::ir::ExprKind::AddrOf(p) = &x.kind {
            if let PlaceBase::Var(v) = p.base {
                found |= cx.key_index(v).is_some();
            }
        }
    });
    found
}
