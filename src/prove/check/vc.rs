//! Compiling checks into a sequential verification-condition program.
//!
//! The VC program is [`Templates::program`] with every variable made global (a VC program has
//! one thread: every instance's private variables become plain variables of it), a second
//! copy of every template's private variables (the interfering or created instance), and a
//! fresh `main`: `check := nondet; if (check == 0) goto B0; ...; halt`, each branch `Bk`
//! one [`Obligation`] ending in `halt`:
//!
//! 1. havoc: `nondet` of every variable the branch mentions (for initiation only `main`'s
//!    private variables: the globals keep the initialisers' values, the ghosts and lock owners
//!    zero), and of every variable whose address the VC program takes when the branch
//!    dereferences a pointer (a pointer read from a havocked variable may then designate it);
//! 2. the pre-invariants: a `PointsTo` fact assigns the pointer constructively
//!    (`p := pick ? &a : &b`) — symbolic execution resolves a dereference by the objects a
//!    pointer's assignments may give it, not by assumptions on its value — the first time the
//!    branch meets the variable, and is assumed (`p == &a || p == &b`) after that; `Holds(e)`
//!    is `assume(e)`. The `self` ghosts are assumed non-zero, two instances' distinct, and a
//!    created instance's different from every ghost's value (see [`Vc::fresh_self`]);
//! 3. the step (see [`Vc::effect`]);
//! 4. the post-invariant, asserted fact by fact (each assertion a property of the VC program,
//!    mapped back to its obligation).
//!
//! Mutexes are modelled by their owner ghosts ([`Templates::mutex_owners`]): a lock of a mutex
//! `m` is `assume(owner(m) == 0); owner(m) := self`, an unlock (and an initialisation)
//! `owner(m) := 0`, a trylock takes the lock when the owner is 0 and stores 0, else stores
//! EBUSY. That is exactly symbolic execution's model (a lock bit per mutex, read free and
//! written taken in one step; unlock writes it free), with the bit refined to the holder's
//! `self`: every execution of the program extends to one with owners, where the owner is
//! non-zero exactly when the bit is set. The operand is compared with the address of every
//! mutex global; an operand that designates none of them fails the check (an assertion of the
//! branch), so a lock the model does not cover is never assumed to succeed or to block.

use std::collections::{HashMap, HashSet};

use cranelift_entity::EntityRef;

use super::{invariant, Kind, Obligation};
use crate::ir::{
    BinOp, Body, Callee, Expr, ExprKind, FuncId, Function, Instr, InstrId, InstrKind, Loc,
    LoopInfo, Place, PlaceBase, Program, PropId, PropKind, Property, Type, TypeId, UnOp, VarId,
    VarKind,
};
use crate::prove::rename::{instr_vars, Renaming};
use crate::prove::{
    Certificate, Fact, GhostValue, Instances, Invariant, PtrTarget, TemplateId, Templates,
};

/// A compiled chunk of checks.
pub(super) struct Built {
    pub program: Program,
    pub main: FuncId,
    /// Each assertion's obligation (index in the chunk).
    pub props: HashMap<PropId, usize>,
    /// What a failed assertion means.
    pub reasons: HashMap<PropId, String>,
}

/// Whether main's location can run while other threads exist: reachable from the successor of
/// a creation in main's template. The others need no stability check and interfere with
/// nobody (the proof system's MHP rule).
pub(super) fn main_mhp(ts: &Templates) -> Vec<bool> {
    let body = &ts.templates[ts.main].body;
    let mut seen = vec![false; body.instrs.len()];
    let mut work: Vec<InstrId> = Vec::new();
    for (i, ins) in body.instrs.iter() {
        if matches!(ins.kind, InstrKind::ThreadCreate { .. }) {
            work.extend(body.successors(i));
        }
    }
    while let Some(i) = work.pop() {
        if std::mem::replace(&mut seen[i.index()], true) {
            continue;
        }
        work.extend(body.successors(i));
    }
    seen
}

/// The instructions of the atomic section that starts at `s` (an `AtomicBegin` at depth 0):
/// `s` and every location reachable from it through locations of positive depth.
pub(super) fn section(ts: &Templates, u: TemplateId, s: InstrId) -> Vec<InstrId> {
    let t = &ts.templates[u];
    let mut seen: HashSet<InstrId> = HashSet::new();
    let mut work = vec![s];
    seen.insert(s);
    while let Some(i) = work.pop() {
        for j in t.body.successors(i) {
            if t.atomic_depth[j] > 0 && seen.insert(j) {
                work.push(j);
            }
        }
    }
    let mut out: Vec<InstrId> = seen.into_iter().collect();
    out.sort();
    out
}

