//! The canonical form of a machine state, for stateful search (`crate::explore::stateful`):
//! a sequence of byte strings (one for the threads, mutexes and object owners, then one per
//! memory object) such that two states with equal forms behave alike: the same steps are
//! enabled in both, and every step, with the same nondet values, leads to states with equal
//! forms again, with the same run ends (violation, trap, finish) on the way.
//!
//! What the form keeps: per thread its entry, status (with a finished thread's return value),
//! atomic depth, pending atomic entry, the shared reads of its unfinished instruction (`memo`),
//! its thread-local objects, and per frame the function, the next instruction, the objects of
//! its variables, whether it waits for a callee's result and whether that call opened an
//! atomic section; the locked mutexes and their holders; every reachable object's bytes,
//! pointers, indeterminate bytes, liveness and privacy flags. Thread numbers are program
//! values (`pthread_t` handles, `pthread_self`), so in general the threads are written in the
//! order of their numbers: renaming threads would have to rename integers in memory.
//!
//! What it leaves out, and why that is exact:
//! - Counters no step reads back in an unbounded machine: `steps`, the per-thread `effects`
//!   and `inputs`, the count of nondet values taken (`inputs_taken`: a step compares it only
//!   with its own value at the step's start), the branch hashes `paths`, the loop counts and spin marks of frames (only
//!   kept and read with [`super::Bounds`]; `canonical` refuses a machine with bounds), and the
//!   logs of the last step (`accesses`, `last_shared`, `read_values`, `hidden_writes`).
//! - A frame's pending result destination beyond whether there is one: `push_call` is its
//!   only writer, and it stores the destination of the call instruction the frame stands at
//!   until the callee returns, so the frame's function and instruction determine it.
//! - The values of dead variables: a frame's variable whose address is never taken and that is
//!   not live at the frame's next instruction (`crate::ir::liveness`: on every path from
//!   there it is written whole, by an assignment or a declaration, before it is read, or its
//!   frame ends) is kept only as its object's name, without its bytes. No pointer can reach it
//!   (its address is never taken), so only its frame reads it, and no read sees the value it
//!   holds now. For a caller's frame the next instruction is the call it waits at, whose
//!   live-in set holds everything live after the call. The thread's unfinished instruction
//!   (`memo`) runs again from the frame's instruction, so what it reads is live there.
//! - Objects no root reaches. The roots are the globals, every thread's thread-locals, frame
//!   variables, memo values and return value, and the mutexes held; an object is reachable when
//!   a root or a pointer stored in a reachable object names it. A step reaches memory only
//!   through a variable or a pointer value it holds, so an unreachable object is never read or
//!   written again, and a mutex in one can never be unlocked nor locked again (its entry is
//!   dropped with it; a thread blocked on it is blocked on an object it holds a pointer to,
//!   so that object is reachable).
//! - Object numbers. Objects are renumbered per owner in the order a fixed traversal from the
//!   roots (in the order above, pointers by offset) first meets them; the owner stays. Nothing
//!   in the interpreter observes a number: pointers compare by `(object, offset)` equality,
//!   ordered comparison and difference require the same object (`eval`), a pointer's bits are
//!   only its offset, and casts keep the provenance. So a bijective renaming of objects that
//!   keeps owners maps runs to runs, and the forms of two states are equal exactly when one is
//!   such a renaming of the other (on the reachable part): the traversal names an object by
//!   the path it was first met on, which a renaming preserves. Different allocation orders
//!   along different paths then give the same form.
//!
//! - Thread numbers, when no run can observe them (symmetry reduction, as in SPIN's and
//!   Murphi's: `CanonInfo::symmetric`): no join, no `pthread_self`, and every handle a
//!   creation writes goes to a variable nothing reads. The threads other than main are then
//!   written in the order of a signature of their own state, and object owners and mutex
//!   holders are renamed along. The interpreter uses a thread's number only to find its own
//!   state, as the owner of the objects it makes and the holder of the mutexes it takes (both
//!   renamed, and compared only for equality with the thread's own number), for main's own
//!   treatment (thread 0 is never moved), as the next creation's number (the count of
//!   threads, which a permutation keeps), and as a value written to a handle, read by
//!   `pthread_self` or taken by a join (excluded). So a permutation of the threads other than
//!   main, with owners and holders renamed along, maps the runs of a state to the runs of the
//!   permuted state step for step, violations included: states whose forms are equal are
//!   such permutations of each other. The signature only chooses the order; a tie (two
//!   threads with equal signatures but different relations to the rest) is broken by number,
//!   which may leave two symmetric states with different forms, never the converse.
//!
//! The encoding is injective on what it keeps: every variable-length part is preceded by its
//! length and every alternative by a tag, so equal byte strings decode to equal states. No
//! hash decides equality anywhere.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Machine, ObjId, Prov, Scalar, Status, Value};
use crate::ir::liveness::Liveness;
use crate::ir::{ExprKind, FuncId, InstrKind, PlaceBase, Program};

