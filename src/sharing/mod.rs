//! The sharing pass: before symbolic execution runs, which memory objects exist, what every
//! pointer may designate, and which objects more than one thread may access.
//!
//! Objects are abstract: a global, a function whose address is taken, an allocation site, an
//! address-taken local (one abstract object stands for all its instances). Threads are abstract
//! too ([`roles`]): `main` and each thread entry function, with all their instances. An object
//! is *private* when at most one thread instance can ever access it; its accesses then stay on
//! that thread's path instead of becoming events of the equation. That holds when
//! - no mutex or condition operation names it (lock cells keep their events), and
//! - either it is a global (one object for the program) whose accessing roles (by name, or
//!   through a pointer whose points-to set holds it) are one role with one instance,
//! - or it is made per instance (heap, local: each allocation or call frame makes its own)
//!   and no pointer to it can reach another thread instance (through a shared object's
//!   content, a thread's argument or its result), however many roles run code that accesses
//!   it.
//!
//! Why the second case holds for several roles as for several instances of one: an instance
//! is made by one thread (its allocation or its call frame runs there). Another thread can
//! reach that instance only through a pointer to it, never by name (a name in its code
//! designates its own frames' instances), and a pointer crosses threads only through memory
//! both access (a shared object's content), the thread argument or the result a join
//! returns; the fixed point below makes every instance such a pointer may designate
//! shared. So a helper function that `main` and a thread both call (workstealqueue's
//! `readV`, whose address-taken local `expected` the atomic compare-and-swap writes) keeps
//! its locals on each thread's path: on workstealqueue_mutex-2 at unwind 9 the equation
//! falls from 887 events to 667, and the SAT conflicts from 28,843 to 26,691.
//!
//! Soundness: every step over-approximates (points-to sets, role code, instance counts), so
//! a private verdict is never given to an object two thread instances access in a bounded
//! execution; when the pass cannot resolve a pointer it designates no object, and symbolic
//! execution reports a dereference of it as an invalid access (unsupported), never as an access
//! the pass did not see. Symbolic execution still checks every private object's accesses at
//! run time and records any thread other than the first one touching it as a fact this pass
//! did not predict (`SymexOutput::unpredicted`, which the tests require to stay empty).

mod addresses;
pub mod guards;
mod offsets;
mod points_to;
mod roles;

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{AllocSite, Expr, FuncId, InstrKind, Place, PlaceBase, Program, VarId};

pub use offsets::Offs;
pub use points_to::{var_object, ObjSet, PointsTo, Pts};
pub use roles::{Count, Role, Roles};

/// An abstract memory object.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AbsObj {
    /// A global or static local (one instance).
    Global(VarId),
    /// A function whose address is taken (one instance, no data).
    Func(FuncId),
    /// The objects `malloc` makes at one site (one per execution of the site).
    Heap(AllocSite),
    /// An address-taken local or parameter (one per call frame).
    Local(VarId),
}

impl AbsObj {
    /// One object for the whole program (globals, functions), rather than one per execution.
    pub fn is_single(self) -> bool {
        matches!(self, AbsObj::Global(_) | AbsObj::Func(_))
    }
}

/// What the pass found.
#[derive(Clone, Debug, Default)]
pub struct Sharing {
    pub points_to: PointsTo,
    pub roles: Roles,
    /// Every object reachable code accesses or takes the address of.
    objects: BTreeSet<AbsObj>,
    /// Objects more than one thread instance may access.
    shared: BTreeSet<AbsObj>,
    /// Per-instance objects whose instances roles other than `main` may make: a thread that
    /// symbolic execution runs earlier may designate an instance made later.
    made_late: BTreeSet<AbsObj>,
    /// Whether a `free` counts as an access of the object it frees ([`Sharing::analyse_with`]).
    frees_access: bool,
    /// Objects the code of a role other than `main` may write (see [`Sharing::only_main_writes`]).
    thread_written: BTreeSet<AbsObj>,
    /// Per-instance objects whose address some use may observe ([`addresses`]).
    observed: BTreeSet<AbsObj>,
}

impl Sharing {
    /// Runs the pass over `prog`.
    pub fn analyse(prog: &Program) -> Sharing {
        Sharing::analyse_with(prog, false)
    }

