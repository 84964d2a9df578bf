//! From abstract states to a certificate: each state becomes an [`Invariant`] whose facts say
//! exactly what the state says (its concretisation), and the lock writes become ghost
//! updates.
//!
//! A state is a disjunction over its keys; the facts every partition shares become facts of
//! their own, the rest one disjunction of conjunctions. Intervals that are a type's whole
//! range say nothing and are left out; pointer sets are joined over the partitions (a
//! weaker fact, still implied by the state).
//!
//! Facts about a *dead* variable are left out too: a local or parameter (not `self`, not
//! thread-local) whose address is never taken and that every path from the location writes before it reads it
//! ([`crate::ir::liveness`]). Leaving facts out only weakens an invariant, and these are never
//! needed: the variable's value cannot influence the instance's future (every later read sees
//! a later write), no other instance reads it, and a successor where it is live again is one
//! the location's own instruction writes it for. Keeping them was harmful: a pointer fact is
//! emitted only when every partition bounds the pointer, so where partitions are refined (a
//! branch on a private key) a dead pointer that only some partitions had assigned gained a
//! fact the predecessor lacked, and consecution failed (the stack tasks with private keys:
//! `acquire::m == &m` after `if (r)`, where `r == 0` partitions never called `acquire`).

use std::collections::BTreeMap;

use cranelift_entity::SecondaryMap;

use crate::ir::liveness::Liveness;
use crate::ir::{BinOp, Expr, ExprKind, InstrId, Place, Type, TypeId, VarId, VarKind};
use crate::prove::domain::state::{Env, Key, State, Tgt, Val};
use crate::prove::{Fact, GhostUpdate, GhostValue, Invariant, PtrTarget, TemplateId};

use super::ctx::Ctx;
use super::keys::{KeyKind, FREE, HELD_OTHER, HELD_SELF};

pub struct Emitter<'c, 'a> {
    pub cx: &'c Ctx<'a>,
}

