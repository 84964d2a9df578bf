//! A flow-insensitive points-to pre-pass over every template, used only to find which
//! variable each write may change before the analysis starts (to choose the key variables).
//!
//! Sound over-approximation: every assignment to a pointer variable adds the targets of its
//! right-hand side (transitively through copies), and anything else that can produce a
//! pointer (a load from memory, arithmetic, a nondet value, an allocation) makes the
//! variable `Top` (may point anywhere). A write through a `Top` pointer may write any
//! variable. The analysis proper computes flow-sensitive points-to sets of its own; this
//! pass only decides which globals are safe to use as partition keys.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{Callee, Expr, ExprKind, InstrKind, Place, PlaceBase, VarId};
use crate::prove::domain::state::Tgt;
use crate::prove::Templates;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PSet {
    Top,
    Set(BTreeSet<Tgt>),
}

impl PSet {
    fn union(&mut self, o: &PSet) -> bool {
        match (&mut *self, o) {
            (PSet::Top, _) => false,
            (_, PSet::Top) => {
                *self = PSet::Top;
                true
            }
            (PSet::Set(a), PSet::Set(b)) => {
                let n = a.len();
                a.extend(b.iter().copied());
                a.len() != n
            }
        }
    }
}

/// What a write may change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// Exactly this whole variable.
    Must(VarId),
    /// Part of this variable (an element or a field) or one of several variables.
    May(Vec<VarId>),
    /// Unknown memory.
    Any,
}

pub struct PointsTo {
    pts: HashMap<VarId, PSet>,
}

impl PointsTo {
    pub fn of(tpls: &Templates) -> PointsTo {
        let mut p = PointsTo {
            pts: HashMap::new(),
        };
        loop {
            let mut changed = false;
            for t in tpls.templates.values() {
                for ins in t.body.instrs.values() {
                    let (dst, src) = match &ins.kind {
                        InstrKind::Assign { dst, src } => (dst, p.expr(src)),
                        InstrKind::Nondet { dst } | InstrKind::ThreadSelf { dst } => {
                            (dst, PSet::Top)
                        }
                        InstrKind::Alloc { dst: Some(dst), .. } => (dst, PSet::Top),
                        InstrKind::ThreadCreate { entry, arg, .. } => {
                            // The created template's parameter receives the argument.
                            if let Callee::Direct(f) = entry {
                                let a = p.expr(arg);
                                for u in tpls.templates.values() {
                                    if u.entry == *f && !u.is_main {
                                        if let Some(par) = u.param {
                                            changed |= p.add(par, &a);
                                        }
                                    }
                                }
                            }
                            continue;
                        }
                        _ => continue,
                    };
                    if let (PlaceBase::Var(v), true) = (&dst.base, dst.projs.is_empty()) {
                        changed |= p.add(*v, &src);
                    }
                }
            }
            if !changed {
                return p;
            }
        }
    }

    fn add(&mut self, v: VarId, s: &PSet) -> bool {
        match self.pts.get_mut(&v) {
            Some(old) => old.union(s),
            None => {
                self.pts.insert(v, s.clone());
                true
            }
        }
    }

    /// The targets a pointer-valued expression may have.
    pub fn expr(&self, e: &Expr) -> PSet {
        match &e.kind {
            ExprKind::Const(0) => PSet::Set([Tgt::Null].into()),
            ExprKind::AddrOf(p) => match (&p.base, p.projs.is_empty()) {
                (PlaceBase::Var(x), true) => PSet::Set([Tgt::Var(*x)].into()),
                _ => PSet::Top,
            },
            ExprKind::FuncAddr(f) => PSet::Set([Tgt::Func(*f)].into()),
            ExprKind::Read(p) => match (&p.base, p.projs.is_empty()) {
                (PlaceBase::Var(x), true) => self
                    .pts
                    .get(x)
                    .cloned()
                    .unwrap_or(PSet::Set(BTreeSet::new())),
                _ => PSet::Top,
            },
            ExprKind::Cast(a) => self.expr(a),
            ExprKind::Ite(_, a, b) => {
                let mut s = self.expr(a);
                s.union(&self.expr(b));
                s
            }
            _ => PSet::Top,
        }
    }

    /// What a write to `place` may change.
    pub fn written(&self, place: &Place) -> Written {
        match &place.base {
            PlaceBase::Var(v) if place.projs.is_empty() => Written::Must(*v),
            PlaceBase::Var(v) => Written::May(vec![*v]),
            PlaceBase::Deref(e) => match self.expr(e) {
                PSet::Top => Written::Any,
                PSet::Set(s) => {
                    let vars: Vec<VarId> = s
                        .iter()
                        .filter_map(|t| match t {
                            Tgt::Var(v) => Some(*v),
                            _ => None,
                        })
                        .collect();
                    if vars.len() == 1 && place.projs.is_empty() {
                        Written::Must(vars[0])
                    } else {
                        Written::May(vars)
                    }
                }
            },
        }
    }
}
