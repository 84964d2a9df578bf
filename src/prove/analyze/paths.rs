//! Path facts: a small disjunctive domain over an instance's own variables, for relations a
//! thread's computation establishes and no interval says — `z = (x == y) ? 0 : 1` followed by
//! `if (z == 0) assert(x == y)`.
//!
//! Per template and location, a disjunction of at most [`MAX_CUBES`] *cubes*, each a
//! conjunction of *atoms*: a branch condition the instance took (`x == y`, or its negation)
//! or `v == c` after the assignment of a constant. An atom may only read *tracked* variables:
//! the template's private integer locals and parameters whose address is never taken. No other
//! instance can write those (its copies are other variables, and no pointer designates them),
//! so the facts are about the instance's own steps only: they need no interference, and the
//! checker's stability checks skip them (another instance's step writes none of them).
//!
//! Transfer (each an over-approximation of the concrete step, so the result is an invariant):
//! a branch or `assume`/`assert` conjoins its condition (or its negation) on the edge taken;
//! a write of a tracked variable drops every atom that reads it, then, for a constant,
//! conjoins `v == c`; a write through a pointer changes no tracked variable; any other
//! instruction that may write a variable (creation handles, joins, allocation...) drops every
//! atom. A cube that holds an atom and its negation, or `v == c` and `v == d` for `c != d`, is
//! empty and dropped. Joins take the union of the cubes (a cube subsumed by a weaker one is
//! dropped); beyond [`MAX_CUBES`] the cubes collapse to the atoms they share, and a location
//! updated more than [`MAX_UPDATES`] times becomes `true`, which bounds the iteration.
//!
//! Nothing here is trusted: the facts join the certificate's invariants (a location no cube
//! reaches becomes unreachable) and the checker re-establishes them with everything else.

use std::collections::BTreeSet;

use cranelift_entity::{EntityRef, SecondaryMap};

use crate::ir::{
    BinOp, Expr, ExprKind, InstrId, InstrKind, PlaceBase, Type, TypeId, UnOp, VarId, VarKind,
};
use crate::prove::{Fact, Invariant, Template, TemplateId, Templates};

/// Cubes per location before they collapse into one.
pub const MAX_CUBES: usize = 4;
/// Updates of one location before it becomes `true`.
pub const MAX_UPDATES: usize = 24;

/// An atom: `v == c` (the constant's bits in `v`'s type), or an interned condition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Atom {
    Eq(VarId, u64),
    Cond(usize),
}

/// An atom or its negation (`false`).
type Lit = (Atom, bool);
type Cube = BTreeSet<Lit>;
/// `None`: no path reaches the location.
type Disj = Option<Vec<Cube>>;

struct Paths<'a> {
    ts: &'a Templates,
    tpl: &'a Template,
    tracked: BTreeSet<VarId>,
    conds: Vec<(Expr, BTreeSet<VarId>)>,
    /// Per `v == c` atom (its constant masked to `v`'s width), the constant as the program
    /// wrote it, for the fact.
    written: std::collections::HashMap<(VarId, u64), u64>,
    int_ty: TypeId,
    /// Sabotage (tests only): writes drop no atom.
    stale: bool,
}

/// Adds the path facts of every template to `invariants`.
pub fn strengthen(
    ts: &Templates,
    int_ty: TypeId,
    invariants: &mut SecondaryMap<TemplateId, SecondaryMap<InstrId, Invariant>>,
    stale: bool,
) {
    for (t, tpl) in ts.templates.iter() {
        let prog = &ts.program;
        let tracked: BTreeSet<VarId> = tpl
            .locals
            .iter()
            .copied()
            .filter(|&v| {
                let d = &prog.vars[v];
                matches!(d.kind, VarKind::Local(_) | VarKind::Param(_))
                    && !d.address_taken
                    && !d.thread_local
                    && matches!(prog.types.get(d.ty), Type::Int { .. })
            })
            .collect();
        if tracked.is_empty() {
            continue;
        }
        let mut p = Paths {
            ts,
            tpl,
            tracked,
            conds: Vec::new(),
            written: Default::default(),
            int_ty,
            stale,
        };
        let states = p.run();
        for (i, st) in states.iter().enumerate() {
            let l = InstrId::new(i);
            let inv = &mut invariants[t][l];
            if inv.unreachable {
                continue;
            }
            match st {
                None => {
                    inv.unreachable = true;
                    inv.facts.clear();
                }
                Some(cubes) if cubes.is_empty() => {
                    inv.unreachable = true;
                    inv.facts.clear();
                }
                Some(cubes) => {
                    if let Some(e) = p.disjunction(cubes) {
                        inv.facts.push(Fact::Holds(e));
                    }
                }
            }
        }
    }
}

