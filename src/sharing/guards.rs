//! Which globals a mutex guards: after `main`'s first thread creation, every write of the
//! global (by any thread, through any pointer) is made by a thread that holds the mutex; and
//! which globals nothing writes after that creation at all. The rvf explorer takes reads of
//! such globals into a node's extension (`explore::rvf::guarded`, where the argument that
//! this loses no run is); this module answers the static question only.
//!
//! # Mutexes and who holds them
//!
//! A mutex is *named* here by a global variable (not thread-local) and a constant byte
//! offset in it: the operand of a mutex operation that is the address of such a variable or
//! of a field of it (`&m`, `&s.lock`; casts allowed), with no pointer and no index on the
//! way. Two different names are two different mutexes (the interpreter keys a mutex by its
//! object and offset). In the interpreter (`explore::interp::threads`) a lock takes a free
//! mutex (it waits while any thread holds it, its own included), an unlock frees a mutex its
//! thread holds (any other unlock traps), a condition wait frees its mutex and takes it
//! again before it returns (it traps unless its thread holds it), a trylock takes its mutex
//! when free and otherwise changes nothing, and init and destroy free it whoever holds it.
//! So only a thread's own operations change whether it holds a mutex, except for another
//! thread's init or destroy.
//!
//! A named mutex is *clean* when no init, destroy or trylock whose operand may designate
//! its variable (the points-to sets, field-insensitive; an operand that designates nothing
//! the analysis sees counts as designating every mutex) can run after `main`'s first thread
//! creation (below): only `main`, alone, can run one.
//!
//! # Must-locksets
//!
//! For every instruction of every function the program reaches, the set of named mutexes
//! the running thread holds when it is about to run it, whichever thread runs it along
//! whichever path. The set after an instruction, from the set before it:
//! - a lock of a named mutex adds it (the lock returns holding it);
//! - an unlock, init or destroy of a named mutex removes it; of any other operand (which
//!   may designate every mutex) empties the set;
//! - a call removes every mutex the callees may release (an unlock, init or destroy in
//!   them or, transitively, in their callees; an operand not named, or a callee the
//!   points-to sets do not resolve, releases all);
//! - anything else (a condition wait, which returns holding its mutex again; a trylock,
//!   which may take its mutex but need not) leaves it.
//!
//! At a join point the sets meet (intersection). A function's entry set is the meet of the
//! sets before its call sites; `main`, the initialisers and every thread entry start with
//! the empty set. An instruction its function's control flow does not reach from the entry
//! never runs; it gets the empty set (so does a function no call site the analysis sees
//! reaches).
//!
//! Why a clean mutex in the set is held: along any run, by induction over one thread's
//! steps. At an entry the set assumes nothing held, or only what every call site's set
//! assumes (the call itself changes nothing). Each transfer matches what the step does to
//! the thread's own holdings (a callee's step is accounted in the callee; on return only
//! what the callee may have released is dropped, which includes everything it released).
//! Another thread can take a clean mutex from it only by an init or destroy, which clean
//! excludes after the first creation, and before it no other thread exists.
//!
//! # Pre-creation points
//!
//! An instruction of `main`'s own body is *pre-creation* when no path from `main`'s entry
//! reaches it through a *creation point* (a thread creation, or a call whose callees may
//! create a thread transitively, a callee not resolved counting as creating): when it runs,
//! no other thread has been created yet. Only when `main` runs on thread 0 alone: it is no
//! thread entry and no call names it (else no instruction is pre-creation). The
//! initialisers of globals (`Program::init`) run before `main` and are not looked at; the
//! thread-local initialiser runs at every thread's start and counts like any code.
//!
//! # Guarded and unwritten globals
//!
//! A global variable (not thread-local) is *guarded* by a clean mutex m when every write of
//! it (`Sharing::written_by`: every instruction that may store into it, through any
//! pointer the points-to sets let designate it) outside the pre-creation points has m in its
//! set (for a call's result, the set after the call: the store comes on return). It is
//! *unwritten* when there is no such write at all. Like the rest of the sharing pass this
//! trusts the points-to sets: a pointer they do not resolve designates no object, and the
//! interpreter gives such a value no provenance, so a write through it is an invalid access,
//! not a write of the global.