    /// Runs the pass over `prog`; with `frees_access`, a `free` is an access of the objects
    /// its pointer may designate (no-data-race, where symbolic execution makes it a write of
    /// the object: an object one thread uses and another frees is then shared). Without it
    /// (the other properties) a free is no access: symbolic execution has no event of a free
    /// of a cell under them, and valid-memsafety's liveness flags are shared locations of
    /// their own.
    pub fn analyse_with(prog: &Program, frees_access: bool) -> Sharing {
        let points_to = PointsTo::analyse(prog);
        let roles = Roles::compute(prog, &points_to);
        let mut s = Sharing {
            points_to,
            roles,
            frees_access,
            ..Sharing::default()
        };
        s.classify(prog);
        s.observed = addresses::observed(prog, &s.points_to);
        s
    }

    /// Whether `o` is an object the program may access (or designate).
    pub fn exists(&self, o: AbsObj) -> bool {
        self.objects.contains(&o)
    }

    /// Whether more than one thread instance may access `o`.
    pub fn is_shared(&self, o: AbsObj) -> bool {
        self.shared.contains(&o)
    }

    /// Whether a use may observe the address of an instance of `o` (its object number) rather
    /// than only access through it: a comparison, an integer conversion, a condition, a
    /// thread or mutex operation ([`addresses`]'s doc lists the uses that do not). Always
    /// true of an object the pass does not know.
    pub fn address_observed(&self, o: AbsObj) -> bool {
        !self.objects.contains(&o) || self.observed.contains(&o)
    }

    /// Whether an instance of `o` may be made by a thread that symbolic execution runs after
    /// the one dereferencing a pointer to it.
    pub fn made_late(&self, o: AbsObj) -> bool {
        self.made_late.contains(&o)
    }

    /// Whether no thread but the one instance of `main` may write `o` (nor make instances of
    /// it): the code of every other role (each function it may run, through calls direct or
    /// through pointers) writes no place, parameter, declared local, `memset`/`memcpy`
    /// destination, join result, allocation or freed object the points-to sets let designate
    /// `o`. Over-approximate like the rest of the pass: an object written through a pointer the
    /// pass cannot resolve is an invalid access symbolic execution reports (unsupported), not
    /// a write this misses. Symbolic execution uses it to read such a cell in a thread `main`
    /// created by the value `main` left in it ([`crate::symex`]'s `main_value`).
    pub fn only_main_writes(&self, o: AbsObj) -> bool {
        let main_once = self
            .roles
            .roles
            .first()
            .is_some_and(|r| r.instances == Count::ONE);
        main_once && !self.thread_written.contains(&o) && !self.made_late.contains(&o)
    }

    /// The objects `e` may point to.
    pub fn pointees(&self, prog: &Program, e: &Expr) -> ObjSet {
        self.points_to.expr(prog, e)
    }

    /// The objects one instruction may write (or make, or free): the same over-approximation
    /// as [`Sharing::only_main_writes`] (a call writes its callee's parameters, the callee's
    /// own instructions are its own; mutex and condition operations write no memory).
    pub fn written_by(&self, prog: &Program, kind: &InstrKind) -> BTreeSet<AbsObj> {
        let mut acc = Accesses::new(self, prog);
        acc.writes(kind);
        acc.written
    }

