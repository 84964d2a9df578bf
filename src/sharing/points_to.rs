//! Points-to analysis: which abstract objects every pointer value may designate.
//!
//! Inclusion-based (Andersen), flow-insensitive, context-insensitive and field-insensitive: one
//! set per thread-private variable, one per object (the pointers stored anywhere in it), one per
//! function result, one for every thread's result. Each object of a set comes with the byte
//! offsets the pointer may have inside it ([`Offs`], see `offsets` for the domain and why a
//! missed offset costs no verdict): a constant or a multiple of an element size added to a
//! pointer moves them, any other arithmetic makes them any offset. Every value is treated as a possible
//! pointer; arithmetic keeps the objects of its operands (pointer arithmetic stays in its
//! object), comparisons and pointer differences designate nothing. The call graph is built on
//! the fly: an indirect call or thread creation reaches every function its pointer may name.
//!
//! What designates nothing: constants, `nondet` values, fresh (uninitialised) values and results
//! of functions without a body — the IR's policy for those is that they point to no known
//! object, so a dereference of one is an invalid access (reported as unsupported), never an
//! access of some object. Symbolic execution relies on exactly that: it takes as candidates of
//! a computed pointer only the objects of its points-to set and reports every other value as an
//! invalid access, which keeps it sound whatever this analysis misses.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{
    BinOp, Callee, Expr, ExprKind, FuncId, InstrKind, Place, PlaceBase, Program, Proj, UnOp, VarId,
    VarKind,
};

use super::offsets::{Offs, Step};
use super::AbsObj;

/// A set of abstract objects.
pub type ObjSet = BTreeSet<AbsObj>;

/// Abstract objects with the offsets a pointer may have in each.
pub type Pts = BTreeMap<AbsObj, Offs>;

/// Adds `more` to `into`; whether that changed it.
fn join_into(into: &mut Pts, more: &Pts) -> bool {
    let mut changed = false;
    for (&o, off) in more {
        match into.get_mut(&o) {
            Some(cur) => {
                let j = cur.join(off);
                if j != *cur {
                    *cur = j;
                    changed = true;
                }
            }
            None => {
                into.insert(o, off.clone());
                changed = true;
            }
        }
    }
    changed
}

/// Every object of `p` at any offset.
fn any_offset(p: Pts) -> Pts {
    p.into_keys().map(|o| (o, Offs::Any)).collect()
}

/// The points-to sets of a program.
#[derive(Clone, Debug, Default)]
pub struct PointsTo {
    /// Thread-private variables (temporaries, locals whose address is not taken,
    /// thread-local globals).
    vars: BTreeMap<VarId, Pts>,
    /// The pointers stored in each object.
    content: BTreeMap<AbsObj, Pts>,
    /// What each function returns.
    ret: BTreeMap<FuncId, Pts>,
    /// What any thread returns or passes to `pthread_exit` (what `pthread_join` stores).
    thread_results: Pts,
    /// Whether the pass under way added anything.
    changed: bool,
    /// Functions reachable from `init`, `tls_init` and `main`.
    pub reachable: BTreeSet<FuncId>,
    /// Functions that run as threads (`pthread_create` entries).
    pub thread_entries: BTreeSet<FuncId>,
}

/// The abstract object of a variable that lives in memory.
pub fn var_object(prog: &Program, v: VarId) -> AbsObj {
    match prog.vars[v].kind {
        VarKind::Global | VarKind::StaticLocal(_) => AbsObj::Global(v),
        _ => AbsObj::Local(v),
    }
}

impl PointsTo {
    /// Runs the analysis to its fixed point.
    pub fn analyse(prog: &Program) -> PointsTo {
        let mut pt = PointsTo::default();
        let mut roots = vec![prog.init, prog.tls_init];
        roots.extend(prog.main);
        pt.reachable.extend(roots);
        loop {
            pt.changed = false;
            let (objs, funcs) = (pt.reachable.len(), pt.thread_entries.len());
            let list: Vec<FuncId> = pt.reachable.iter().copied().collect();
            for f in list {
                pt.function(prog, f);
            }
            if !pt.changed && objs == pt.reachable.len() && funcs == pt.thread_entries.len() {
                return pt;
            }
        }
    }

    /// The objects `e` may point to.
    pub fn expr(&self, prog: &Program, e: &Expr) -> ObjSet {
        self.expr_offsets(prog, e).into_keys().collect()
    }

    /// The objects `e` may point to, with the offsets it may have in each.
    pub fn expr_offsets(&self, prog: &Program, e: &Expr) -> Pts {
        let mut out = Pts::new();
        self.expr_into(prog, e, &mut out);
        out
    }