/// The variables a step may write, outside the executing instance's private ones; `None`
/// when it writes through a pointer (anything).
fn step_writes(
    ts: &Templates,
    cert: &Certificate,
    u: TemplateId,
    s: InstrId,
) -> Option<HashSet<VarId>> {
    let t = &ts.templates[u];
    let instrs = if matches!(t.body.instrs[s].kind, InstrKind::AtomicBegin) {
        section(ts, u, s)
    } else {
        vec![s]
    };
    let private: HashSet<VarId> = t.locals.iter().copied().collect();
    let mut out = HashSet::new();
    for i in instrs {
        let kind = &t.body.instrs[i].kind;
        // The variable a place writes, or `None` for a write through a pointer.
        let place = |p: &Place| match p.base {
            PlaceBase::Var(v) => Some(v),
            PlaceBase::Deref(_) => None,
        };
        let written: Option<Vec<VarId>> = match kind {
            InstrKind::Decl(v) => Some(vec![*v]),
            InstrKind::Assign { dst, .. }
            | InstrKind::Nondet { dst }
            | InstrKind::ThreadSelf { dst }
            | InstrKind::ThreadCreate { handle: dst, .. }
            | InstrKind::Alloc { dst: Some(dst), .. } => place(dst).map(|v| vec![v]),
            InstrKind::MutexTryLock { dst, .. } => {
                let mut w: Vec<VarId> = ts.mutex_owners.values().copied().collect();
                match dst.as_ref().map(place) {
                    Some(None) => None,
                    Some(Some(v)) => {
                        w.push(v);
                        Some(w)
                    }
                    None => Some(w),
                }
            }
            InstrKind::MutexInit(_)
            | InstrKind::MutexLock(_)
            | InstrKind::MutexUnlock(_)
            | InstrKind::CondWait { .. } => Some(ts.mutex_owners.values().copied().collect()),
            InstrKind::Memset { .. }
            | InstrKind::Memcpy { .. }
            | InstrKind::ThreadJoin {
                retval: Some(_), ..
            }
            | InstrKind::Call { .. } => None,
            _ => Some(vec![]),
        };
        out.extend(written?);
        for up in &cert.updates {
            if up.template == u && up.at == i {
                out.insert(up.ghost);
            }
        }
    }
    out.retain(|v| !private.contains(v));
    Some(out)
}

/// The variables an invariant reads.
fn reads(inv: &Invariant) -> HashSet<VarId> {
    let mut out = Vec::new();
    for f in &inv.facts {
        match f {
            Fact::Holds(e) => crate::prove::rename::expr_vars(e, &mut out),
            Fact::PointsTo { var, .. } => out.push(*var),
        }
    }
    out.into_iter().collect()
}

/// Every check of the certificate, and how many stability checks were left out because the
/// step writes nothing the invariant reads (see the module doc of `check`).
pub(super) fn obligations(ts: &Templates, cert: &Certificate) -> (Vec<Obligation>, usize) {
    let mhp = main_mhp(ts);
    let live = |t: TemplateId, l: InstrId| !invariant(cert, t, l).unreachable;
    let concurrent = |t: TemplateId, l: InstrId| t != ts.main || mhp[l.index()];
    let mut out = vec![Obligation {
        kind: Kind::Initiation,
        template: ts.main,
        at: InstrId::new(0),
        to: None,
        other: None,
    }];
    for (t, tpl) in ts.templates.iter() {
        for (l, ins) in tpl.body.instrs.iter() {
            if !live(t, l) {
                continue;
            }
            let mut succ = tpl.body.successors(l);
            succ.dedup();
            for to in succ {
                out.push(Obligation {
                    kind: Kind::Consecution,
                    template: t,
                    at: l,
                    to: Some(to),
                    other: None,
                });
            }
            match &ins.kind {
                InstrKind::ThreadCreate {
                    entry: Callee::Direct(g),
                    ..
                } => {
                    if let Some((u, _)) = ts.templates.iter().find(|(_, x)| x.entry == *g) {
                        out.push(Obligation {
                            kind: Kind::Creation,
                            template: u,
                            at: InstrId::new(0),
                            to: None,
                            other: Some((t, l)),
                        });
                    }
                }
                InstrKind::Assert { .. } => out.push(Obligation {
                    kind: Kind::Safety,
                    template: t,
                    at: l,
                    to: None,
                    other: None,
                }),
                _ => {}
            }
        }
    }
    // Stability: the steps first (each computed once), then every pair.
    let mut steps: Vec<(TemplateId, InstrId, Option<HashSet<VarId>>)> = Vec::new();
    for (u, tpl) in ts.templates.iter() {
        for s in tpl.body.instrs.keys() {
            if tpl.atomic_depth[s] == 0 && live(u, s) && concurrent(u, s) {
                let w = step_writes(ts, cert, u, s);
                if w.as_ref().is_some_and(|w| w.is_empty()) {
                    continue;
                }
                steps.push((u, s, w));
            }
        }
    }
    let mut skipped = 0;
    for (t, tpl) in ts.templates.iter() {
        for l in tpl.body.instrs.keys() {
            let inv = invariant(cert, t, l);
            if tpl.atomic_depth[l] > 0
                || inv.unreachable
                || inv.facts.is_empty()
                || !concurrent(t, l)
            {
                continue;
            }
            let r = reads(inv);
            for (u, s, w) in &steps {
                if *u == t && tpl.instances == Instances::One {
                    continue;
                }
                if w.as_ref().is_some_and(|w| w.is_disjoint(&r)) {
                    skipped += 1;
                    continue;
                }
                out.push(Obligation {
                    kind: Kind::Stability,
                    template: t,
                    at: l,
                    to: None,
                    other: Some((*u, *s)),
                });
            }
        }
    }
    (out, skipped)
}