use std::collections::{BTreeMap, BTreeSet};

use cranelift_entity::EntityRef;

use super::{AbsObj, Sharing};
use crate::ir::{
    Body, Callee, Expr, ExprKind, FuncId, InstrId, InstrKind, PlaceBase, Program, Proj, VarId,
};

/// A named mutex: a global variable and a byte offset in it.
pub type MutexName = (VarId, u64);

type Set = BTreeSet<MutexName>;

/// What the analysis found.
#[derive(Clone, Debug, Default)]
pub struct Guards {
    /// Per global, the clean mutexes that guard it (none listed: not guarded).
    guarded: BTreeMap<VarId, Set>,
    /// Globals no write after the first creation can change.
    unwritten: BTreeSet<VarId>,
    /// Some init, destroy or trylock after the first creation may designate any mutex.
    all_dirty: bool,
    /// Globals some init, destroy or trylock after the first creation may designate.
    dirty: BTreeSet<VarId>,
}

impl Guards {
    /// Whether `m` guards the global `v` (see the module doc).
    pub fn guards(&self, v: VarId, m: MutexName) -> bool {
        self.guarded.get(&v).is_some_and(|s| s.contains(&m))
    }

    /// The clean mutexes that guard `v`.
    pub fn guards_of(&self, v: VarId) -> impl Iterator<Item = MutexName> + '_ {
        self.guarded.get(&v).into_iter().flatten().copied()
    }

    /// Whether the mutexes in the global `v` are clean: no init, destroy or trylock after
    /// `main`'s first thread creation may designate them (module doc).
    pub fn clean(&self, v: VarId) -> bool {
        !self.all_dirty && !self.dirty.contains(&v)
    }

    /// Whether nothing writes `v` after `main`'s first thread creation.
    pub fn unwritten(&self, v: VarId) -> bool {
        self.unwritten.contains(&v)
    }

    /// Runs the analysis.
    pub fn analyse(prog: &Program, sharing: &Sharing) -> Guards {
        Analysis::new(prog, sharing).run()
    }

    /// Sabotage (tests only): every global unwritten and every mutex clean, whatever the
    /// program does, to show that the twins' violations need the real analysis.
    #[cfg(test)]
    pub(crate) fn ignoring_the_program(prog: &Program) -> Guards {
        Guards {
            unwritten: prog.globals().map(|(v, _)| v).collect(),
            ..Guards::default()
        }
    }
}

/// What a function may release (transitively): everything, or these named mutexes.
#[derive(Clone, Debug, Default, PartialEq)]
struct Releases {
    all: bool,
    some: Set,
}

struct Analysis<'a> {
    prog: &'a Program,
    sharing: &'a Sharing,
    funcs: Vec<FuncId>,
    releases: BTreeMap<FuncId, Releases>,
    /// Sets before each instruction (`None`: not reached).
    before: BTreeMap<FuncId, Vec<Option<Set>>>,
}

/// The mutex an operand names, if it is the address of a global or of a field of one.
fn named(prog: &Program, e: &Expr) -> Option<MutexName> {
    match &e.kind {
        ExprKind::Cast(a) => named(prog, a),
        ExprKind::AddrOf(p) => {
            let PlaceBase::Var(v) = p.base else {
                return None;
            };
            let d = &prog.vars[v];
            if !d.is_global() || d.thread_local {
                return None;
            }
            let mut off = 0u64;
            for proj in &p.projs {
                match proj {
                    Proj::Field { offset, .. } => off = off.checked_add(*offset)?,
                    Proj::Index { .. } => return None,
                }
            }
            Some((v, off))
        }
        _ => None,
    }
}