impl Emitter<'_, '_> {
    fn var(&self, v: VarId) -> Expr {
        let ty = self.cx.prog.vars[v].ty;
        let e = Expr::read(Place::var(v, ty));
        if matches!(self.cx.prog.types.get(ty), Type::Bool) {
            Expr {
                kind: ExprKind::Cast(Box::new(e)),
                ty: self.cx.int_ty,
            }
        } else {
            e
        }
    }
    fn ty_of(&self, e: &Expr) -> TypeId {
        e.ty
    }
    fn cmp(&self, op: BinOp, a: Expr, value: i128) -> Expr {
        let ty = self.ty_of(&a);
        let c = match super::ctx::scalar_of(self.cx.prog, ty) {
            super::ctx::Scalar::Int(r) => r.to_const(value),
            _ => value as u64,
        };
        self.bin(op, a, Expr::constant(c, ty))
    }
    fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty: self.cx.int_ty,
        }
    }
    fn signed(&self, e: &Expr) -> bool {
        self.cx.prog.types.is_signed(e.ty)
    }

    /// The atoms of one partition's facts (pointers aside), over the variables `keep` accepts.
    fn atoms(
        &self,
        t: TemplateId,
        key: &Key,
        env: &Env,
        keep: &dyn Fn(VarId) -> bool,
    ) -> Vec<Expr> {
        let cx = self.cx;
        let self_id = cx.tpls.templates[t].self_id;
        let mut out = Vec::new();
        for (i, k) in cx.keys.iter().enumerate() {
            let g = self.var(k.var);
            match k.kind {
                KeyKind::Flag => out.push(self.cmp(BinOp::Eq, g, i128::from(key[i]))),
                KeyKind::Lock { owner } => {
                    let owner = owner.expect("ghosts are created before the analysis");
                    let o = self.var(owner);
                    let me = self.var(self_id);
                    match key[i] {
                        FREE => {
                            out.push(self.cmp(BinOp::Eq, g, 0));
                            out.push(self.cmp(BinOp::Eq, o, 0));
                        }
                        HELD_SELF => {
                            out.push(self.cmp(BinOp::Eq, g, 1));
                            out.push(self.bin(BinOp::Eq, o, me));
                        }
                        HELD_OTHER => {
                            out.push(self.cmp(BinOp::Eq, g, 1));
                            out.push(self.cmp(BinOp::Ne, o.clone(), 0));
                            out.push(self.bin(BinOp::Ne, o, me));
                        }
                        _ => unreachable!("lock key values are 0, 1, 2"),
                    }
                }
            }
        }
        for (v, val) in env.iter() {
            let (Val::Int(i), Some(r)) = (val, cx.range(v)) else {
                continue;
            };
            if !cx.mentioned(v) || !keep(v) {
                continue;
            }
            let x = self.var(v);
            let s = self.signed(&x);
            let (ge, le) = if s {
                (BinOp::SGe, BinOp::SLe)
            } else {
                (BinOp::UGe, BinOp::ULe)
            };
            if i.lo == i.hi {
                out.push(self.cmp(BinOp::Eq, x.clone(), i.lo));
            } else {
                if i.lo > r.min {
                    out.push(self.cmp(ge, x.clone(), i.lo));
                }
                if i.hi < r.max {
                    out.push(self.cmp(le, x.clone(), i.hi));
                }
            }
            if let Some(c) = i.ne {
                out.push(self.cmp(BinOp::Ne, x.clone(), c));
            }
            if i.m > 1 && i.lo >= 0 && i.lo != i.hi {
                // `x % m == r`: C's remainder of a non-negative value is its residue.
                let rem = if s { BinOp::SRem } else { BinOp::URem };
                let ty = x.ty;
                let mc = Expr::constant(r.to_const(i.m), ty);
                let modulo = Expr {
                    kind: ExprKind::Binary(rem, Box::new(x), Box::new(mc)),
                    ty,
                };
                out.push(self.cmp(BinOp::Eq, modulo, i.r));
            }
        }
        out
    }

    fn conj(&self, mut xs: Vec<Expr>) -> Option<Expr> {
        let first = xs.pop()?;
        Some(
            xs.into_iter()
                .rev()
                .fold(first, |acc, x| self.bin(BinOp::LogAnd, x, acc)),
        )
    }

    /// The invariant a state stands for, its facts over the variables `keep` accepts (the
    /// others are left unconstrained: a weaker invariant).
    pub fn invariant(&self, t: TemplateId, s: &State, keep: &dyn Fn(VarId) -> bool) -> Invariant {
        if s.is_bottom() {
            return Invariant {
                unreachable: true,
                facts: Vec::new(),
            };
        }
        let per: Vec<Vec<Expr>> = s
            .parts
            .iter()
            .map(|(k, e)| self.atoms(t, k, e, keep))
            .collect();
        let common: Vec<Expr> = per[0]
            .iter()
            .filter(|a| per.iter().all(|p| p.contains(a)))
            .cloned()
            .collect();
        let mut facts: Vec<Fact> = common.iter().cloned().map(Fact::Holds).collect();
        let mut disj: Vec<Expr> = Vec::new();
        let mut trivial = false;
        for p in &per {
            let rest: Vec<Expr> = p.iter().filter(|a| !common.contains(a)).cloned().collect();
            match self.conj(rest) {
                Some(c) => disj.push(c),
                None => trivial = true,
            }
        }
        if !trivial && per.len() > 1 {
            if let Some(first) = disj.pop() {
                let d = disj
                    .into_iter()
                    .rev()
                    .fold(first, |acc, x| self.bin(BinOp::LogOr, x, acc));
                facts.push(Fact::Holds(d));
            }
        }
        // Pointer facts: the union over partitions, for pointers every partition bounds.
        let mut ptrs: BTreeMap<VarId, Option<std::collections::BTreeSet<Tgt>>> = BTreeMap::new();
        for (n, e) in s.parts.values().enumerate() {
            let mut seen = std::collections::BTreeSet::new();
            for (v, val) in e.iter() {
                if let Val::Ptr(set) = val {
                    if !self.cx.mentioned(v) || !keep(v) {
                        continue;
                    }
                    seen.insert(v);
                    if n == 0 {
                        ptrs.insert(v, Some(set.clone()));
                    } else if let Some(Some(acc)) = ptrs.get_mut(&v) {
                        acc.extend(set.iter().copied());
                    }
                }
            }
            for (v, acc) in ptrs.iter_mut() {
                if !seen.contains(v) {
                    *acc = None;
                }
            }
        }
        for (v, set) in ptrs {
            let Some(set) = set else { continue };
            facts.push(Fact::PointsTo {
                var: v,
                targets: set
                    .into_iter()
                    .map(|t| match t {
                        Tgt::Null => PtrTarget::Null,
                        Tgt::Var(x) => PtrTarget::Var(x),
                        Tgt::Func(f) => PtrTarget::Func(f),
                    })
                    .collect(),
            });
        }
        Invariant {
            unreachable: false,
            facts,
        }
    }

    pub fn invariants(
        &self,
        states: &SecondaryMap<TemplateId, Vec<State>>,
    ) -> SecondaryMap<TemplateId, SecondaryMap<InstrId, Invariant>> {
        let mut out = SecondaryMap::new();
        let cx = self.cx;
        for (t, tpl) in cx.tpls.templates.iter() {
            let live = Liveness::of(&tpl.body);
            let mut m = SecondaryMap::new();
            for (i, s) in states[t].iter().enumerate() {
                let l = <InstrId as cranelift_entity::EntityRef>::new(i);
                let live_in = live.live_in(l);
                let keep = |v: VarId| {
                    let d = &cx.prog.vars[v];
                    let droppable = matches!(d.kind, VarKind::Local(_) | VarKind::Param(_))
                        && !d.address_taken
                        && !d.thread_local
                        && v != tpl.self_id;
                    !droppable || live_in.is_none_or(|set| set.contains(&v))
                };
                m[l] = self.invariant(t, s, &keep);
            }
            out[t] = m;
        }
        out
    }

    pub fn updates(&self) -> Vec<GhostUpdate> {
        let mut out: Vec<GhostUpdate> = self
            .cx
            .lock_writes
            .iter()
            .map(|(&(t, l), w)| {
                let KeyKind::Lock { owner: Some(g) } = self.cx.keys[w.key].kind else {
                    unreachable!("lock writes name locks with ghosts")
                };
                GhostUpdate {
                    template: t,
                    at: l,
                    ghost: g,
                    value: if w.value == 1 {
                        GhostValue::SelfId
                    } else {
                        GhostValue::Const(0)
                    },
                }
            })
            .collect();
        for (&(t, l), ups) in &self.cx.phase_updates {
            for &(i, v) in ups {
                out.push(GhostUpdate {
                    template: t,
                    at: l,
                    ghost: self.cx.keys[i].var,
                    value: GhostValue::Const(u64::from(v)),
                });
            }
        }
        out.sort_by_key(|u| (u.template, u.at));
        out
    }
}
