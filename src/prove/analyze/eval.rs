//! Abstract evaluation of expressions and refinement by conditions, in one partition (a key
//! and an environment).
//!
//! Soundness: [`eval`] returns a value whose concretisation contains the expression's value
//! in every concrete state of the partition (`None` is any value of the type); [`assume`]
//! removes from the partition only states where the condition does not have the asked truth
//! value, and says `false` only when no state of the partition has it. Both follow the IR's
//! semantics: integers wrap to their type (see [`Itv::wrap`]), comparisons and logical
//! operators give 0 or 1, casts convert by C's rules.

use std::collections::BTreeSet;

use crate::ir::{BinOp, Expr, ExprKind, PlaceBase, Proj, UnOp, VarId};
use crate::prove::domain::itv::{Itv, Range};
use crate::prove::domain::state::{Env, Key, Tgt, Val};

use super::ctx::{Ctx, Scalar};
use super::keys::{KeyKind, FREE};

/// What a place designates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceRef {
    /// Exactly this scalar variable (of the place's kind).
    Var(VarId),
    /// One of these scalar variables.
    Weak(Vec<VarId>),
    /// Part of an aggregate, or a variable the domain does not track: no tracked value
    /// changes when it is written.
    Untracked,
    /// Memory the analysis cannot name.
    Unknown,
}

/// The value of a key or tracked variable in a partition.
pub fn read_var(cx: &Ctx, key: &Key, env: &Env, v: VarId) -> Option<Val> {
    if let Some(i) = cx.key_index(v) {
        let x = match cx.keys[i].kind {
            KeyKind::Lock { .. } => i128::from(key[i] != FREE),
            KeyKind::Flag => i128::from(key[i]),
        };
        return Some(Val::Int(Itv::single(x)));
    }
    env.get(v).cloned()
}

pub fn place_ref(cx: &Ctx, key: &Key, env: &Env, p: &crate::ir::Place) -> PlaceRef {
    let same_kind = |v: VarId| {
        let a = cx.scalar(v);
        let b = cx.ty_scalar(p.ty);
        a == b && a != Scalar::Other
    };
    match &p.base {
        PlaceBase::Var(v) => {
            if p.projs.is_empty() && same_kind(*v) {
                PlaceRef::Var(*v)
            } else if p.projs.is_empty() && cx.scalar(*v) != Scalar::Other {
                PlaceRef::Unknown
            } else {
                PlaceRef::Untracked
            }
        }
        PlaceBase::Deref(e) => match eval(cx, key, env, e) {
            Some(Val::Ptr(s)) => {
                let vars: Vec<VarId> = s
                    .iter()
                    .filter_map(|t| match t {
                        Tgt::Var(v) => Some(*v),
                        _ => None,
                    })
                    .collect();
                if vars.is_empty() {
                    // Only null or functions: the access traps, no state continues.
                    return PlaceRef::Untracked;
                }
                let tracked: Vec<VarId> = vars
                    .iter()
                    .copied()
                    .filter(|v| cx.scalar(*v) != Scalar::Other)
                    .collect();
                if tracked.is_empty() {
                    return PlaceRef::Untracked;
                }
                let index_free = p.projs.iter().all(|pr| matches!(pr, Proj::Field { .. }));
                if !p.projs.is_empty() || !index_free || !tracked.iter().all(|v| same_kind(*v)) {
                    return PlaceRef::Unknown;
                }
                if vars.len() == 1 {
                    PlaceRef::Var(vars[0])
                } else {
                    PlaceRef::Weak(tracked)
                }
            }
            _ => PlaceRef::Unknown,
        },
    }
}

fn range_of(cx: &Ctx, e: &Expr) -> Option<Range> {
    match cx.ty_scalar(e.ty) {
        Scalar::Int(r) => Some(r),
        _ => None,
    }
}

/// The interval of an integer expression's value (its type's range when unknown).
pub fn itv(cx: &Ctx, key: &Key, env: &Env, e: &Expr) -> Option<Itv> {
    let r = range_of(cx, e)?;
    match eval(cx, key, env, e) {
        Some(Val::Int(i)) => Some(i),
        _ => Some(r.full()),
    }
}

/// Whether the value may be zero (null) and may be non-zero.
pub fn truth(cx: &Ctx, key: &Key, env: &Env, e: &Expr) -> (bool, bool) {
    match eval(cx, key, env, e) {
        Some(Val::Int(i)) => (i.may_zero(), i.may_nonzero()),
        Some(Val::Ptr(s)) => (s.contains(&Tgt::Null), s.iter().any(|t| *t != Tgt::Null)),
        None => (true, true),
    }
}