    /// Objects each role accesses, mutex operands, and from them what is shared.
    fn classify(&mut self, prog: &Program) {
        let mut accessors: BTreeMap<AbsObj, BTreeSet<usize>> = BTreeMap::new();
        let mut mutexes: BTreeSet<AbsObj> = BTreeSet::new();
        let mut makers: BTreeMap<AbsObj, BTreeSet<usize>> = BTreeMap::new();
        let mut thread_written: BTreeSet<AbsObj> = BTreeSet::new();
        for (r, role) in self.roles.roles.iter().enumerate() {
            for &f in &role.code {
                let Some(body) = &prog.funcs[f].body else {
                    continue;
                };
                let mut acc = Accesses::new(self, prog);
                for p in &prog.funcs[f].params {
                    acc.var(*p);
                    acc.write_var(*p);
                }
                for ins in body.instrs.values() {
                    acc.instr(&ins.kind);
                }
                if r != 0 {
                    thread_written.extend(acc.written);
                }
                for o in acc.objects {
                    accessors.entry(o).or_default().insert(r);
                }
                for o in acc.made {
                    makers.entry(o).or_default().insert(r);
                }
                mutexes.extend(acc.mutexes);
            }
        }
        // The initialisers run before any thread, as nobody's accesses; their objects exist.
        let mut initialised: BTreeSet<AbsObj> = BTreeSet::new();
        if let Some(body) = &prog.funcs[prog.init].body {
            let mut acc = Accesses::new(self, prog);
            for ins in body.instrs.values() {
                acc.instr(&ins.kind);
            }
            initialised = acc.objects;
        }
        let mut pointed: BTreeSet<AbsObj> = BTreeSet::new();
        for &f in &self.points_to.reachable {
            let Some(body) = &prog.funcs[f].body else {
                continue;
            };
            for ins in body.instrs.values() {
                ins.kind.walk_exprs(&mut |e| {
                    if let crate::ir::ExprKind::AddrOf(p) = &e.kind {
                        pointed.extend(self.points_to.place_objects(prog, p));
                    }
                    if let crate::ir::ExprKind::FuncAddr(g) = e.kind {
                        pointed.insert(AbsObj::Func(g));
                    }
                });
                if let InstrKind::Alloc { site, .. } = ins.kind {
                    pointed.insert(AbsObj::Heap(site));
                }
            }
        }
        let many = |r: &usize| self.roles.roles[*r].instances.is_many();
        let mut shared: BTreeSet<AbsObj> = mutexes;
        let mut escaping: Vec<AbsObj> = Vec::new();
        for (&o, roles) in &accessors {
            // A global several thread instances may access is shared; an object made per
            // instance is private to each unless a pointer to it escapes (module doc).
            let one_role = roles.len() <= 1;
            if o.is_single() && (!one_role || roles.iter().any(many)) {
                shared.insert(o);
            } else if !one_role || roles.iter().any(many) {
                // Made per instance by a role with many instances: private to each instance
                // unless a pointer to it can reach another.
                escaping.push(o);
            }
        }
        // Pointers that leave their thread: its argument and its result.
        let mut leaving: BTreeSet<AbsObj> = self.points_to.thread_results();
        for role in &self.roles.roles {
            for &f in &role.code {
                for ins in prog.funcs[f].body.iter().flat_map(|b| b.instrs.values()) {
                    if let InstrKind::ThreadCreate { arg, .. } = &ins.kind {
                        leaving.extend(self.points_to.expr(prog, arg));
                    }
                }
            }
        }
        // To a fixed point: what a shared object holds is reachable by every instance.
        loop {
            let mut reach: BTreeSet<AbsObj> = leaving.clone();
            for &x in &shared {
                reach.extend(self.points_to.content(x));
            }
            let before = shared.len();
            for &o in &escaping {
                if reach.contains(&o) {
                    shared.insert(o);
                }
            }
            if shared.len() == before {
                break;
            }
        }
        self.made_late = makers
            .iter()
            .filter(|(_, roles)| roles.iter().any(|&r| r != 0))
            .map(|(&o, _)| o)
            .collect();
        self.objects = accessors
            .keys()
            .chain(&pointed)
            .chain(&initialised)
            .copied()
            .collect();
        self.shared = shared;
        self.thread_written = thread_written;
    }
}

/// The objects one function's code accesses.
struct Accesses<'a> {
    sharing: &'a Sharing,
    prog: &'a Program,
    objects: BTreeSet<AbsObj>,
    mutexes: BTreeSet<AbsObj>,
    /// Per-instance objects it makes.
    made: BTreeSet<AbsObj>,
    /// Objects it may write (or make, or free).
    written: BTreeSet<AbsObj>,
}

