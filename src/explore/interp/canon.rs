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
//! pointers, indeterminate bytes, liveness and privacy flags. Thread numbers are kept as they
//! are: they are program values (`pthread_t` handles, `pthread_self`), so renaming threads
//! would have to rename integers in memory, which no form can do exactly.
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
//! The encoding is injective on what it keeps: every variable-length part is preceded by its
//! length and every alternative by a tag, so equal byte strings decode to equal states. No
//! hash decides equality anywhere.

use std::collections::{BTreeMap, HashMap};

use super::{Machine, ObjId, Prov, Scalar, Status, Value};
use crate::ir::liveness::Liveness;
use crate::ir::{FuncId, Program};

/// The live variables of every function body of a program, for [`Machine::canonical`].
pub struct LiveVars(HashMap<FuncId, Liveness>);

impl LiveVars {
    pub fn of(prog: &Program) -> LiveVars {
        LiveVars(
            prog.defined_funcs()
                .map(|(f, _, b)| (f, Liveness::of(b)))
                .collect(),
        )
    }
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

/// The renaming of objects: canonical numbers per owner, in traversal order.
struct Names {
    map: HashMap<ObjId, ObjId>,
    order: Vec<ObjId>,
    next: HashMap<u32, u32>,
    /// Reached but not yet scanned for pointers.
    todo: Vec<ObjId>,
}

impl Names {
    fn name(&mut self, o: ObjId) -> ObjId {
        if let Some(&n) = self.map.get(&o) {
            return n;
        }
        let k = self.next.entry(o.owner).or_insert(0);
        let n = ObjId {
            owner: o.owner,
            index: *k,
        };
        *k += 1;
        self.map.insert(o, n);
        self.order.push(o);
        self.todo.push(o);
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
    pub fn canonical(&self, live: &LiveVars) -> Option<Canonical> {
        if self.bounds.is_some() || self.conc.is_some() {
            return None;
        }
        let mut names = Names {
            map: HashMap::new(),
            order: Vec::new(),
            next: HashMap::new(),
            todo: Vec::new(),
        };
        let mut head = Vec::new();
        // Objects of dead variables (see the module doc): named, their bytes left out.
        let mut dead: std::collections::HashSet<ObjId> = Default::default();
        // The globals' map is fixed for the program; their objects come first.
        for o in self.globals.values() {
            names.name(*o);
        }
        put(&mut head, self.threads.len() as u64);
        for th in &self.threads {
            put(&mut head, th.entry.as_u32() as u64);
            match &th.status {
                Status::Running => head.push(0),
                Status::CondWaiting => head.push(1),
                Status::Done(None) => head.push(2),
                Status::Done(Some(s)) => {
                    head.push(3);
                    names.scalar(&mut head, s);
                }
                Status::Stopped => head.push(4),
            }
            put(&mut head, th.atomic as u64);
            head.push(th.atomic_entry as u8);
            put(&mut head, th.memo.len() as u64);
            for v in &th.memo {
                names.value(&mut head, v);
            }
            put(&mut head, th.tls.len() as u64);
            for (v, o) in &th.tls {
                put(&mut head, v.as_u32() as u64);
                names.obj(&mut head, *o);
            }
            put(&mut head, th.frames.len() as u64);
            for f in &th.frames {
                put(&mut head, f.func.as_u32() as u64);
                put(&mut head, f.pc.as_u32() as u64);
                head.push(match &f.pending {
                    None => 0,
                    Some(None) => 1,
                    Some(Some(_)) => 2,
                });
                head.push(f.via_back as u8 | (f.atomic_call as u8) << 1);
                put(&mut head, f.vars.len() as u64);
                let live_in = live.0.get(&f.func).and_then(|l| l.live_in(f.pc));
                for (v, o) in &f.vars {
                    put(&mut head, v.as_u32() as u64);
                    names.obj(&mut head, *o);
                    let d = &self.prog.vars[*v];
                    if !d.address_taken && !d.is_global() && live_in.is_some_and(|l| !l.contains(v))
                    {
                        dead.insert(*o);
                    }
                }
            }
        }
        // The objects the roots reach, scanned in the order they were named (the pointers
        // of each by offset), so that the naming is a function of the state's shape.
        let mut objects = Vec::new();
        let mut scanned = 0;
        while scanned < names.order.len() {
            let o = names.order[scanned];
            scanned += 1;
            if dead.contains(&o) {
                objects.push(vec![0xff]);
                continue;
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
            objects.push(s);
        }
        names.todo.clear();
        // Mutexes held in reachable objects, by their canonical names (others can never be
        // locked or unlocked again).
        let held: BTreeMap<(ObjId, u64), usize> = self
            .mutexes
            .iter()
            .filter_map(|((o, off), t)| names.map.get(o).map(|n| ((*n, *off), *t)))
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
            put(&mut head, o.owner as u64);
        }
        let mut form = Vec::with_capacity(objects.len() + 1);
        form.push(head);
        form.extend(objects);
        Some(form)
    }
}
