//! Points-to analysis: which abstract objects every pointer value may designate.
//!
//! Inclusion-based (Andersen), flow-insensitive, context-insensitive and field-insensitive: one
//! set per thread-private variable, one per object (the pointers stored anywhere in it), one per
//! function result, one for every thread's result. Every value is treated as a possible
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
    Callee, Expr, ExprKind, FuncId, InstrKind, Place, PlaceBase, Program, UnOp, VarId, VarKind,
};

use super::AbsObj;

/// A set of abstract objects.
pub type ObjSet = BTreeSet<AbsObj>;

/// The points-to sets of a program.
#[derive(Clone, Debug, Default)]
pub struct PointsTo {
    /// Thread-private variables (temporaries, locals whose address is not taken,
    /// thread-local globals).
    vars: BTreeMap<VarId, ObjSet>,
    /// The pointers stored in each object.
    content: BTreeMap<AbsObj, ObjSet>,
    /// What each function returns.
    ret: BTreeMap<FuncId, ObjSet>,
    /// What any thread returns or passes to `pthread_exit` (what `pthread_join` stores).
    thread_results: ObjSet,
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
            let before = pt.size();
            let funcs: Vec<FuncId> = pt.reachable.iter().copied().collect();
            for f in funcs {
                pt.function(prog, f);
            }
            if pt.size() == before {
                return pt;
            }
        }
    }

    /// A measure that grows with every change (sets only grow).
    fn size(&self) -> usize {
        self.vars.values().map(BTreeSet::len).sum::<usize>()
            + self.content.values().map(BTreeSet::len).sum::<usize>()
            + self.ret.values().map(BTreeSet::len).sum::<usize>()
            + self.thread_results.len()
            + self.reachable.len()
            + self.thread_entries.len()
    }

    /// The objects `e` may point to.
    pub fn expr(&self, prog: &Program, e: &Expr) -> ObjSet {
        let mut out = ObjSet::new();
        self.expr_into(prog, e, &mut out);
        out
    }

    fn expr_into(&self, prog: &Program, e: &Expr, out: &mut ObjSet) {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::PtrDiff(..) | ExprKind::Unary(UnOp::LogNot, _) => {}
            ExprKind::Binary(op, _, _) if op.is_comparison() => {}
            // Floating-point values carry no pointer.
            ExprKind::Float(..) => {}
            ExprKind::Read(p) => self.load_into(prog, p, out),
            ExprKind::AddrOf(p) => self.base_into(prog, p, out),
            ExprKind::FuncAddr(f) => {
                out.insert(AbsObj::Func(*f));
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.expr_into(prog, a, out),
            // A pointer survives arithmetic: adding an integer, masking, xor-ing in an offset.
            ExprKind::Binary(_, a, b) | ExprKind::PtrAdd(a, b) | ExprKind::Ite(_, a, b) => {
                self.expr_into(prog, a, out);
                self.expr_into(prog, b, out);
            }
        }
    }

    /// The objects a place may lie in.
    pub fn place_objects(&self, prog: &Program, p: &Place) -> ObjSet {
        let mut out = ObjSet::new();
        self.base_into(prog, p, &mut out);
        out
    }

    fn base_into(&self, prog: &Program, p: &Place, out: &mut ObjSet) {
        match &p.base {
            PlaceBase::Var(v) if prog.vars[*v].in_memory() => {
                out.insert(var_object(prog, *v));
            }
            PlaceBase::Var(_) => {}
            PlaceBase::Deref(e) => self.expr_into(prog, e, out),
        }
    }

    /// The pointers a place may hold.
    fn load_into(&self, prog: &Program, p: &Place, out: &mut ObjSet) {
        match &p.base {
            PlaceBase::Var(v) if !prog.vars[*v].in_memory() => {
                if let Some(s) = self.vars.get(v) {
                    out.extend(s.iter().copied());
                }
            }
            _ => {
                for o in self.place_objects(prog, p) {
                    if let Some(s) = self.content.get(&o) {
                        out.extend(s.iter().copied());
                    }
                }
            }
        }
    }

    /// The pointers stored in an object.
    pub fn content(&self, o: AbsObj) -> impl Iterator<Item = AbsObj> + '_ {
        self.content.get(&o).into_iter().flatten().copied()
    }

    /// The objects that may hold a pointer to `target`.
    pub fn holders(&self, target: AbsObj) -> impl Iterator<Item = AbsObj> + '_ {
        self.content
            .iter()
            .filter(move |(_, set)| set.contains(&target))
            .map(|(&o, _)| o)
    }

    /// What `pthread_join` may store: any thread's result.
    pub fn thread_results(&self) -> &ObjSet {
        &self.thread_results
    }

    fn store(&mut self, prog: &Program, p: &Place, set: &ObjSet) {
        if set.is_empty() {
            return;
        }
        match &p.base {
            PlaceBase::Var(v) if !prog.vars[*v].in_memory() => {
                self.vars.entry(*v).or_default().extend(set.iter().copied());
            }
            _ => {
                for o in self.place_objects(prog, p) {
                    self.content
                        .entry(o)
                        .or_default()
                        .extend(set.iter().copied());
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
    fn bind_params(&mut self, prog: &Program, g: FuncId, args: &[ObjSet]) {
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
                    let s = self.expr(prog, src);
                    self.store(prog, dst, &s);
                }
                InstrKind::Call { dst, callee, args } => {
                    let vals: Vec<ObjSet> = args.iter().map(|a| self.expr(prog, a)).collect();
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
                    let s = self.expr(prog, e);
                    self.ret.entry(f).or_default().extend(s);
                }
                InstrKind::ThreadCreate { entry, arg, .. } => {
                    let a = self.expr(prog, arg);
                    for g in self.callees(prog, entry) {
                        self.reachable.insert(g);
                        self.thread_entries.insert(g);
                        if prog.funcs[g].body.is_none() {
                            continue;
                        }
                        self.bind_params(prog, g, std::slice::from_ref(&a));
                        let r = self.ret.get(&g).cloned().unwrap_or_default();
                        self.thread_results.extend(r);
                    }
                }
                InstrKind::ThreadExit(e) => {
                    let s = self.expr(prog, e);
                    self.thread_results.extend(s);
                }
                InstrKind::ThreadJoin {
                    retval: Some(rp), ..
                } => {
                    let results = self.thread_results.clone();
                    for o in self.expr(prog, rp) {
                        self.content
                            .entry(o)
                            .or_default()
                            .extend(results.iter().copied());
                    }
                }
                InstrKind::Alloc {
                    dst: Some(d), site, ..
                } => {
                    let s = ObjSet::from([AbsObj::Heap(*site)]);
                    self.store(prog, d, &s);
                }
                InstrKind::Memcpy { dst, src, .. } => {
                    let mut copied = ObjSet::new();
                    for o in self.expr(prog, src) {
                        copied.extend(self.content(o));
                    }
                    for o in self.expr(prog, dst) {
                        self.content
                            .entry(o)
                            .or_default()
                            .extend(copied.iter().copied());
                    }
                }
                _ => {}
            }
        }
    }
}