    fn expr_into(&self, prog: &Program, e: &Expr, out: &mut Pts) {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::PtrDiff(..) | ExprKind::Unary(UnOp::LogNot, _) => {}
            ExprKind::Binary(op, _, _) if op.is_comparison() => {}
            // Floating-point values carry no pointer.
            ExprKind::Float(..) => {}
            ExprKind::Read(p) => self.load_into(prog, p, out),
            ExprKind::AddrOf(p) => {
                join_into(out, &self.address_offsets(prog, p));
            }
            ExprKind::FuncAddr(f) => {
                join_into(out, &Pts::from([(AbsObj::Func(*f), Offs::zero())]));
            }
            // A conversion keeps the pointer (and, between pointer types, its offsets).
            ExprKind::Cast(a) => {
                let inner = self.expr_offsets(prog, a);
                let keep = prog.types.is_pointer(e.ty) && prog.types.is_pointer(a.ty);
                join_into(out, &if keep { inner } else { any_offset(inner) });
            }
            ExprKind::Ite(_, a, b) => {
                self.expr_into(prog, a, out);
                self.expr_into(prog, b, out);
            }
            ExprKind::PtrAdd(a, b) => {
                let step = step_of(b);
                let moved: Pts = self
                    .expr_offsets(prog, a)
                    .into_iter()
                    .map(|(o, off)| (o, off.add(step)))
                    .collect();
                join_into(out, &moved);
                join_into(out, &any_offset(self.expr_offsets(prog, b)));
            }
            // A pointer survives arithmetic: adding an integer, masking, xor-ing in an offset
            // (at an offset no longer known).
            ExprKind::Unary(_, a) => {
                join_into(out, &any_offset(self.expr_offsets(prog, a)));
            }
            ExprKind::Binary(_, a, b) => {
                join_into(out, &any_offset(self.expr_offsets(prog, a)));
                join_into(out, &any_offset(self.expr_offsets(prog, b)));
            }
        }
    }

    /// The objects a place may lie in.
    pub fn place_objects(&self, prog: &Program, p: &Place) -> ObjSet {
        self.base_offsets(prog, p).into_keys().collect()
    }

    /// The objects a place's base may lie in, with the base's offsets.
    fn base_offsets(&self, prog: &Program, p: &Place) -> Pts {
        match &p.base {
            PlaceBase::Var(v) if prog.vars[*v].in_memory() => {
                Pts::from([(var_object(prog, *v), Offs::zero())])
            }
            PlaceBase::Var(_) => Pts::new(),
            PlaceBase::Deref(e) => self.expr_offsets(prog, e),
        }
    }

    /// The objects a place may lie in, with the offsets of its start in each (its base's
    /// moved by its projections).
    pub fn address_offsets(&self, prog: &Program, p: &Place) -> Pts {
        let mut out = self.base_offsets(prog, p);
        for proj in &p.projs {
            let step = match proj {
                Proj::Field { offset, .. } => Step::Const(*offset as i64),
                Proj::Index { index, elem_size } => match index.as_const() {
                    Some(k) => Step::Const((k as i64).wrapping_mul(*elem_size as i64)),
                    None => Step::Multiple(*elem_size as i64),
                },
            };
            for off in out.values_mut() {
                *off = off.add(step);
            }
        }
        out
    }

    /// The pointers a place may hold.
    fn load_into(&self, prog: &Program, p: &Place, out: &mut Pts) {
        match &p.base {
            PlaceBase::Var(v) if !prog.vars[*v].in_memory() => {
                if let Some(s) = self.vars.get(v) {
                    join_into(out, s);
                }
            }
            _ => {
                for o in self.place_objects(prog, p) {
                    if let Some(s) = self.content.get(&o) {
                        join_into(out, s);
                    }
                }
            }
        }
    }

    /// The pointers stored in an object.
    pub fn content(&self, o: AbsObj) -> impl Iterator<Item = AbsObj> + '_ {
        self.content
            .get(&o)
            .into_iter()
            .flat_map(|m| m.keys())
            .copied()
    }

    /// The objects that may hold a pointer to `target`.
    pub fn holders(&self, target: AbsObj) -> impl Iterator<Item = AbsObj> + '_ {
        self.content
            .iter()
            .filter(move |(_, set)| set.contains_key(&target))
            .map(|(&o, _)| o)
    }

    /// What `pthread_join` may store: any thread's result.
    pub fn thread_results(&self) -> ObjSet {
        self.thread_results.keys().copied().collect()
    }

    /// Adds `set` to what the object(s) of place `p` hold.
    fn store(&mut self, prog: &Program, p: &Place, set: &Pts) {
        if set.is_empty() {
            return;
        }
        match &p.base {
            PlaceBase::Var(v) if !prog.vars[*v].in_memory() => {
                self.changed |= join_into(self.vars.entry(*v).or_default(), set);
            }
            _ => {
                for o in self.place_objects(prog, p) {
                    self.changed |= join_into(self.content.entry(o).or_default(), set);
                }
            }
        }
    }

    /// The functions a callee may be (with a body or not).
    pub fn callees(&self, prog: &Program, c: &Callee) -> Vec<FuncId> {
        match c {
            Callee::Direct(f) => vec![*f],
            Callee::Indirect(e) => self
                .expr(prog, e)
                .into_iter()
                .filter_map(|o| match o {
                    AbsObj::Func(f) => Some(f),
                    _ => None,
                })
                .collect(),
        }
    }

    /// Passes `args` to `g`'s parameters.
    fn bind_params(&mut self, prog: &Program, g: FuncId, args: &[Pts]) {
        let params = prog.funcs[g].params.clone();
        for (p, a) in params.iter().zip(args) {
            let place = Place::var(*p, prog.vars[*p].ty);
            self.store(prog, &place, a);
        }
    }

    /// One pass over the instructions of `f`.
    fn function(&mut self, prog: &Program, f: FuncId) {
        let Some(body) = &prog.funcs[f].body else {
            return;
        };
        for ins in body.instrs.values() {
            match &ins.kind {
                InstrKind::Assign { dst, src } => {
                    let s = self.expr_offsets(prog, src);
                    self.store(prog, dst, &s);
                }
                InstrKind::Call { dst, callee, args } => {
                    let vals: Vec<Pts> = args.iter().map(|a| self.expr_offsets(prog, a)).collect();
                    for g in self.callees(prog, callee) {
                        self.reachable.insert(g);
                        if prog.funcs[g].body.is_none() {
                            continue;
                        }
                        self.bind_params(prog, g, &vals);
                        if let Some(d) = dst {
                            let r = self.ret.get(&g).cloned().unwrap_or_default();
                            self.store(prog, d, &r);
                        }
                    }
                }
                InstrKind::Return(Some(e)) => {
                    let s = self.expr_offsets(prog, e);
                    self.changed |= join_into(self.ret.entry(f).or_default(), &s);
                }
                InstrKind::ThreadCreate { entry, arg, .. } => {
                    let a = self.expr_offsets(prog, arg);
                    for g in self.callees(prog, entry) {
                        self.reachable.insert(g);
                        self.thread_entries.insert(g);
                        if prog.funcs[g].body.is_none() {
                            continue;
                        }
                        self.bind_params(prog, g, std::slice::from_ref(&a));
                        let r = self.ret.get(&g).cloned().unwrap_or_default();
                        self.changed |= join_into(&mut self.thread_results, &r);
                    }
                }
                InstrKind::ThreadExit(e) => {
                    let s = self.expr_offsets(prog, e);
                    self.changed |= join_into(&mut self.thread_results, &s);
                }
                InstrKind::ThreadJoin {
                    retval: Some(rp), ..
                } => {
                    let results = self.thread_results.clone();
                    for o in self.expr(prog, rp) {
                        self.changed |= join_into(self.content.entry(o).or_default(), &results);
                    }
                }
                InstrKind::Alloc {
                    dst: Some(d), site, ..
                } => {
                    let s = Pts::from([(AbsObj::Heap(*site), Offs::zero())]);
                    self.store(prog, d, &s);
                }
                InstrKind::Memcpy { dst, src, .. } => {
                    let mut copied = Pts::new();
                    for o in self.expr(prog, src) {
                        if let Some(c) = self.content.get(&o) {
                            join_into(&mut copied, c);
                        }
                    }
                    for o in self.expr(prog, dst) {
                        self.changed |= join_into(self.content.entry(o).or_default(), &copied);
                    }
                }
                _ => {}
            }
        }
    }
}

/// What a pointer addition's byte offset (pointer width, signed, element size multiplied in)
/// adds: a constant, or a multiple of a constant whose factor is not known (a negated multiple
/// is one too).
fn step_of(b: &Expr) -> Step {
    let konst = |e: &Expr| e.as_const().map(|k| k as i64);
    match &b.kind {
        ExprKind::Const(k) => Step::Const(*k as i64),
        ExprKind::Binary(BinOp::Mul, x, y) => match konst(y).or_else(|| konst(x)) {
            Some(s) if s != 0 => Step::Multiple(s),
            Some(_) => Step::Const(0),
            None => Step::Multiple(1),
        },
        ExprKind::Unary(UnOp::Neg, x) => match step_of(x) {
            Step::Const(k) => Step::Const(k.wrapping_neg()),
            m => m,
        },
        _ => Step::Multiple(1),
    }
}