/// Compiles `chunk` into a VC program.
pub(super) fn build(ts: &Templates, cert: &Certificate, chunk: &[Obligation]) -> Built {
    let mut prog = ts.program.clone();
    // One thread: every instance's private variable (thread-locals included) is a plain
    // global of the VC program.
    for v in prog.vars.values_mut() {
        if !v.is_global() {
            v.kind = VarKind::Global;
        }
        v.thread_local = false;
    }
    let int = prog.types.int32();
    let uint = prog.types.int(32, false);
    let mut second: HashMap<TemplateId, Renaming> = HashMap::new();
    for (t, tpl) in ts.templates.iter() {
        let mut ren = Renaming::default();
        for &v in &tpl.locals {
            let mut d = prog.vars[v].clone();
            d.name = format!("{}'", d.name);
            let nv = prog.vars.push(d);
            ren.0.insert(v, nv);
        }
        second.insert(t, ren);
    }
    let choice = new_global(&mut prog, "vc::check", int);
    let pick = new_global(&mut prog, "vc::pick", int);
    // Every variable a pointer may designate in the VC program.
    let mut addressed: HashSet<VarId> = prog
        .vars
        .iter()
        .filter(|(_, v)| v.address_taken)
        .map(|(id, _)| id)
        .collect();
    let mut taken = Vec::new();
    for tpl in ts.templates.values() {
        for i in tpl.body.instrs.values() {
            i.kind.walk_exprs(&mut |e| {
                if let ExprKind::AddrOf(p) = &e.kind {
                    if let PlaceBase::Var(v) = p.base {
                        taken.push(v);
                    }
                }
            });
        }
    }
    for per in cert.invariants.values() {
        for inv in per.values() {
            for f in &inv.facts {
                if let Fact::PointsTo { targets, .. } = f {
                    for tg in targets {
                        if let PtrTarget::Var(v) = tg {
                            taken.push(*v);
                        }
                    }
                }
            }
        }
    }
    for v in taken {
        addressed.insert(v);
        for ren in second.values() {
            addressed.insert(ren.var(v));
        }
    }
    let main_ty = prog.types.intern(Type::Func {
        ret: int,
        params: vec![],
        variadic: false,
    });
    let main = prog.funcs.push(Function {
        name: "vc::main".into(),
        ty: main_ty,
        ret: int,
        params: vec![],
        locals: vec![],
        body: None,
        atomic: false,
        loc: Loc::default(),
    });
    let mut vc = Vc {
        ts,
        cert,
        prog,
        main,
        int,
        uint,
        second,
        pick,
        addressed,
        props: HashMap::new(),
        reasons: HashMap::new(),
    };
    let mut code: Vec<Instr> = Vec::new();
    let mut loops: Vec<(usize, usize)> = Vec::new();
    let loc0 = Loc::default();
    code.push(Instr {
        kind: InstrKind::Nondet {
            dst: Place::var(choice, int),
        },
        loc: loc0,
    });
    let heads = chunk.len();
    for k in 0..heads {
        let cond = vc.cmp(BinOp::Eq, vc.var(choice), Expr::constant(k as u64, int));
        code.push(Instr {
            kind: InstrKind::Goto {
                target: InstrId::new(0),
                cond: Some(cond),
                back_edge: None,
            },
            loc: loc0,
        });
    }
    code.push(Instr {
        kind: InstrKind::Halt,
        loc: loc0,
    });
    for (k, o) in chunk.iter().enumerate() {
        let start = code.len();
        if let InstrKind::Goto { target, .. } = &mut code[1 + k].kind {
            *target = InstrId::new(start);
        }
        let branch = vc.branch(k, o);
        for (h, b) in branch.loops {
            loops.push((h + start, b + start));
        }
        for mut ins in branch.code {
            if let InstrKind::Goto { target, .. } = &mut ins.kind {
                *target = InstrId::new(target.index() + start);
            }
            code.push(ins);
        }
    }
    let mut body = Body::default();
    for ins in code {
        body.instrs.push(ins);
    }
    for (h, b) in loops {
        let lp = body.loops.push(LoopInfo {
            head: InstrId::new(h),
            back_edge: InstrId::new(b),
            loc: body.instrs[InstrId::new(b)].loc,
        });
        if let InstrKind::Goto { back_edge, .. } = &mut body.instrs[InstrId::new(b)].kind {
            *back_edge = Some(lp);
        }
    }
    vc.prog.funcs[main].body = Some(body);
    vc.prog.main = Some(main);
    Built {
        program: vc.prog,
        main,
        props: vc.props,
        reasons: vc.reasons,
    }
}