fn meet(a: &mut Option<Set>, b: &Set) -> bool {
    match a {
        None => {
            *a = Some(b.clone());
            true
        }
        Some(s) => {
            let n = s.len();
            s.retain(|m| b.contains(m));
            s.len() != n
        }
    }
}

impl<'a> Analysis<'a> {
    fn new(prog: &'a Program, sharing: &'a Sharing) -> Analysis<'a> {
        let funcs = sharing
            .points_to
            .reachable
            .iter()
            .copied()
            .filter(|&f| prog.funcs[f].body.is_some())
            .collect();
        Analysis {
            prog,
            sharing,
            funcs,
            releases: BTreeMap::new(),
            before: BTreeMap::new(),
        }
    }

    fn body(&self, f: FuncId) -> &'a Body {
        self.prog.funcs[f]
            .body
            .as_ref()
            .expect("functions with bodies")
    }

    fn callees(&self, c: &Callee) -> Vec<FuncId> {
        self.sharing.points_to.callees(self.prog, c)
    }

    /// What each function may release, to a fixed point over the call graph.
    fn compute_releases(&mut self) {
        for &f in &self.funcs {
            let mut r = Releases::default();
            for ins in self.body(f).instrs.values() {
                match &ins.kind {
                    InstrKind::MutexUnlock(e)
                    | InstrKind::MutexInit(e)
                    | InstrKind::MutexDestroy(e) => match named(self.prog, e) {
                        Some(m) => {
                            r.some.insert(m);
                        }
                        None => r.all = true,
                    },
                    InstrKind::Call { callee, .. } if self.callees(callee).is_empty() => {
                        r.all = true
                    }
                    _ => {}
                }
            }
            self.releases.insert(f, r);
        }
        loop {
            let mut changed = false;
            for &f in &self.funcs {
                let mut r = self.releases[&f].clone();
                for ins in self.body(f).instrs.values() {
                    if let InstrKind::Call { callee, .. } = &ins.kind {
                        for g in self.callees(callee) {
                            if let Some(rg) = self.releases.get(&g) {
                                r.all |= rg.all;
                                r.some.extend(rg.some.iter().copied());
                            }
                        }
                    }
                }
                if r != self.releases[&f] {
                    self.releases.insert(f, r);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The set after `kind`, from the set before it.
    fn transfer(&self, kind: &InstrKind, before: &Set) -> Set {
        let mut s = before.clone();
        match kind {
            InstrKind::MutexLock(e) => {
                if let Some(m) = named(self.prog, e) {
                    s.insert(m);
                }
            }
            InstrKind::MutexUnlock(e) | InstrKind::MutexInit(e) | InstrKind::MutexDestroy(e) => {
                match named(self.prog, e) {
                    Some(m) => {
                        s.remove(&m);
                    }
                    None => s.clear(),
                }
            }
            InstrKind::Call { callee, .. } => {
                let gs = self.callees(callee);
                if gs.is_empty() {
                    s.clear();
                }
                for g in gs {
                    match self.releases.get(&g) {
                        Some(r) if !r.all => s.retain(|m| !r.some.contains(m)),
                        // A callee without a body releases nothing (the IR has no calls of
                        // one); one with a body that may release anything empties the set.
                        Some(_) => s.clear(),
                        None => {}
                    }
                }
            }
            _ => {}
        }
        s
    }

    /// The sets before each instruction of `f`, from its entry set.
    fn function(&self, f: FuncId, entry: &Set) -> Vec<Option<Set>> {
        let body = self.body(f);
        let n = body.instrs.len();
        let mut sets: Vec<Option<Set>> = vec![None; n];
        if n == 0 {
            return sets;
        }
        sets[0] = Some(entry.clone());
        let mut work = vec![InstrId::new(0)];
        while let Some(i) = work.pop() {
            let Some(before) = sets[i.index()].clone() else {
                continue;
            };
            let after = self.transfer(&body.instrs[i].kind, &before);
            for s in body.successors(i) {
                if meet(&mut sets[s.index()], &after) {
                    work.push(s);
                }
            }
        }
        sets
    }

    /// The functions that start with the empty set: `main`, the initialisers, thread entries.
    fn roots(&self) -> BTreeSet<FuncId> {
        let mut r: BTreeSet<FuncId> = self.sharing.points_to.thread_entries.clone();
        r.extend([self.prog.init, self.prog.tls_init]);
        r.extend(self.prog.main);
        r
    }

    /// Entry sets and the sets before every instruction, to a fixed point: entry sets start
    /// unknown (no call site seen) and only shrink.
    fn locksets(&mut self) {
        let roots = self.roots();
        let mut entries: BTreeMap<FuncId, Option<Set>> = BTreeMap::new();
        for &f in &self.funcs {
            entries.insert(f, roots.contains(&f).then(Set::new));
        }
        loop {
            let mut before = BTreeMap::new();
            for &f in &self.funcs {
                let sets = match &entries[&f] {
                    Some(e) => self.function(f, e),
                    None => vec![None; self.body(f).instrs.len()],
                };
                before.insert(f, sets);
            }
            let mut next = entries.clone();
            for &f in &self.funcs {
                let body = self.body(f);
                for (i, ins) in body.instrs.iter() {
                    let InstrKind::Call { callee, .. } = &ins.kind else {
                        continue;
                    };
                    let Some(s) = &before[&f][i.index()] else {
                        continue;
                    };
                    for g in self.callees(callee) {
                        if let Some(e) = next.get_mut(&g) {
                            meet(e, s);
                        }
                    }
                }
            }
            self.before = before;
            if next == entries {
                break;
            }
            entries = next;
        }
    }

    /// Whether each function may create a thread, transitively (an unresolved callee may).
    fn creators(&self) -> BTreeSet<FuncId> {
        let mut out = BTreeSet::new();
        loop {
            let n = out.len();
            for &f in &self.funcs {
                let creates = self.body(f).instrs.values().any(|ins| match &ins.kind {
                    InstrKind::ThreadCreate { .. } => true,
                    InstrKind::Call { callee, .. } => {
                        let gs = self.callees(callee);
                        gs.is_empty() || gs.iter().any(|g| out.contains(g))
                    }
                    _ => false,
                });
                if creates {
                    out.insert(f);
                }
            }
            if out.len() == n {
                return out;
            }
        }
    }

    /// The pre-creation instructions of `main` (module doc).
    fn pre_creation(&self) -> BTreeSet<InstrId> {
        let Some(main) = self.prog.main else {
            return BTreeSet::new();
        };
        if self.prog.funcs[main].body.is_none()
            || self.sharing.points_to.thread_entries.contains(&main)
        {
            return BTreeSet::new();
        }
        let called = self.funcs.iter().any(|&f| {
            self.body(f).instrs.values().any(|ins| match &ins.kind {
                InstrKind::Call { callee, .. } => self.callees(callee).contains(&main),
                _ => false,
            })
        });
        if called {
            return BTreeSet::new();
        }
        let creators = self.creators();
        let body = self.body(main);
        let creation = |k: &InstrKind| match k {
            InstrKind::ThreadCreate { .. } => true,
            InstrKind::Call { callee, .. } => {
                let gs = self.callees(callee);
                gs.is_empty() || gs.iter().any(|g| creators.contains(g))
            }
            _ => false,
        };
        let mut post: BTreeSet<InstrId> = BTreeSet::new();
        let mut work: Vec<InstrId> = body
            .instrs
            .iter()
            .filter(|(_, ins)| creation(&ins.kind))
            .flat_map(|(i, _)| body.successors(i))
            .collect();
        while let Some(i) = work.pop() {
            if post.insert(i) {
                work.extend(body.successors(i));
            }
        }
        body.instrs.keys().filter(|i| !post.contains(i)).collect()
    }

    fn run(mut self) -> Guards {
        self.compute_releases();
        self.locksets();
        let pre = self.pre_creation();
        let main = self.prog.main;
        let init = self.prog.init;
        // Mutexes some init, destroy or trylock after the first creation may designate
        // (`None` in the set: an operand designating nothing the analysis sees, i.e. all).
        let mut dirty: BTreeSet<Option<VarId>> = BTreeSet::new();
        // Per global written after the first creation, the sets of its writes, met.
        let mut writes: BTreeMap<VarId, Set> = BTreeMap::new();
        for &f in &self.funcs {
            if f == init {
                continue;
            }
            let body = self.body(f);
            for (i, ins) in body.instrs.iter() {
                let kind = &ins.kind;
                if Some(f) == main && pre.contains(&i) {
                    continue;
                }
                let before = self.before[&f][i.index()].clone().unwrap_or_default();
                if let InstrKind::MutexInit(e)
                | InstrKind::MutexDestroy(e)
                | InstrKind::MutexTryLock { mutex: e, .. } = kind
                {
                    let pt = self.sharing.points_to.expr(self.prog, e);
                    if pt.is_empty() {
                        dirty.insert(None);
                    }
                    for o in pt {
                        if let AbsObj::Global(v) = o {
                            dirty.insert(Some(v));
                        }
                    }
                }
                let held = match kind {
                    InstrKind::Call { .. } => self.transfer(kind, &before),
                    _ => before,
                };
                for o in self.sharing.written_by(self.prog, kind) {
                    if let AbsObj::Global(v) = o {
                        match writes.get_mut(&v) {
                            Some(s) => s.retain(|m| held.contains(m)),
                            None => {
                                writes.insert(v, held.clone());
                            }
                        }
                    }
                }
            }
        }
        let mut out = Guards {
            all_dirty: dirty.contains(&None),
            dirty: dirty.into_iter().flatten().collect(),
            ..Guards::default()
        };
        for (v, d) in self.prog.globals() {
            if d.thread_local {
                continue;
            }
            match writes.get(&v) {
                None => {
                    out.unwritten.insert(v);
                }
                Some(s) => {
                    let s: Set = s.iter().filter(|m| out.clean(m.0)).copied().collect();
                    if !s.is_empty() {
                        out.guarded.insert(v, s);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend;
    use crate::ir::DataModel;

    fn guards(src: &str) -> (Program, Guards) {
        let prog = frontend::load_source(src, DataModel::Lp64).expect("lowers");
        let sharing = Sharing::analyse(&prog);
        let g = Guards::analyse(&prog, &sharing);
        (prog, g)
    }

    fn var(prog: &Program, name: &str) -> VarId {
        prog.var_by_name(name).expect("a variable")
    }

    const HEAD: &str = "#include <pthread.h>\n#include <assert.h>\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
        pthread_mutex_t n = PTHREAD_MUTEX_INITIALIZER;\n";

    #[test]
    fn a_counter_written_under_its_lock_is_guarded_and_main_reads_freely() {
        let src = format!(
            "{HEAD}int c; int k;\n\
             void *t(void *a) {{ pthread_mutex_lock(&m); c = c + k; pthread_mutex_unlock(&m); return 0; }}\n\
             int main(void) {{ k = 2; pthread_t x, y; pthread_create(&x, 0, t, 0); pthread_create(&y, 0, t, 0);\n\
             pthread_join(x, 0); pthread_join(y, 0); assert(c == 4); return 0; }}\n"
        );
        let (prog, g) = guards(&src);
        let (c, k, m, n) = (
            var(&prog, "c"),
            var(&prog, "k"),
            var(&prog, "m"),
            var(&prog, "n"),
        );
        assert!(g.guards(c, (m, 0)));
        assert!(!g.guards(c, (n, 0)));
        // k is written before the first creation only.
        assert!(g.unwritten(k));
        assert!(!g.unwritten(c));
    }

    #[test]
    fn a_write_outside_the_lock_or_after_creation_unguards() {
        let src = format!(
            "{HEAD}int c; int k;\n\
             void *t(void *a) {{ pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); c = 7; return 0; }}\n\
             int main(void) {{ pthread_t x; pthread_create(&x, 0, t, 0); k = 1; pthread_join(x, 0); return 0; }}\n"
        );
        let (prog, g) = guards(&src);
        let (c, k, m) = (var(&prog, "c"), var(&prog, "k"), var(&prog, "m"));
        assert!(!g.guards(c, (m, 0)));
        assert!(!g.unwritten(k));
        assert!(!g.guards(k, (m, 0)));
    }

    #[test]
    fn a_write_through_a_pointer_or_in_a_callee_counts() {
        // The write through p happens with n held, not m; the callee writes c with m held
        // at its only call site.
        let src = format!(
            "{HEAD}int c; int *p = &c;\n\
             void add(void) {{ c = c + 1; }}\n\
             void *t(void *a) {{ pthread_mutex_lock(&m); add(); pthread_mutex_unlock(&m); return 0; }}\n\
             void *u(void *a) {{ pthread_mutex_lock(&n); *p = 3; pthread_mutex_unlock(&n); return 0; }}\n\
             int main(void) {{ pthread_t x, y; pthread_create(&x, 0, t, 0); pthread_create(&y, 0, u, 0); return 0; }}\n"
        );
        let (prog, g) = guards(&src);
        let (c, m) = (var(&prog, "c"), var(&prog, "m"));
        assert!(!g.guards(c, (m, 0)));
        let without_u = src.replace("pthread_create(&y, 0, u, 0);", "");
        let (prog, g) = guards(&without_u);
        assert!(g.guards(var(&prog, "c"), (var(&prog, "m"), 0)));
    }

    #[test]
    fn a_release_in_a_callee_or_a_branch_drops_the_lock() {
        let src = format!(
            "{HEAD}int c; int flag;\n\
             void rel(void) {{ pthread_mutex_unlock(&m); }}\n\
             void *t(void *a) {{ pthread_mutex_lock(&m); rel(); c = 1; return 0; }}\n\
             int main(void) {{ pthread_t x; pthread_create(&x, 0, t, 0); return 0; }}\n"
        );
        let (prog, g) = guards(&src);
        assert!(!g.guards(var(&prog, "c"), (var(&prog, "m"), 0)));
        let src = format!(
            "{HEAD}int c; int flag;\n\
             void *t(void *a) {{ pthread_mutex_lock(&m); if (flag) pthread_mutex_unlock(&m); c = 1; return 0; }}\n\
             int main(void) {{ pthread_t x; pthread_create(&x, 0, t, 0); return 0; }}\n"
        );
        let (prog, g) = guards(&src);
        assert!(!g.guards(var(&prog, "c"), (var(&prog, "m"), 0)));
    }

    #[test]
    fn an_init_or_trylock_after_creation_makes_the_mutex_unclean() {
        for op in ["pthread_mutex_init(&m, 0);", "pthread_mutex_trylock(&m);"] {
            let src = format!(
                "{HEAD}int c;\n\
                 void *t(void *a) {{ pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); return 0; }}\n\
                 int main(void) {{ pthread_t x; pthread_create(&x, 0, t, 0); {op} return 0; }}\n"
            );
            let (prog, g) = guards(&src);
            assert!(!g.guards(var(&prog, "c"), (var(&prog, "m"), 0)), "{op}");
            // Before the creation it is allowed.
            let early = src
                .replace(op, "")
                .replace("pthread_t x;", &format!("pthread_t x; {op}"));
            let (prog, g) = guards(&early);
            assert!(
                g.guards(var(&prog, "c"), (var(&prog, "m"), 0)),
                "{op} early"
            );
        }
    }
}