fn bool_val(may_false: bool, may_true: bool) -> Option<Val> {
    Some(Val::Int(match (may_false, may_true) {
        (true, false) => Itv::single(0),
        (false, true) => Itv::single(1),
        _ => Itv::new(0, 1),
    }))
}

/// The abstract value of `e`; `None` is any value of its type.
pub fn eval(cx: &Ctx, key: &Key, env: &Env, e: &Expr) -> Option<Val> {
    match &e.kind {
        ExprKind::Const(c) => match cx.ty_scalar(e.ty) {
            Scalar::Int(r) => Some(Val::Int(Itv::single(r.of_const(*c)))),
            Scalar::Ptr if *c == 0 => Some(Val::Ptr([Tgt::Null].into())),
            _ => None,
        },
        ExprKind::Read(p) => match place_ref(cx, key, env, p) {
            PlaceRef::Var(v) => read_var(cx, key, env, v),
            PlaceRef::Weak(vs) => {
                let mut acc: Option<Val> = None;
                for (n, v) in vs.iter().enumerate() {
                    let x = read_var(cx, key, env, *v)?;
                    acc = if n == 0 { Some(x) } else { acc?.join(&x) };
                }
                acc
            }
            _ => None,
        },
        ExprKind::AddrOf(p) => match (&p.base, p.projs.is_empty()) {
            (PlaceBase::Var(x), true) => Some(Val::Ptr([Tgt::Var(*x)].into())),
            _ => None,
        },
        ExprKind::FuncAddr(f) => Some(Val::Ptr([Tgt::Func(*f)].into())),
        ExprKind::Unary(op, a) => {
            let r = range_of(cx, e)?;
            match op {
                UnOp::LogNot => {
                    let (z, nz) = truth(cx, key, env, a);
                    bool_val(nz, z)
                }
                UnOp::Neg => Some(Val::Int(itv(cx, key, env, a)?.negated().wrap(r))),
                UnOp::BitNot => {
                    let i = itv(cx, key, env, a)?;
                    Some(Val::Int(Itv::new(-i.hi - 1, -i.lo - 1).wrap(r)))
                }
            }
        }
        ExprKind::Binary(op, a, b) => binary(cx, key, env, e, *op, a, b),
        ExprKind::Ite(c, a, b) => {
            let mut out: Option<Option<Val>> = None;
            for (branch, truth) in [(a, true), (b, false)] {
                let mut env2 = env.clone();
                if assume(cx, key, &mut env2, c, truth) {
                    let v = eval(cx, key, &env2, branch);
                    out = Some(match out {
                        None => v,
                        Some(prev) => match (prev, v) {
                            (Some(x), Some(y)) => x.join(&y),
                            _ => None,
                        },
                    });
                }
            }
            out.flatten()
        }
        ExprKind::Cast(a) => cast(cx, key, env, e, a),
        ExprKind::PtrAdd(p, off) => match itv(cx, key, env, off) {
            Some(i) if i.as_single() == Some(0) => eval(cx, key, env, p),
            _ => None,
        },
        ExprKind::PtrDiff(..) | ExprKind::Float(..) => None,
    }
}