fn new_global(prog: &mut Program, name: &str, ty: TypeId) -> VarId {
    prog.vars.push(crate::ir::VarData {
        name: name.into(),
        source_name: name.into(),
        ty,
        kind: VarKind::Global,
        thread_local: false,
        address_taken: false,
        loc: Loc::default(),
    })
}

struct Vc<'a> {
    ts: &'a Templates,
    cert: &'a Certificate,
    prog: Program,
    main: FuncId,
    int: TypeId,
    uint: TypeId,
    /// Per template, its private variables to their second copies.
    second: HashMap<TemplateId, Renaming>,
    pick: VarId,
    addressed: HashSet<VarId>,
    props: HashMap<PropId, usize>,
    reasons: HashMap<PropId, String>,
}

/// One branch under construction; jump targets are indices into `code`.
#[derive(Default)]
struct Branch {
    code: Vec<Instr>,
    loops: Vec<(usize, usize)>,
    /// Pointer variables assigned constructively so far.
    built: HashSet<VarId>,
    loc: Loc,
}

impl Branch {
    fn emit(&mut self, kind: InstrKind) -> usize {
        self.code.push(Instr {
            kind,
            loc: self.loc,
        });
        self.code.len() - 1
    }
    fn goto(&mut self, cond: Option<Expr>) -> usize {
        self.emit(InstrKind::Goto {
            target: InstrId::new(0),
            cond,
            back_edge: None,
        })
    }
    fn patch(&mut self, at: usize, to: usize) {
        if let InstrKind::Goto { target, .. } = &mut self.code[at].kind {
            *target = InstrId::new(to);
        }
    }
    fn here(&self) -> usize {
        self.code.len()
    }
}

/// One instance taking part in a check: its template, renaming and `self`.
#[derive(Clone)]
struct Inst {
    t: TemplateId,
    ren: Renaming,
    self_id: VarId,
}