/// What [`Machine::canonical`] needs to know of the program: the live variables of every
/// function body, and whether thread numbers are unobservable.
pub struct CanonInfo {
    live: HashMap<FuncId, Liveness>,
    /// Threads other than main are written in an order of their own states rather than by
    /// number (symmetry reduction; see the module doc).
    pub symmetric: bool,
}

impl CanonInfo {
    pub fn of(prog: &Program) -> CanonInfo {
        CanonInfo {
            live: prog
                .defined_funcs()
                .map(|(f, _, b)| (f, Liveness::of(b)))
                .collect(),
            symmetric: thread_numbers_unobservable(prog),
        }
    }
}

/// Whether no run can observe a thread's number: no join and no `pthread_self`, and every
/// creation writes its handle into a variable that no expression reads or takes the address
/// of (the frontend folds `pthread_create(&t, ...)` into a write of `t`, so a pointer to the
/// variable exists only where an address-of expression makes one). A number reaches the
/// program only through a handle or `pthread_self`, and a join is the only operation that
/// takes one.
fn thread_numbers_unobservable(prog: &Program) -> bool {
    let mut handles = HashSet::new();
    let mut read = HashSet::new();
    for (_, _, body) in prog.defined_funcs() {
        for (_, ins) in body.instrs.iter() {
            match &ins.kind {
                InstrKind::ThreadJoin { .. } | InstrKind::ThreadSelf { .. } => return false,
                InstrKind::ThreadCreate { handle, .. } => match handle.base {
                    PlaceBase::Var(v) => {
                        handles.insert(v);
                    }
                    _ => return false,
                },
                _ => {}
            }
            ins.kind.walk_exprs(&mut |e| {
                if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &e.kind {
                    if let PlaceBase::Var(v) = p.base {
                        read.insert(v);
                    }
                }
            });
        }
    }
    handles.is_disjoint(&read)
}

/// The canonical form: the header (threads, mutexes, object owners) and one string per
/// reachable object, in canonical order.
pub type Canonical = Vec<Vec<u8>>;