impl<'a> Accesses<'a> {
    /// Nothing accessed yet.
    fn new(sharing: &'a Sharing, prog: &'a Program) -> Accesses<'a> {
        Accesses {
            sharing,
            prog,
            objects: BTreeSet::new(),
            mutexes: BTreeSet::new(),
            made: BTreeSet::new(),
            written: BTreeSet::new(),
        }
    }

    fn var(&mut self, v: VarId) {
        if self.prog.vars[v].in_memory() {
            let o = var_object(self.prog, v);
            self.objects.insert(o);
            if !o.is_single() {
                self.made.insert(o);
            }
        }
    }

    /// A write of variable `v` (its object, when it lives in memory).
    fn write_var(&mut self, v: VarId) {
        if self.prog.vars[v].in_memory() {
            self.written.insert(var_object(self.prog, v));
        }
    }

    /// The objects a write of place `p` may change.
    fn write_place(&mut self, p: &Place) {
        let objs = self.sharing.points_to.place_objects(self.prog, p);
        self.written.extend(objs);
    }

    /// The objects a write through pointer `e` may change.
    fn write_through(&mut self, e: &Expr) {
        let objs = self.sharing.points_to.expr(self.prog, e);
        self.written.extend(objs);
    }

    /// What `kind` may write: every instruction that stores into memory symbolic execution
    /// models (a call's arguments are the callee's parameters, written there; a call of a
    /// function without a body writes nothing, as symbolic execution models it). Mutex and
    /// condition operations write their lock locations only, which no data access reads.
    fn writes(&mut self, kind: &InstrKind) {
        if let Some(dst) = kind.dst() {
            self.write_place(dst);
        }
        match kind {
            InstrKind::Decl(v) => self.write_var(*v),
            InstrKind::ThreadJoin {
                retval: Some(rp), ..
            } => self.write_through(rp),
            InstrKind::Memset { dst, .. } | InstrKind::Memcpy { dst, .. } => {
                self.write_through(dst)
            }
            InstrKind::Free(p) => self.write_through(p),
            _ => {}
        }
        if let InstrKind::Alloc { site, .. } = kind {
            self.written.insert(AbsObj::Heap(*site));
        }
    }

    /// A read or write of a place (and the reads inside it).
    fn place(&mut self, p: &Place) {
        match &p.base {
            PlaceBase::Var(v) => self.var(*v),
            PlaceBase::Deref(e) => {
                let pt = self.sharing.points_to.expr(self.prog, e);
                self.objects.extend(pt);
            }
        }
        p.walk(&mut |e| self.reads(e));
    }

    /// The reads an expression makes (its places under `Read`).
    fn reads(&mut self, e: &Expr) {
        if let crate::ir::ExprKind::Read(p) = &e.kind {
            match &p.base {
                PlaceBase::Var(v) => self.var(*v),
                PlaceBase::Deref(d) => {
                    let pt = self.sharing.points_to.expr(self.prog, d);
                    self.objects.extend(pt);
                }
            }
        }
    }

    fn through(&mut self, e: &Expr) {
        let pt = self.sharing.points_to.expr(self.prog, e);
        self.objects.extend(pt);
    }

    fn instr(&mut self, kind: &InstrKind) {
        self.writes(kind);
        kind.walk_exprs(&mut |e| self.reads(e));
        match kind {
            InstrKind::Decl(v) => self.var(*v),
            InstrKind::Assign { dst, .. }
            | InstrKind::Nondet { dst }
            | InstrKind::ThreadSelf { dst }
            | InstrKind::ThreadCreate { handle: dst, .. }
            | InstrKind::Call { dst: Some(dst), .. }
            | InstrKind::Alloc { dst: Some(dst), .. }
            | InstrKind::MutexTryLock { dst: Some(dst), .. } => self.place(dst),
            InstrKind::ThreadJoin {
                retval: Some(rp), ..
            } => self.through(rp),
            InstrKind::Memset { dst, .. } => self.through(dst),
            InstrKind::Free(p) if self.sharing.frees_access => self.through(p),
            InstrKind::Memcpy { dst, src, .. } => {
                self.through(dst);
                self.through(src);
            }
            _ => {}
        }
        match kind {
            InstrKind::MutexInit(m)
            | InstrKind::MutexLock(m)
            | InstrKind::MutexUnlock(m)
            | InstrKind::MutexDestroy(m)
            | InstrKind::MutexTryLock { mutex: m, .. }
            | InstrKind::CondInit(m)
            | InstrKind::CondSignal(m)
            | InstrKind::CondBroadcast(m)
            | InstrKind::CondDestroy(m) => {
                self.mutexes
                    .extend(self.sharing.points_to.expr(self.prog, m));
            }
            InstrKind::CondWait { cond, mutex } => {
                self.mutexes
                    .extend(self.sharing.points_to.expr(self.prog, cond));
                self.mutexes
                    .extend(self.sharing.points_to.expr(self.prog, mutex));
            }
            InstrKind::Alloc { site, .. } => {
                self.made.insert(AbsObj::Heap(*site));
            }
            _ => {}
        }
    }
}