fn cast(cx: &Ctx, key: &Key, env: &Env, e: &Expr, a: &Expr) -> Option<Val> {
    let to = cx.ty_scalar(e.ty);
    let is_bool = matches!(cx.prog.types.get(e.ty), crate::ir::Type::Bool);
    if is_bool {
        let (z, nz) = truth(cx, key, env, a);
        return bool_val(z, nz);
    }
    match (cx.ty_scalar(a.ty), to) {
        (Scalar::Int(_), Scalar::Int(r)) => Some(Val::Int(itv(cx, key, env, a)?.wrap(r))),
        (Scalar::Ptr, Scalar::Ptr) => eval(cx, key, env, a),
        (Scalar::Ptr, Scalar::Int(_)) => match eval(cx, key, env, a) {
            Some(Val::Ptr(s)) if s.iter().all(|t| *t == Tgt::Null) => {
                Some(Val::Int(Itv::single(0)))
            }
            _ => None,
        },
        (Scalar::Int(_), Scalar::Ptr) => match itv(cx, key, env, a)?.as_single() {
            Some(0) => Some(Val::Ptr([Tgt::Null].into())),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `op` compares as signed numbers.
fn signed_op(op: BinOp) -> Option<bool> {
    use BinOp::*;
    match op {
        SLt | SLe | SGt | SGe => Some(true),
        ULt | ULe | UGt | UGe => Some(false),
        _ => None,
    }
}

/// Whether the operands' values, as the domain stores them (by their type's signedness),
/// compare the way `op` compares them: the signedness agrees, or both are small
/// non-negative numbers (same bit pattern either way).
fn comparable(cx: &Ctx, op: BinOp, a: &Expr, ia: Itv, ib: Itv) -> bool {
    match (signed_op(op), range_of(cx, a)) {
        (Some(s), Some(r)) if s != r.signed => {
            let half = 1i128 << (r.bits - 1);
            ia.lo >= 0 && ib.lo >= 0 && ia.hi < half && ib.hi < half
        }
        _ => true,
    }
}

fn binary(cx: &Ctx, key: &Key, env: &Env, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Option<Val> {
    use BinOp::*;
    if matches!(op, LogAnd | LogOr) {
        let (az, anz) = truth(cx, key, env, a);
        let (bz, bnz) = truth(cx, key, env, b);
        return match op {
            LogAnd => bool_val(az || bz, anz && bnz),
            _ => bool_val(az && bz, anz || bnz),
        };
    }
    if op.is_comparison() {
        if matches!(cx.ty_scalar(a.ty), Scalar::Ptr) {
            let (Some(Val::Ptr(x)), Some(Val::Ptr(y))) =
                (eval(cx, key, env, a), eval(cx, key, env, b))
            else {
                return bool_val(true, true);
            };
            let disjoint = x.is_disjoint(&y);
            let same = x.len() == 1 && x == y;
            return match op {
                Eq => bool_val(!same, !disjoint),
                Ne => bool_val(!disjoint, !same),
                _ => bool_val(true, true),
            };
        }
        let (Some(ia), Some(ib)) = (itv(cx, key, env, a), itv(cx, key, env, b)) else {
            return bool_val(true, true);
        };
        if !comparable(cx, op, a, ia, ib) {
            return bool_val(true, true);
        }
        let (t, f) = match op {
            Eq => (
                ia.meet(ib).is_some(),
                !(ia.as_single().is_some() && ia == ib),
            ),
            Ne => (
                !(ia.as_single().is_some() && ia == ib),
                ia.meet(ib).is_some(),
            ),
            SLt | ULt => (ia.lo < ib.hi, ia.hi >= ib.lo),
            SLe | ULe => (ia.lo <= ib.hi, ia.hi > ib.lo),
            SGt | UGt => (ia.hi > ib.lo, ia.lo <= ib.hi),
            SGe | UGe => (ia.hi >= ib.lo, ia.lo < ib.hi),
            _ => (true, true),
        };
        return bool_val(f, t);
    }
    let r = range_of(cx, e)?;
    let ia = itv(cx, key, env, a)?;
    let ib = itv(cx, key, env, b)?;
    let exact = match op {
        Add if cx.add_off_by_one => Some(ia.plus(ib).plus(Itv::single(1))),
        Add => Some(ia.plus(ib)),
        Sub => Some(ia.minus(ib)),
        Mul => ia.times(ib),
        SDiv | UDiv => match ib.as_single() {
            Some(d) if d > 0 => Some(ia.div_pos(d)),
            _ => None,
        },
        SRem | URem => match ib.as_single() {
            Some(d) if d > 0 => Some(ia.rem_pos(d)),
            _ => None,
        },
        BitAnd => {
            if ia.lo >= 0 && ib.lo >= 0 {
                Some(Itv::new(0, ia.hi.min(ib.hi)))
            } else if ib.lo >= 0 && ib.as_single().is_some() {
                Some(Itv::new(0, ib.hi))
            } else if ia.lo >= 0 && ia.as_single().is_some() {
                Some(Itv::new(0, ia.hi))
            } else {
                None
            }
        }
        BitOr | BitXor if ia.lo >= 0 && ib.lo >= 0 => {
            let m = ia.hi.max(ib.hi);
            let mut p: i128 = 1;
            while p <= m {
                p <<= 1;
            }
            Some(Itv::new(0, p - 1))
        }
        LShr | AShr => match ib.as_single() {
            Some(s) if (0..r.bits as i128).contains(&s) && (op == AShr || ia.lo >= 0) => {
                Some(Itv::new(ia.lo >> s, ia.hi >> s))
            }
            _ => None,
        },
        Shl => match (ia.as_single(), ib.as_single()) {
            (Some(x), Some(s)) if (0..r.bits as i128).contains(&s) => {
                x.checked_mul(1i128 << s).map(Itv::single)
            }
            _ => None,
        },
        _ => None,
    };
    Some(Val::Int(exact.map_or(r.full(), |i| i.wrap(r))))
}

fn negate(op: BinOp) -> BinOp {
    use BinOp::*;
    match op {
        Eq => Ne,
        Ne => Eq,
        SLt => SGe,
        SLe => SGt,
        SGt => SLe,
        SGe => SLt,
        ULt => UGe,
        ULe => UGt,
        UGt => ULe,
        UGe => ULt,
        o => o,
    }
}

/// Refines `env` to the states of the partition where `cond` is non-zero (`truth`) or
/// zero; `false` when there is none.
pub fn assume(cx: &Ctx, key: &Key, env: &mut Env, cond: &Expr, truth: bool) -> bool {
    if !refine(cx, key, env, cond, truth) {
        return false;
    }
    let (z, nz) = self::truth(cx, key, env, cond);
    if truth {
        nz
    } else {
        z
    }
}

fn refine(cx: &Ctx, key: &Key, env: &mut Env, cond: &Expr, truth: bool) -> bool {
    match &cond.kind {
        ExprKind::Unary(UnOp::LogNot, a) => assume(cx, key, env, a, !truth),
        ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
            let conj = (*op == BinOp::LogAnd) == truth;
            if conj {
                assume(cx, key, env, a, truth) && assume(cx, key, env, b, truth)
            } else {
                let mut e1 = env.clone();
                let ok1 = assume(cx, key, &mut e1, a, truth);
                let mut e2 = env.clone();
                let ok2 = assume(cx, key, &mut e2, b, truth);
                *env = match (ok1, ok2) {
                    (true, true) => e1.join(&e2),
                    (true, false) => e1,
                    (false, true) => e2,
                    (false, false) => return false,
                };
                true
            }
        }
        ExprKind::Binary(op, a, b) if op.is_comparison() => {
            let op = if truth { *op } else { negate(*op) };
            refine_cmp(cx, key, env, op, a, b)
        }
        ExprKind::Cast(a) if zero_preserving(cx, cond, a) => assume(cx, key, env, a, truth),
        _ => {
            // A scalar tested against zero.
            let zero = match cx.ty_scalar(cond.ty) {
                Scalar::Int(_) => Itv::single(0),
                Scalar::Ptr => {
                    return refine_ptr_null(cx, key, env, cond, !truth);
                }
                Scalar::Other => return true,
            };
            if truth {
                let r = range_of(cx, cond).expect("integer");
                restrict(cx, key, env, cond, Itv::norm(r.min, r.max, Some(0)))
            } else {
                restrict(cx, key, env, cond, Some(zero))
            }
        }
    }
}

/// Whether `(T)a` is zero exactly when `a` is: casts to `_Bool`, and integer casts that keep
/// every value of the source type.
fn zero_preserving(cx: &Ctx, cast: &Expr, a: &Expr) -> bool {
    if matches!(cx.prog.types.get(cast.ty), crate::ir::Type::Bool) {
        return true;
    }
    match (range_of(cx, cast), range_of(cx, a)) {
        (Some(to), Some(from)) => to.min <= from.min && from.max <= to.max,
        _ => false,
    }
}

/// Keeps the states where the integer expression `e` is in `within` (`None`: empty).
fn restrict(cx: &Ctx, key: &Key, env: &mut Env, e: &Expr, within: Option<Itv>) -> bool {
    let Some(within) = within else { return false };
    let Some(cur) = itv(cx, key, env, e) else {
        return true;
    };
    let Some(m) = cur.meet(within) else {
        return false;
    };
    match &e.kind {
        ExprKind::Read(p) => {
            if let PlaceRef::Var(v) = place_ref(cx, key, env, p) {
                if cx.key_index(v).is_none() {
                    env.set(v, Some(Val::Int(m)), cx.range(v));
                }
            }
            true
        }
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            // `a ± c` in m, when the sum does not wrap for any current `a`: `a` in m ∓ c.
            let (Some(r), Some(ia), Some(ib)) =
                (range_of(cx, e), itv(cx, key, env, a), itv(cx, key, env, b))
            else {
                return true;
            };
            let (x, c, other) = match (ia.as_single(), ib.as_single()) {
                (_, Some(c)) => (a, c, ia),
                (Some(c), None) if *op == BinOp::Add => (b, c, ib),
                _ => return true,
            };
            let exact = if *op == BinOp::Add || !std::ptr::eq(x, a) {
                other.plus(Itv::single(c))
            } else {
                other.minus(Itv::single(c))
            };
            if exact.lo < r.min || exact.hi > r.max {
                return true;
            }
            let back = if *op == BinOp::Add {
                Itv::new(m.lo - c, m.hi - c)
            } else {
                Itv::new(m.lo + c, m.hi + c)
            };
            restrict(cx, key, env, x, Some(back))
        }
        ExprKind::Cast(a) if zero_preserving(cx, e, a) && range_of(cx, e).is_some() => {
            if matches!(cx.prog.types.get(e.ty), crate::ir::Type::Bool) {
                // `(_Bool)a` in m: only the zero-ness of `a` is known.
                return match (m.may_zero(), m.may_nonzero()) {
                    (true, false) => assume(cx, key, env, a, false),
                    (false, true) => assume(cx, key, env, a, true),
                    _ => true,
                };
            }
            restrict(cx, key, env, a, Some(m))
        }
        _ => true,
    }
}

fn refine_ptr_null(cx: &Ctx, key: &Key, env: &mut Env, e: &Expr, is_null: bool) -> bool {
    let Some(Val::Ptr(s)) = eval(cx, key, env, e) else {
        return true;
    };
    let kept: BTreeSet<Tgt> = s
        .into_iter()
        .filter(|t| (*t == Tgt::Null) == is_null)
        .collect();
    if kept.is_empty() {
        return false;
    }
    if let ExprKind::Read(p) = &e.kind {
        if let PlaceRef::Var(v) = place_ref(cx, key, env, p) {
            if cx.key_index(v).is_none() {
                env.set(v, Some(Val::Ptr(kept)), None);
            }
        }
    }
    true
}

fn refine_cmp(cx: &Ctx, key: &Key, env: &mut Env, op: BinOp, a: &Expr, b: &Expr) -> bool {
    use BinOp::*;
    if matches!(cx.ty_scalar(a.ty), Scalar::Ptr) {
        let b_null = matches!(b.kind, ExprKind::Const(0));
        let a_null = matches!(a.kind, ExprKind::Const(0));
        return match (op, a_null, b_null) {
            (Eq, false, true) => refine_ptr_null(cx, key, env, a, true),
            (Ne, false, true) => refine_ptr_null(cx, key, env, a, false),
            (Eq, true, false) => refine_ptr_null(cx, key, env, b, true),
            (Ne, true, false) => refine_ptr_null(cx, key, env, b, false),
            _ => true,
        };
    }
    let (Some(ia), Some(ib), Some(r)) =
        (itv(cx, key, env, a), itv(cx, key, env, b), range_of(cx, a))
    else {
        return true;
    };
    if !comparable(cx, op, a, ia, ib) {
        return true;
    }
    let (ra, rb) = match op {
        Eq => {
            let m = ia.meet(ib);
            (m, m)
        }
        Ne => (
            match ib.as_single() {
                Some(c) => ia.meet(Itv::norm(r.min, r.max, Some(c)).unwrap_or(r.full())),
                None => Some(ia),
            },
            match ia.as_single() {
                Some(c) => ib.meet(Itv::norm(r.min, r.max, Some(c)).unwrap_or(r.full())),
                None => Some(ib),
            },
        ),
        SLt | ULt => (
            ia.meet(Itv::new(r.min, ib.hi - 1)),
            ib.meet(Itv::new(ia.lo + 1, r.max)),
        ),
        SLe | ULe => (
            ia.meet(Itv::new(r.min, ib.hi)),
            ib.meet(Itv::new(ia.lo, r.max)),
        ),
        SGt | UGt => (
            ia.meet(Itv::new(ib.lo + 1, r.max)),
            ib.meet(Itv::new(r.min, ia.hi - 1)),
        ),
        SGe | UGe => (
            ia.meet(Itv::new(ib.lo, r.max)),
            ib.meet(Itv::new(r.min, ia.hi)),
        ),
        _ => (Some(ia), Some(ib)),
    };
    restrict(cx, key, env, a, ra) && restrict(cx, key, env, b, rb)
}