fn put(out: &mut Vec<u8>, mut v: u64) {
    // LEB128: short for the small numbers that dominate a state.
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// The renaming of objects: canonical numbers per owner, in traversal order, and owners
/// renamed as the threads are reordered.
struct Names {
    map: HashMap<ObjId, ObjId>,
    order: Vec<ObjId>,
    next: HashMap<u32, u32>,
    /// The new owner of each owner (the identity past its end).
    owners: Vec<u32>,
}

impl Names {
    fn new(owners: Vec<u32>) -> Names {
        Names {
            map: HashMap::new(),
            order: Vec::new(),
            next: HashMap::new(),
            owners,
        }
    }

    fn owner(&self, o: u32) -> u32 {
        self.owners.get(o as usize).copied().unwrap_or(o)
    }

    fn name(&mut self, o: ObjId) -> ObjId {
        if let Some(&n) = self.map.get(&o) {
            return n;
        }
        let owner = self.owner(o.owner);
        let k = self.next.entry(owner).or_insert(0);
        let n = ObjId { owner, index: *k };
        *k += 1;
        self.map.insert(o, n);
        self.order.push(o);
        n
    }

    fn obj(&mut self, out: &mut Vec<u8>, o: ObjId) {
        let n = self.name(o);
        put(out, n.owner as u64);
        put(out, n.index as u64);
    }

    fn prov(&mut self, out: &mut Vec<u8>, p: Option<Prov>) {
        match p {
            None => out.push(0),
            Some(Prov::Obj(o)) => {
                out.push(1);
                self.obj(out, o);
            }
            Some(Prov::Func(f)) => {
                out.push(2);
                put(out, f.as_u32() as u64);
            }
        }
    }

    fn scalar(&mut self, out: &mut Vec<u8>, s: &Scalar) {
        put(out, s.bits);
        self.prov(out, s.prov);
    }

    fn value(&mut self, out: &mut Vec<u8>, v: &Value) {
        match v {
            Value::Scalar(s) => {
                out.push(0);
                self.scalar(out, s);
            }
            Value::Bytes(bytes, provs) => {
                out.push(1);
                put(out, bytes.len() as u64);
                out.extend_from_slice(bytes);
                put(out, provs.len() as u64);
                for (off, p, size) in provs {
                    put(out, *off);
                    self.prov(out, Some(*p));
                    out.push(*size);
                }
            }
        }
    }
}

impl Machine<'_> {
    /// The canonical form of this state (see the module doc); `None` for a machine whose
    /// form would not be exact: one with loop bounds (its loop counts matter) or a concolic
    /// one (its values have symbolic shadows).
    pub fn canonical(&self, info: &CanonInfo) -> Option<Canonical> {
        if self.bounds.is_some() || self.conc.is_some() {
            return None;
        }
        let n = self.threads.len();
        // The order the threads are written in: thread 0 first, the others by signature
        // when thread numbers are unobservable (see `CanonInfo::symmetric`).
        let mut order: Vec<usize> = (0..n).collect();
        if info.symmetric && n > 2 {
            let sigs: Vec<Vec<u8>> = (0..n).map(|t| self.signature(t, info)).collect();
            order[1..].sort_by(|&a, &b| sigs[a].cmp(&sigs[b]).then(a.cmp(&b)));
        }
        let mut pos = vec![0u32; n];
        for (new, &old) in order.iter().enumerate() {
            pos[old] = new as u32;
        }
        // Owner 0 is the globals' and main's first frame's, owner t + 1 thread t's.
        let mut owners: Vec<u32> = vec![0];
        owners.extend(pos.iter().map(|p| p + 1));
        let mut names = Names::new(owners);
        let mut head = Vec::new();
        // Objects of dead variables (see the module doc): named, their bytes left out.
        let mut dead: HashSet<ObjId> = HashSet::new();
        // The globals' map is fixed for the program; their objects come first.
        for o in self.globals.values() {
            names.name(*o);
        }
        put(&mut head, n as u64);
        for &t in &order {
            self.thread_part(t, info, &mut names, &mut head, &mut dead);
        }
        // The objects the roots reach, scanned in the order they were named (the pointers
        // of each by offset), so that the naming is a function of the state's shape.
        let mut objects = Vec::new();
        let mut scanned = 0;
        while scanned < names.order.len() {
            let o = names.order[scanned];
            scanned += 1;
            objects.push(self.object_part(o, &mut names, &dead));
        }
        // Mutexes held in reachable objects, by their canonical names (others can never be
        // locked or unlocked again), with their holders' places in the order.
        let held: BTreeMap<(ObjId, u64), u32> = self
            .mutexes
            .iter()
            .filter_map(|((o, off), t)| names.map.get(o).map(|n| ((*n, *off), pos[*t])))
            .collect();
        put(&mut head, held.len() as u64);
        for ((n, off), t) in &held {
            put(&mut head, n.owner as u64);
            put(&mut head, n.index as u64);
            put(&mut head, *off);
            put(&mut head, *t as u64);
        }
        // The owners of the objects in order (their numbers follow from the order).
        put(&mut head, names.order.len() as u64);
        for o in &names.order {
            put(&mut head, names.owner(o.owner) as u64);
        }
        let mut form = Vec::with_capacity(objects.len() + 1);
        form.push(head);
        form.extend(objects);
        Some(form)
    }

    /// Thread `t` alone, its objects named afresh and their first level of bytes: equal for
    /// two threads in the same local state, whatever their numbers (the order of threads
    /// under symmetry; any order would be sound, a finer one only merges fewer states).
    fn signature(&self, t: usize, info: &CanonInfo) -> Vec<u8> {
        if t == 0 {
            return Vec::new();
        }
        let mut names = Names::new(Vec::new());
        let mut out = Vec::new();
        let mut dead = HashSet::new();
        self.thread_part(t, info, &mut names, &mut out, &mut dead);
        let direct = names.order.len();
        for k in 0..direct {
            let o = names.order[k];
            out.extend(self.object_part(o, &mut names, &dead));
        }
        out
    }

    /// Writes thread `t`'s part of the header, naming the objects it refers to and noting
    /// the objects of its dead variables.
    fn thread_part(
        &self,
        t: usize,
        info: &CanonInfo,
        names: &mut Names,
        head: &mut Vec<u8>,
        dead: &mut HashSet<ObjId>,
    ) {
        let th = &self.threads[t];
        put(head, th.entry.as_u32() as u64);
        match &th.status {
            Status::Running => head.push(0),
            Status::CondWaiting => head.push(1),
            Status::Done(None) => head.push(2),
            Status::Done(Some(s)) => {
                head.push(3);
                names.scalar(head, s);
            }
            Status::Stopped => head.push(4),
        }
        put(head, th.atomic as u64);
        head.push(th.atomic_entry as u8);
        put(head, th.memo.len() as u64);
        for v in &th.memo {
            names.value(head, v);
        }
        put(head, th.tls.len() as u64);
        for (v, o) in &th.tls {
            put(head, v.as_u32() as u64);
            names.obj(head, *o);
        }
        put(head, th.frames.len() as u64);
        for f in &th.frames {
            put(head, f.func.as_u32() as u64);
            put(head, f.pc.as_u32() as u64);
            head.push(match &f.pending {
                None => 0,
                Some(None) => 1,
                Some(Some(_)) => 2,
            });
            head.push(f.via_back as u8 | (f.atomic_call as u8) << 1);
            put(head, f.vars.len() as u64);
            let live_in = info.live.get(&f.func).and_then(|l| l.live_in(f.pc));
            for (v, o) in &f.vars {
                put(head, v.as_u32() as u64);
                names.obj(head, *o);
                let d = &self.prog.vars[*v];
                if !d.address_taken && !d.is_global() && live_in.is_some_and(|l| !l.contains(v)) {
                    dead.insert(*o);
                }
            }
        }
    }

    /// The string of object `o`: its flags, bytes, indeterminate bytes and pointers (only a
    /// mark for a dead variable's object).
    fn object_part(&self, o: ObjId, names: &mut Names, dead: &HashSet<ObjId>) -> Vec<u8> {
        if dead.contains(&o) {
            return vec![0xff];
        }
        let obj = self.obj(o);
        let mut s = Vec::with_capacity(obj.bytes.len() + 8);
        s.push(obj.alive as u8 | (obj.private as u8) << 1 | (obj.escapes as u8) << 2);
        put(&mut s, obj.bytes.len() as u64);
        s.extend_from_slice(&obj.bytes);
        match &obj.undef {
            None => s.push(0),
            Some(u) => {
                s.push(1);
                s.extend(u.iter().map(|&b| b as u8));
            }
        }
        put(&mut s, obj.provs.len() as u64);
        for (off, (p, size)) in &obj.provs {
            put(&mut s, *off);
            names.prov(&mut s, Some(*p));
            s.push(*size);
        }
        s
    }
}