impl Paths<'_> {
    fn run(&mut self) -> Vec<Disj> {
        let n = self.tpl.body.instrs.len();
        let mut states: Vec<Disj> = vec![None; n];
        let mut updates = vec![0usize; n];
        if n == 0 {
            return states;
        }
        states[0] = Some(vec![Cube::new()]);
        let mut work: BTreeSet<usize> = [0].into();
        while let Some(i) = work.pop_first() {
            let Some(cubes) = states[i].clone() else {
                continue;
            };
            let l = InstrId::new(i);
            for (s, out) in self.step(l, &cubes) {
                let si = s.index();
                let joined = match &states[si] {
                    None => normal(out),
                    Some(old) => {
                        let mut all = old.clone();
                        all.extend(out);
                        normal(all)
                    }
                };
                if states[si].as_ref() != Some(&joined) {
                    updates[si] += 1;
                    states[si] = Some(if updates[si] > MAX_UPDATES {
                        vec![Cube::new()]
                    } else {
                        joined
                    });
                    work.insert(si);
                }
            }
        }
        states
    }

    /// The successors of `l` and the cubes that reach each.
    fn step(&mut self, l: InstrId, cubes: &[Cube]) -> Vec<(InstrId, Vec<Cube>)> {
        let body = &self.tpl.body;
        let succ = body.successors(l);
        let kind = &body.instrs[l].kind;
        let map = |cubes: &[Cube], f: &mut dyn FnMut(Cube) -> Option<Cube>| -> Vec<Cube> {
            cubes.iter().cloned().filter_map(f).collect()
        };
        match kind {
            InstrKind::Goto {
                target,
                cond: Some(c),
                ..
            } => {
                let next = InstrId::new(l.index() + 1);
                let lit = self.lit(c, true);
                succ.into_iter()
                    .map(|s| {
                        let taken = if s == *target && s != next {
                            Some(true)
                        } else if s != *target {
                            Some(false)
                        } else {
                            None
                        };
                        let out = match (taken, lit) {
                            (Some(t), Some((a, p))) => {
                                map(cubes, &mut |cb| self.add(cb, (a, p == t)))
                            }
                            _ => cubes.to_vec(),
                        };
                        (s, out)
                    })
                    .collect()
            }
            InstrKind::Assume(c) | InstrKind::Assert { cond: c, .. } => {
                let out = match self.lit(c, true) {
                    Some(lit) => map(cubes, &mut |cb| self.add(cb, lit)),
                    None => cubes.to_vec(),
                };
                succ.into_iter().map(|s| (s, out.clone())).collect()
            }
            InstrKind::Skip
            | InstrKind::Fence(_)
            | InstrKind::AtomicBegin
            | InstrKind::AtomicEnd
            | InstrKind::Approximate(_)
            | InstrKind::Goto { cond: None, .. } => {
                succ.into_iter().map(|s| (s, cubes.to_vec())).collect()
            }
            InstrKind::Assign { dst, src } => {
                let out = match &dst.base {
                    // Tracked variables have no address: a write through a pointer keeps them.
                    PlaceBase::Deref(_) => cubes.to_vec(),
                    PlaceBase::Var(v) => {
                        let v = *v;
                        let konst = src
                            .as_const()
                            .filter(|_| dst.projs.is_empty() && self.tracked.contains(&v))
                            .map(|c| self.eq_const(v, c));
                        map(cubes, &mut |cb| {
                            let cb = self.kill(cb, v);
                            match konst {
                                Some(c) => self.add(cb, (Atom::Eq(v, c), true)),
                                None => Some(cb),
                            }
                        })
                    }
                };
                succ.into_iter().map(|s| (s, out.clone())).collect()
            }
            InstrKind::Nondet { dst } => {
                let out = match &dst.base {
                    PlaceBase::Deref(_) => cubes.to_vec(),
                    PlaceBase::Var(v) => map(cubes, &mut |cb| Some(self.kill(cb, *v))),
                };
                succ.into_iter().map(|s| (s, out.clone())).collect()
            }
            InstrKind::Decl(v) => {
                let out = map(cubes, &mut |cb| Some(self.kill(cb, *v)));
                succ.into_iter().map(|s| (s, out.clone())).collect()
            }
            // Anything else may write some variable: nothing is kept.
            _ => succ.into_iter().map(|s| (s, vec![Cube::new()])).collect(),
        }
    }

    /// The cube without the atoms that read `v`.
    fn kill(&self, cb: Cube, v: VarId) -> Cube {
        if self.stale {
            return cb;
        }
        cb.into_iter()
            .filter(|(a, _)| match a {
                Atom::Eq(w, _) => *w != v,
                Atom::Cond(i) => !self.conds[*i].1.contains(&v),
            })
            .collect()
    }

    /// The cube with `lit` conjoined; `None` when that is a contradiction.
    fn add(&self, mut cb: Cube, lit: Lit) -> Option<Cube> {
        let (a, p) = lit;
        if cb.contains(&(a, !p)) {
            return None;
        }
        if let (Atom::Eq(v, c), true) = (a, p) {
            let clash = cb
                .iter()
                .any(|&(b, q)| q && matches!(b, Atom::Eq(w, d) if w == v && d != c));
            if clash {
                return None;
            }
        }
        cb.insert(lit);
        Some(cb)
    }

    /// The literal a condition is (when it reads tracked variables only), with `pol` the
    /// polarity of `e` itself.
    fn lit(&mut self, e: &Expr, pol: bool) -> Option<Lit> {
        match &e.kind {
            ExprKind::Unary(UnOp::LogNot, a) => self.lit(a, !pol),
            ExprKind::Binary(BinOp::Ne, a, b) => {
                let eq = Expr {
                    kind: ExprKind::Binary(BinOp::Eq, a.clone(), b.clone()),
                    ty: e.ty,
                };
                self.lit(&eq, !pol)
            }
            ExprKind::Binary(BinOp::Eq, a, b) => {
                let var_const = |x: &Expr, k: &Expr| match (&x.kind, k.as_const()) {
                    (ExprKind::Read(p), Some(c)) if p.projs.is_empty() && x.ty == k.ty => {
                        match p.base {
                            PlaceBase::Var(v) if self.tracked.contains(&v) => Some((v, c)),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                if let Some((v, c)) = var_const(a, b).or_else(|| var_const(b, a)) {
                    return Some((Atom::Eq(v, self.eq_const(v, c)), pol));
                }
                self.cond(e).map(|i| (Atom::Cond(i), pol))
            }
            _ => self.cond(e).map(|i| (Atom::Cond(i), pol)),
        }
    }

    /// The constant of a `v == c` atom: masked to `v`'s width, so that two spellings of one
    /// value are one atom (remembering the first spelling for the fact).
    fn eq_const(&mut self, v: VarId, c: u64) -> u64 {
        let bits = self.ts.program.types.bits(self.ts.program.vars[v].ty);
        let m = if bits >= 64 {
            c
        } else {
            c & ((1u64 << bits) - 1)
        };
        self.written.entry((v, m)).or_insert(c);
        m
    }

    /// Interns a condition that reads tracked variables only (at least one), no memory.
    fn cond(&mut self, e: &Expr) -> Option<usize> {
        let mut ok = true;
        let mut vars = BTreeSet::new();
        e.walk(&mut |x| match &x.kind {
            ExprKind::Read(p) => match p.base {
                PlaceBase::Var(v) if p.projs.is_empty() && self.tracked.contains(&v) => {
                    vars.insert(v);
                }
                _ => ok = false,
            },
            ExprKind::AddrOf(_) => ok = false,
            _ => {}
        });
        if !ok || vars.is_empty() || !self.ts.program.types.is_scalar(e.ty) {
            return None;
        }
        if let Some(i) = self.conds.iter().position(|(c, _)| c == e) {
            return Some(i);
        }
        self.conds.push((e.clone(), vars));
        Some(self.conds.len() - 1)
    }

    fn atom_expr(&self, a: Atom) -> Expr {
        match a {
            Atom::Eq(v, c) => {
                let ty = self.ts.program.vars[v].ty;
                Expr {
                    kind: ExprKind::Binary(
                        BinOp::Eq,
                        Box::new(Expr::read(crate::ir::Place::var(v, ty))),
                        Box::new(Expr::constant(self.written[&(v, c)], ty)),
                    ),
                    ty: self.int_ty,
                }
            }
            Atom::Cond(i) => self.conds[i].0.clone(),
        }
    }

    fn lit_expr(&self, (a, p): Lit) -> Expr {
        let e = self.atom_expr(a);
        if p {
            // A condition is non-zero when it holds; the fact form wants just that.
            e
        } else {
            Expr {
                kind: ExprKind::Unary(UnOp::LogNot, Box::new(e)),
                ty: self.int_ty,
            }
        }
    }

    fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty: self.int_ty,
        }
    }

    /// The fact the cubes stand for; `None` when it is `true`.
    fn disjunction(&self, cubes: &[Cube]) -> Option<Expr> {
        if cubes.iter().any(|c| c.is_empty()) {
            return None;
        }
        let conj: Vec<Expr> = cubes
            .iter()
            .map(|c| {
                let mut it = c.iter().map(|&l| self.lit_expr(l));
                let first = it.next().expect("cube is not empty");
                it.fold(first, |acc, x| self.bin(BinOp::LogAnd, acc, x))
            })
            .collect();
        let mut it = conj.into_iter();
        let first = it.next()?;
        Some(it.fold(first, |acc, x| self.bin(BinOp::LogOr, acc, x)))
    }
}

/// Drops subsumed cubes (a cube that contains another says more, and the disjunction equals
/// the weaker one's), duplicates, and collapses more than [`MAX_CUBES`] into the atoms all
/// share.
fn normal(mut cubes: Vec<Cube>) -> Vec<Cube> {
    cubes.sort();
    cubes.dedup();
    let keep: Vec<Cube> = cubes
        .iter()
        .filter(|c| !cubes.iter().any(|d| d != *c && d.is_subset(c)))
        .cloned()
        .collect();
    if keep.len() <= MAX_CUBES {
        return keep;
    }
    let mut common = keep[0].clone();
    for c in &keep[1..] {
        common = common.intersection(c).copied().collect();
    }
    vec![common]
}