impl Vc<'_> {
    fn var(&self, v: VarId) -> Expr {
        Expr::read(Place::var(v, self.prog.vars[v].ty))
    }

    fn cmp(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty: self.int,
        }
    }

    fn cast(&self, e: Expr, ty: TypeId) -> Expr {
        if e.ty == ty {
            e
        } else {
            Expr {
                kind: ExprKind::Cast(Box::new(e)),
                ty,
            }
        }
    }

    fn not(&self, e: Expr) -> Expr {
        Expr {
            kind: ExprKind::Unary(UnOp::LogNot, Box::new(e)),
            ty: self.int,
        }
    }

    fn or(&self, a: Expr, b: Expr) -> Expr {
        self.cmp(BinOp::LogOr, a, b)
    }

    fn falsum(&self) -> Expr {
        Expr::constant(0, self.int)
    }

    /// The address a pointer target stands for, as a value of type `ty`.
    fn target(&mut self, t: &PtrTarget, ren: &Renaming, ty: TypeId) -> Expr {
        match t {
            PtrTarget::Null => Expr::constant(0, ty),
            PtrTarget::Var(v) => {
                let v = ren.var(*v);
                let vty = self.prog.vars[v].ty;
                let pty = self.prog.types.pointer(vty);
                let a = Expr {
                    kind: ExprKind::AddrOf(Box::new(Place::var(v, vty))),
                    ty: pty,
                };
                self.cast(a, ty)
            }
            PtrTarget::Func(f) => {
                let fty = self.prog.funcs[*f].ty;
                let pty = self.prog.types.pointer(fty);
                let a = Expr {
                    kind: ExprKind::FuncAddr(*f),
                    ty: pty,
                };
                self.cast(a, ty)
            }
        }
    }

    fn assert(&mut self, b: &mut Branch, cond: Expr, k: usize, reason: String) {
        let prop = self.prog.props.push(Property {
            kind: PropKind::Assert,
            loc: b.loc,
            func: self.main,
        });
        self.props.insert(prop, k);
        self.reasons.insert(prop, reason);
        b.emit(InstrKind::Assert { cond, prop });
    }

    /// Assumes the invariants (points-to facts assigned first, then every condition).
    fn establish(&mut self, b: &mut Branch, invs: &[(&Invariant, &Renaming)]) {
        for (inv, ren) in invs {
            if inv.unreachable {
                b.emit(InstrKind::Assume(self.falsum()));
            }
            for f in &inv.facts {
                if let Fact::PointsTo { var, targets } = f {
                    let v = ren.var(*var);
                    let ty = self.prog.vars[v].ty;
                    if b.built.insert(v) {
                        // v := t_last, then v := pick ? t_i : v for the others, each pick a
                        // fresh nondet.
                        let last = self.target(&targets[targets.len() - 1], ren, ty);
                        b.emit(InstrKind::Assign {
                            dst: Place::var(v, ty),
                            src: last,
                        });
                        for tg in targets[..targets.len() - 1].iter().rev() {
                            b.emit(InstrKind::Nondet {
                                dst: Place::var(self.pick, self.int),
                            });
                            let t = self.target(tg, ren, ty);
                            let value = Expr {
                                kind: ExprKind::Ite(
                                    Box::new(self.var(self.pick)),
                                    Box::new(t),
                                    Box::new(self.var(v)),
                                ),
                                ty,
                            };
                            b.emit(InstrKind::Assign {
                                dst: Place::var(v, ty),
                                src: value,
                            });
                        }
                    } else {
                        let m = self.member(v, targets, ren);
                        b.emit(InstrKind::Assume(m));
                    }
                }
            }
        }
        for (inv, ren) in invs {
            for f in &inv.facts {
                if let Fact::Holds(e) = f {
                    let c = ren.expr(e);
                    b.emit(InstrKind::Assume(c));
                }
            }
        }
    }

    /// `v == t0 || v == t1 || ...`.
    fn member(&mut self, v: VarId, targets: &[PtrTarget], ren: &Renaming) -> Expr {
        let ty = self.prog.vars[v].ty;
        let mut out: Option<Expr> = None;
        for tg in targets {
            let a = self.target(tg, ren, ty);
            let eq = self.cmp(BinOp::Eq, self.var(v), a);
            out = Some(match out {
                None => eq,
                Some(o) => self.or(o, eq),
            });
        }
        out.unwrap_or_else(|| self.falsum())
    }

    /// Asserts an invariant, fact by fact.
    fn require(&mut self, b: &mut Branch, inv: &Invariant, ren: &Renaming, k: usize, what: &str) {
        if inv.unreachable {
            let f = self.falsum();
            self.assert(b, f, k, format!("{what} is unreachable, but is reached"));
            return;
        }
        for (n, f) in inv.facts.iter().enumerate() {
            let cond = match f {
                Fact::Holds(e) => ren.expr(e),
                Fact::PointsTo { var, targets } => {
                    let v = ren.var(*var);
                    self.member(v, targets, ren)
                }
            };
            self.assert(b, cond, k, format!("fact {n} of {what} may not hold"));
        }
    }

    fn self_ok(&self, b: &mut Branch, insts: &[&Inst]) {
        for i in insts {
            let c = self.cmp(BinOp::Ne, self.var(i.self_id), Expr::constant(0, self.uint));
            b.emit(InstrKind::Assume(c));
        }
        for (n, a) in insts.iter().enumerate() {
            for c in &insts[n + 1..] {
                let d = self.cmp(BinOp::Ne, self.var(a.self_id), self.var(c.self_id));
                b.emit(InstrKind::Assume(d));
            }
        }
    }

    /// A created instance's `self` differs from the value of every mutex owner and of every
    /// ghost whose updates all assign `SelfId` or 0 (checked here, ghost by ghost; a ghost
    /// that is ever assigned another constant, such as a phase, is left out): by induction
    /// over an execution, each such ghost and owner holds 0 or the `self` of an instance
    /// created before (it starts at 0, and only the executing instance's `self` or 0 is ever
    /// assigned to it), and a fresh instance's `self` is non-zero and differs from every
    /// earlier instance's, finished ones included.
    fn fresh_self(&self, b: &mut Branch, new: &Inst) {
        let owner_like = |g: &VarId| {
            self.cert
                .updates
                .iter()
                .filter(|u| u.ghost == *g)
                .all(|u| matches!(u.value, GhostValue::SelfId | GhostValue::Const(0)))
        };
        let ghosts = self.cert.ghosts.iter().filter(|g| owner_like(g));
        for g in ghosts.chain(self.ts.mutex_owners.values()) {
            let d = self.cmp(BinOp::Ne, self.var(new.self_id), self.var(*g));
            b.emit(InstrKind::Assume(d));
        }
    }

    fn inst(&self, t: TemplateId, second: bool) -> Inst {
        let ren = if second {
            self.second[&t].clone()
        } else {
            Renaming::default()
        };
        let self_id = ren.var(self.ts.templates[t].self_id);
        Inst { t, ren, self_id }
    }

    fn what(&self, t: TemplateId, l: InstrId) -> String {
        let name = &self.ts.program.funcs[self.ts.templates[t].entry].name;
        format!("the invariant of {name} at location {}", l.index())
    }

    /// The branch of obligation `k`: havoc, then the check.
    fn branch(&mut self, k: usize, o: &Obligation) -> Branch {
        let ts = self.ts;
        let cert = self.cert;
        let tpl = &ts.templates[o.template];
        let mut b = Branch {
            loc: tpl.body.instrs.get(o.at).map_or(Loc::default(), |i| i.loc),
            ..Branch::default()
        };
        let me = self.inst(o.template, false);
        match o.kind {
            Kind::Initiation => {
                self.self_ok(&mut b, &[&me]);
                let inv = invariant(cert, o.template, o.at);
                let what = self.what(o.template, o.at);
                self.require(&mut b, inv, &me.ren, k, &what);
            }
            Kind::Safety => {
                let inv = invariant(cert, o.template, o.at);
                self.establish(&mut b, &[(inv, &me.ren)]);
                self.self_ok(&mut b, &[&me]);
                if let InstrKind::Assert { cond, .. } = &tpl.body.instrs[o.at].kind {
                    let at = ts.program.loc_str(b.loc);
                    self.assert(
                        &mut b,
                        cond.clone(),
                        k,
                        format!("the assertion at {at} may fail"),
                    );
                }
            }
            Kind::Consecution => {
                let to = o.to.expect("consecution has a successor");
                let inv = invariant(cert, o.template, o.at);
                self.establish(&mut b, &[(inv, &me.ren)]);
                self.self_ok(&mut b, &[&me]);
                let kind = tpl.body.instrs[o.at].kind.clone();
                if let InstrKind::Goto {
                    target,
                    cond: Some(c),
                    ..
                } = &kind
                {
                    let next = InstrId::new(o.at.index() + 1);
                    if *target == to && next != to {
                        b.emit(InstrKind::Assume(c.clone()));
                    } else if *target != to {
                        let n = self.not(c.clone());
                        b.emit(InstrKind::Assume(n));
                    }
                }
                self.effect(&mut b, &kind, &me, k);
                self.updates(&mut b, &me, o.at);
                let post = invariant(cert, o.template, to);
                let what = self.what(o.template, to);
                self.require(&mut b, post, &me.ren, k, &what);
            }
            Kind::Creation => {
                let (t, l) = o.other.expect("creation has a creator");
                let creator = self.inst(t, false);
                let new = self.inst(o.template, true);
                b.loc = ts.templates[t].body.instrs[l].loc;
                let inv = invariant(cert, t, l);
                self.establish(&mut b, &[(inv, &creator.ren)]);
                let kind = ts.templates[t].body.instrs[l].kind.clone();
                if ts.templates[t].atomic_depth[l] > 0 {
                    // The creator's section goes on before the new thread runs: its entry
                    // invariant would have to be stable against the rest of the section,
                    // which no check covers.
                    let f = self.falsum();
                    self.assert(
                        &mut b,
                        f,
                        k,
                        "a thread created inside an atomic section".into(),
                    );
                }
                self.effect(&mut b, &kind, &creator, k);
                self.updates(&mut b, &creator, l);
                self.self_ok(&mut b, &[&creator, &new]);
                self.fresh_self(&mut b, &new);
                if let (InstrKind::ThreadCreate { arg, .. }, Some(p)) =
                    (&kind, ts.templates[o.template].param)
                {
                    let p = new.ren.var(p);
                    let ty = self.prog.vars[p].ty;
                    let src = self.cast(arg.clone(), ty);
                    b.emit(InstrKind::Assign {
                        dst: Place::var(p, ty),
                        src,
                    });
                }
                let post = invariant(cert, o.template, o.at);
                let what = self.what(o.template, o.at);
                self.require(&mut b, post, &new.ren, k, &what);
            }
            Kind::Stability => {
                let (u, s) = o.other.expect("stability has a step");
                let other = self.inst(u, true);
                let inv = invariant(cert, o.template, o.at);
                let pre_u = invariant(cert, u, s);
                self.establish(&mut b, &[(inv, &me.ren), (pre_u, &other.ren)]);
                self.self_ok(&mut b, &[&me, &other]);
                let utpl = &ts.templates[u];
                let mut exits = Vec::new();
                if matches!(utpl.body.instrs[s].kind, InstrKind::AtomicBegin) {
                    self.section(&mut b, &other, s, k, &mut exits);
                } else {
                    let kind = other.ren.instr(&utpl.body.instrs[s].kind);
                    self.effect_renamed(&mut b, &kind, &other, k);
                    self.updates(&mut b, &other, s);
                }
                let x = b.here();
                for e in exits {
                    b.patch(e, x);
                }
                let what = self.what(o.template, o.at);
                self.require(&mut b, inv, &me.ren, k, &what);
            }
        }
        b.emit(InstrKind::Halt);
        self.havoc(b, o)
    }

    /// Prefixes the branch with the havoc of what it mentions.
    fn havoc(&mut self, b: Branch, o: &Obligation) -> Branch {
        let mut vars = Vec::new();
        let mut deref = false;
        for ins in &b.code {
            instr_vars(&ins.kind, &mut vars);
            deref |= dereferences(&ins.kind);
        }
        let mut set: Vec<VarId> = if o.kind == Kind::Initiation {
            let main: HashSet<VarId> = self.ts.templates[self.ts.main]
                .locals
                .iter()
                .copied()
                .collect();
            vars.into_iter().filter(|v| main.contains(v)).collect()
        } else {
            let mut v = vars;
            if deref {
                v.extend(self.addressed.iter().copied());
            }
            v
        };
        set.sort();
        set.dedup();
        let mut out = Branch {
            loc: b.loc,
            ..Branch::default()
        };
        for v in &set {
            let ty = self.prog.vars[*v].ty;
            out.emit(InstrKind::Nondet {
                dst: Place::var(*v, ty),
            });
        }
        let shift = out.code.len();
        for (h, e) in b.loops {
            out.loops.push((h + shift, e + shift));
        }
        for mut ins in b.code {
            if let InstrKind::Goto { target, .. } = &mut ins.kind {
                *target = InstrId::new(target.index() + shift);
            }
            out.code.push(ins);
        }
        out
    }

    fn updates(&mut self, b: &mut Branch, who: &Inst, at: InstrId) {
        for up in &self.cert.updates {
            if up.template == who.t && up.at == at {
                let ty = self.prog.vars[up.ghost].ty;
                let src = match up.value {
                    GhostValue::SelfId => self.cast(self.var(who.self_id), ty),
                    GhostValue::Const(c) => Expr::constant(c, ty),
                };
                b.emit(InstrKind::Assign {
                    dst: Place::var(up.ghost, ty),
                    src,
                });
            }
        }
    }

    /// The effect of one instruction of `who` (in its template's names).
    fn effect(&mut self, b: &mut Branch, kind: &InstrKind, who: &Inst, k: usize) {
        let kind = who.ren.instr(kind);
        self.effect_renamed(b, &kind, who, k);
    }

    /// The effect of one instruction already renamed to `who`'s copy. Jumps have none here
    /// (the caller assumes the edge); instructions without a successor have none.
    fn effect_renamed(&mut self, b: &mut Branch, kind: &InstrKind, who: &Inst, k: usize) {
        use InstrKind as K;
        match kind {
            K::Skip
            | K::Fence(_)
            | K::AtomicBegin
            | K::AtomicEnd
            // The lowering already replaced the approximated values by nondet ones.
            | K::Approximate(_)
            | K::MutexDestroy(_)
            | K::CondInit(_)
            | K::CondSignal(_)
            | K::CondBroadcast(_)
            | K::CondDestroy(_)
            | K::Free(_)
            | K::Goto { .. }
            | K::Return(_)
            | K::ThreadExit(_)
            | K::Halt
            | K::ThreadJoin { retval: None, .. } => {}
            K::Decl(v) => {
                let ty = self.prog.vars[*v].ty;
                b.emit(K::Nondet {
                    dst: Place::var(*v, ty),
                });
            }
            K::Assign { .. } | K::Nondet { .. } | K::Assume(_) | K::Alloc { .. } | K::Memset { .. } | K::Memcpy { .. } => {
                b.emit(kind.clone());
            }
            K::Assert { cond, .. } => {
                // Execution goes on only where the assertion holds (the safety check covers
                // where it does not).
                b.emit(K::Assume(cond.clone()));
            }
            K::ThreadCreate { handle, .. } => {
                b.emit(K::Nondet { dst: handle.clone() });
            }
            K::ThreadSelf { dst } => {
                b.emit(K::Nondet { dst: dst.clone() });
            }
            K::ThreadJoin {
                retval: Some(r), ..
            } => match self.prog.types.pointee(r.ty) {
                Some(pt) if self.prog.types.is_scalar(pt) => {
                    b.emit(K::Nondet {
                        dst: Place {
                            base: PlaceBase::Deref(Box::new(r.clone())),
                            projs: vec![],
                            ty: pt,
                        },
                    });
                }
                _ => {
                    let f = self.falsum();
                    self.assert(b, f, k, "a join's result pointer is not modelled".into());
                }
            },
            K::MutexInit(m) | K::MutexUnlock(m) => {
                let zero = Expr::constant(0, self.uint);
                self.dispatch(b, m, k, |_, b, owner| {
                    b.emit(K::Assign {
                        dst: owner,
                        src: zero.clone(),
                    });
                });
            }
            K::MutexLock(m) => {
                let me = self.cast(self.var(who.self_id), self.uint);
                let int = self.int;
                self.dispatch(b, m, k, |_, b, owner| {
                    let free = Expr {
                        kind: ExprKind::Binary(
                            BinOp::Eq,
                            Box::new(Expr::read(owner.clone())),
                            Box::new(Expr::constant(0, owner.ty)),
                        ),
                        ty: int,
                    };
                    b.emit(K::Assume(free));
                    b.emit(K::Assign {
                        dst: owner,
                        src: me.clone(),
                    });
                });
            }
            K::MutexTryLock { mutex, dst } => {
                let me = self.cast(self.var(who.self_id), self.uint);
                let int = self.int;
                let dst = dst.clone();
                self.dispatch(b, mutex, k, |_, b, owner| {
                    let free = Expr {
                        kind: ExprKind::Binary(
                            BinOp::Eq,
                            Box::new(Expr::read(owner.clone())),
                            Box::new(Expr::constant(0, owner.ty)),
                        ),
                        ty: int,
                    };
                    let to_free = b.goto(Some(free));
                    if let Some(d) = &dst {
                        b.emit(K::Assign {
                            dst: d.clone(),
                            src: Expr::constant(16, d.ty), // EBUSY
                        });
                    }
                    let to_end = b.goto(None);
                    let here = b.here();
                    b.patch(to_free, here);
                    b.emit(K::Assign {
                        dst: owner,
                        src: me.clone(),
                    });
                    if let Some(d) = &dst {
                        b.emit(K::Assign {
                            dst: d.clone(),
                            src: Expr::constant(0, d.ty),
                        });
                    }
                    let end = b.here();
                    b.patch(to_end, end);
                });
            }
            K::CondWait { .. } | K::Call { .. } => {
                let f = self.falsum();
                self.assert(b, f, k, "an instruction the checker does not model".into());
            }
        }
    }

    /// `if (m == &g1) { arm(owner(g1)) } else if ... else fail`, over every mutex global.
    fn dispatch(
        &mut self,
        b: &mut Branch,
        m: &Expr,
        k: usize,
        arm: impl Fn(&mut Self, &mut Branch, Place),
    ) {
        let owners: Vec<(VarId, VarId)> =
            self.ts.mutex_owners.iter().map(|(a, b)| (*a, *b)).collect();
        let mut jumps = Vec::new();
        for &(g, _) in &owners {
            let a = self.target(&PtrTarget::Var(g), &Renaming::default(), m.ty);
            let c = self.cmp(BinOp::Eq, m.clone(), a);
            jumps.push(b.goto(Some(c)));
        }
        let f = self.falsum();
        self.assert(
            b,
            f,
            k,
            "a mutex operation on no mutex the prover knows".into(),
        );
        let mut ends = Vec::new();
        for (&(_, owner), j) in owners.iter().zip(jumps) {
            let here = b.here();
            b.patch(j, here);
            let ty = self.prog.vars[owner].ty;
            arm(self, b, Place::var(owner, ty));
            ends.push(b.goto(None));
        }
        let end = b.here();
        for e in ends {
            b.patch(e, end);
        }
        b.emit(InstrKind::Skip);
    }

    /// A whole atomic section of `who` from `s`, and every prefix of it that stops before an
    /// instruction that can block; `exits` collects the jumps to where the section is over.
    fn section(
        &mut self,
        b: &mut Branch,
        who: &Inst,
        s: InstrId,
        k: usize,
        exits: &mut Vec<usize>,
    ) {
        let region = section(self.ts, who.t, s);
        let tpl = &self.ts.templates[who.t];
        let inside: HashSet<InstrId> = region.iter().copied().collect();
        let mut label: HashMap<InstrId, usize> = HashMap::new();
        let mut forward: Vec<(usize, InstrId)> = Vec::new();
        let jump_to = |b: &mut Branch,
                       label: &HashMap<InstrId, usize>,
                       forward: &mut Vec<(usize, InstrId)>,
                       exits: &mut Vec<usize>,
                       cond: Option<Expr>,
                       to: InstrId| {
            let at = b.goto(cond);
            if !inside.contains(&to) || tpl.atomic_depth[to] == 0 {
                exits.push(at);
            } else if let Some(&h) = label.get(&to) {
                b.patch(at, h);
                b.loops.push((h, at));
            } else {
                forward.push((at, to));
            }
        };
        for (n, &i) in region.iter().enumerate() {
            label.insert(i, b.here());
            let kind = who.ren.instr(&tpl.body.instrs[i].kind);
            if matches!(
                kind,
                InstrKind::Assume(_) | InstrKind::MutexLock(_) | InstrKind::ThreadJoin { .. }
            ) {
                b.emit(InstrKind::Nondet {
                    dst: Place::var(self.pick, self.int),
                });
                let c = self.var(self.pick);
                exits.push(b.goto(Some(c)));
            }
            let next = InstrId::new(i.index() + 1);
            match &kind {
                InstrKind::Goto { target, cond, .. } => {
                    self.updates(b, who, i);
                    jump_to(b, &label, &mut forward, exits, cond.clone(), *target);
                    if cond.is_some() {
                        jump_to(b, &label, &mut forward, exits, None, next);
                    }
                }
                InstrKind::Halt | InstrKind::Return(_) | InstrKind::ThreadExit(_) => {
                    b.emit(InstrKind::Halt);
                }
                _ => {
                    self.effect_renamed(b, &kind, who, k);
                    self.updates(b, who, i);
                    let falls = region.get(n + 1) == Some(&next);
                    if !falls {
                        jump_to(b, &label, &mut forward, exits, None, next);
                    }
                }
            }
        }
        for (at, to) in forward {
            b.patch(at, label[&to]);
        }
    }
}

/// Whether an instruction accesses memory through a pointer.
fn dereferences(kind: &InstrKind) -> bool {
    let mut found = false;
    kind.walk_exprs(&mut |e| {
        if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &e.kind {
            if matches!(p.base, PlaceBase::Deref(_)) {
                found = true;
            }
        }
    });
    let place = |p: &Place| matches!(p.base, PlaceBase::Deref(_));
    found
        || match kind {
            InstrKind::Assign { dst, .. } | InstrKind::Nondet { dst } => place(dst),
            InstrKind::Memset { .. }
            | InstrKind::Memcpy { .. }
            | InstrKind::Alloc { .. }
            | InstrKind::ThreadJoin {
                retval: Some(_), ..
            } => true,
            _ => false,
        }
}
