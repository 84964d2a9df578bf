//! The executor: threads one after another, function bodies instruction by instruction with
//! paths merged where jumps meet, loops unwound, calls inlined.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Instant;

use cranelift_entity::{EntityRef, SecondaryMap};
use encoder::{BitVec, Encoder, Equation, Location, Thread};
use solver_glue::Lit;

use super::memory::{InitValue, Memory, ObjId, ObjKind, Object};
use super::state::{State, Val, VarKey, THREAD_FRAME};
use super::{
    unsupported, Check, CheckKind, EventInfo, NondetInput, SymexError, SymexOptions, SymexOutput,
    ThreadInfo,
};
use crate::ir::{
    Callee, Expr, FuncId, InstrId, InstrKind, Loc, LoopId, Place, Program, Type, VarId, VarKind,
};

/// A thread instance waiting to be executed.
pub(super) struct ThreadInst {
    pub info: ThreadInfo,
    pub arg: Option<Val>,
    /// True iff the thread ran to its end (return or `pthread_exit`).
    pub done: Lit,
    /// Its return value (pointer width).
    pub ret: BitVec,
    /// The thread that created it (none for main).
    pub parent: Option<usize>,
}

pub(super) struct Symex<'a, 'b, 's> {
    pub prog: &'a Program,
    pub opts: &'a SymexOptions,
    pub enc: &'b mut Encoder<'s>,
    pub eq: Equation,
    pub mem: Memory,
    pub local_obj: HashMap<VarKey, ObjId>,
    /// Lock state of each mutex, keyed by the mutex's address.
    pub locks: HashMap<(ObjId, u64), Location>,
    /// While the initialisers run, memory is this map (cell → value) instead of events.
    pub init_mode: bool,
    pub init_vals: HashMap<(ObjId, u64), BitVec>,
    pub threads: Vec<ThreadInst>,
    pub todo: VecDeque<usize>,
    pub cur: Thread,
    pub cur_number: u32,
    pub frame: u32,
    next_frame: u32,
    call_stack: Vec<FuncId>,
    /// `pthread_exit` points of the current thread: (guard, value).
    exits: Vec<(Lit, BitVec)>,
    pub loc: Loc,
    pub event_info: SecondaryMap<encoder::Event, EventInfo>,
    pub checks: Vec<Check>,
    pub nondets: Vec<NondetInput>,
    /// The identity of each object (index = object number; none for NULL).
    pub idents: Vec<Option<ObjIdent>>,
    /// Objects by identity; objects known from an earlier run are made first, so that
    /// pointers read from shared memory can designate objects made later in this run.
    pub id_of: HashMap<ObjIdent, ObjId>,
    occurrences: HashMap<(u32, ObjTag), u32>,
    /// A pointer with a computed object part has been dereferenced.
    pub sym_deref: bool,
    /// An object unknown to such a dereference was made after it.
    pub missed_objects: bool,
    /// Objects private to one thread (by thread number), from an earlier run.
    pub private_owner: HashMap<ObjId, u32>,
    private_by_ident: HashMap<ObjIdent, u32>,
    /// Nondet initial values of private cells.
    pub private_init: HashMap<(ObjId, u64), BitVec>,
    /// Which threads accessed each object in this run.
    pub accessors: HashMap<ObjId, Option<u32>>,
    /// A thread other than its owner accessed a private object: the run is not exact.
    pub private_broken: bool,
}

/// An object's identity across runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjIdent {
    Global(VarId),
    /// A function whose address is taken.
    Func(FuncId),
    Dynamic(ObjKey),
}

/// What a run learns for the next one.
#[derive(Clone, Debug, Default)]
pub struct Knowledge {
    /// Objects in the order they were made, so pointers read from memory can designate
    /// them from the start.
    pub objects: Vec<(ObjIdent, Object)>,
    /// Objects only one thread accesses, with its number.
    pub private: Vec<(ObjIdent, u32)>,
}

/// What a dynamic object is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjTag {
    Heap(u32),
    Local(VarId),
}

/// Identifies a dynamic object across runs: the thread, what makes it, and which occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjKey {
    pub thread: u32,
    pub tag: ObjTag,
    pub occurrence: u32,
}

/// Runs symbolic execution of `prog` (which must have `main`) on `enc`.
pub fn run(
    prog: &Program,
    opts: &SymexOptions,
    enc: &mut Encoder,
    knowledge: &Knowledge,
) -> Result<SymexOutput, SymexError> {
    let main = match prog.main {
        Some(m) => m,
        None => return unsupported("no main function"),
    };
    let ptr_bits = prog.types.ptr_bits() as u32;
    let eq = Equation::new(enc.tru());
    let mut sx = Symex {
        prog,
        opts,
        enc,
        eq,
        mem: Memory::new(ptr_bits),
        local_obj: HashMap::new(),
        locks: HashMap::new(),
        init_mode: true,
        init_vals: HashMap::new(),
        threads: Vec::new(),
        todo: VecDeque::new(),
        cur: Thread::from_u32(0),
        cur_number: 0,
        frame: THREAD_FRAME,
        next_frame: THREAD_FRAME + 1,
        call_stack: Vec::new(),
        exits: Vec::new(),
        loc: Loc::default(),
        event_info: SecondaryMap::new(),
        checks: Vec::new(),
        nondets: Vec::new(),
        idents: vec![None],
        id_of: HashMap::new(),
        occurrences: HashMap::new(),
        sym_deref: false,
        missed_objects: false,
        private_owner: HashMap::new(),
        private_by_ident: knowledge.private.iter().copied().collect(),
        private_init: HashMap::new(),
        accessors: HashMap::new(),
        private_broken: false,
    };
    for (ident, obj) in &knowledge.objects {
        let mut o = obj.clone();
        o.cells.clear();
        sx.new_object(*ident, o)?;
    }

    // The initialisers run before main, on memory that is not yet shared.
    let init_thread = sx.eq.init_thread();
    sx.cur = init_thread;
    let st = State::new(sx.enc.tru());
    sx.call(prog.init, Vec::new(), st)?;
    sx.init_mode = false;

    let main_thread = sx.eq.add_thread();
    let tru = sx.enc.tru();
    sx.spawn(main_thread, main, None, tru, prog.funcs[main].loc)?;
    while let Some(i) = sx.todo.pop_front() {
        sx.run_thread(i)?;
    }
    sx.finish_init_writes();
    let objects = sx
        .idents
        .iter()
        .enumerate()
        .filter_map(|(i, id)| {
            let mut o = sx.mem.objects[ObjId::new(i)].clone();
            o.cells.clear();
            id.map(|id| (id, o))
        })
        .collect();
    let mut private: Vec<(ObjIdent, u32)> = sx
        .accessors
        .iter()
        .filter_map(|(&o, &who)| {
            let owner = who?;
            let id = sx.idents[o.index()]?;
            // Mutex objects keep their lock events: only plain data becomes private.
            let has_lock = sx.locks.keys().any(|&(lo, _)| lo == o);
            (!has_lock).then_some((id, owner))
        })
        .collect();
    private.sort();
    Ok(SymexOutput {
        knowledge: Knowledge { objects, private },
        rerun: sx.missed_objects || sx.private_broken,
        equation: sx.eq,
        event_info: sx.event_info,
        checks: sx.checks,
        nondets: sx.nondets,
        threads: sx.threads.into_iter().map(|t| t.info).collect(),
    })
}

impl Symex<'_, '_, '_> {
    /// Makes an object with its identity (or finds the one an earlier run made known).
    pub fn object(
        &mut self,
        ident: ObjIdent,
        make: impl FnOnce(&Self) -> Result<Object, SymexError>,
    ) -> Result<ObjId, SymexError> {
        if let Some(&id) = self.id_of.get(&ident) {
            return Ok(id);
        }
        if self.sym_deref {
            self.missed_objects = true;
        }
        let obj = make(self)?;
        self.new_object(ident, obj)
    }

    fn new_object(&mut self, ident: ObjIdent, obj: Object) -> Result<ObjId, SymexError> {
        let id = self.mem.add(obj).or_else(unsupported)?;
        self.idents.push(Some(ident));
        self.id_of.insert(ident, id);
        // Registered now, so that an access by another thread before the owner makes the
        // object is seen as breaking its privacy.
        if let Some(&owner) = self.private_by_ident.get(&ident) {
            self.private_owner.insert(id, owner);
        }
        Ok(id)
    }

    /// The object of a function whose address is taken.
    pub fn func_object(&mut self, f: FuncId) -> Result<ObjId, SymexError> {
        // Functions without a body get an object too (their address can be stored and
        // compared); a call through it is reported as unsupported.
        self.object(ObjIdent::Func(f), |sx| {
            Ok(Object {
                name: sx.prog.funcs[f].name.clone(),
                kind: ObjKind::Function(f),
                size: 0,
                leaves: Some(Vec::new()),
                init: InitValue::Zero,
                cells: Default::default(),
            })
        })
    }

    /// Functions whose address was taken so far, with their objects.
    fn func_objects(&self) -> Vec<(FuncId, ObjId)> {
        let mut v: Vec<(FuncId, ObjId)> = self
            .id_of
            .iter()
            .filter_map(|(i, &o)| match i {
                ObjIdent::Func(f) => Some((*f, o)),
                _ => None,
            })
            .collect();
        v.sort();
        v
    }

    pub fn object_template(
        &self,
        name: &str,
        ty: crate::ir::TypeId,
        kind: ObjKind,
        init: InitValue,
    ) -> Object {
        let types = &self.prog.types;
        Object {
            name: name.to_string(),
            kind,
            size: types.size_of(ty).unwrap_or(0),
            leaves: super::memory::leaves(types, ty).ok(),
            init,
            cells: Default::default(),
        }
    }

    /// Registers a new thread instance to run later.
    fn spawn(
        &mut self,
        thread: Thread,
        entry: FuncId,
        arg: Option<Val>,
        guard: Lit,
        loc: Loc,
    ) -> Result<u32, SymexError> {
        if self.threads.len() >= self.opts.max_threads {
            return unsupported(format!("more than {} threads", self.opts.max_threads));
        }
        let number = self.threads.len() as u32;
        let done = self.enc.new_lit();
        let ret = self.enc.bv_fresh(self.mem.ptr_bits);
        self.threads.push(ThreadInst {
            info: ThreadInfo {
                thread,
                number,
                entry,
                loc,
                guard,
            },
            arg,
            done,
            ret,
            parent: (!self.threads.is_empty()).then_some(self.cur_number as usize),
        });
        self.todo.push_back(number as usize);
        Ok(number)
    }

    fn run_thread(&mut self, i: usize) -> Result<(), SymexError> {
        let (thread, entry, guard, arg) = {
            let t = &self.threads[i];
            (t.info.thread, t.info.entry, t.info.guard, t.arg.clone())
        };
        self.cur = thread;
        self.cur_number = i as u32;
        self.exits.clear();
        let mut st = State::new(guard);
        // Thread-local variables start zeroed, then their initialisers run in this thread.
        let tls: Vec<(VarId, crate::ir::TypeId)> = self
            .prog
            .globals()
            .filter(|(_, v)| v.thread_local)
            .map(|(id, v)| (id, v.ty))
            .collect();
        for (v, ty) in tls {
            let zero = self.zero_value(ty)?;
            st.vars.insert((THREAD_FRAME, v), zero);
        }
        let mut st = self.call(self.prog.tls_init, Vec::new(), st)?.0;
        let func = &self.prog.funcs[entry];
        let args = match (arg, func.params.len()) {
            (Some(a), 1) => vec![a],
            (_, 0) => Vec::new(),
            (None, _) => Vec::new(),
            (Some(_), n) => {
                return unsupported(format!("thread entry {} with {n} parameters", func.name))
            }
        };
        // An atomic function as a thread's entry: the whole thread is one atomic section.
        let opened = func.atomic && self.open_atomic(&mut st);
        let (mut end, ret) = self.call(entry, args, st)?;
        self.close_atomic(&mut end, opened);
        let ptr_bits = self.mem.ptr_bits;
        let mut ends: Vec<(Lit, BitVec)> = std::mem::take(&mut self.exits);
        if !end.is_dead(self.enc) {
            let v = match ret {
                Some(Val::Scalar(b)) => self.resize(&b, ptr_bits, false),
                _ => self.enc.bv_const(ptr_bits, 0),
            };
            ends.push((end.guard, v));
        }
        let (done, ret_bv) = (self.threads[i].done, self.threads[i].ret.clone());
        let guards: Vec<Lit> = ends.iter().map(|e| e.0).collect();
        let finished = self.enc.or_all(&guards);
        let eqv = self.enc.iff(done, finished);
        self.enc.assert_lit(eqv);
        for (g, v) in ends {
            let same = self.enc.bv_eq(&ret_bv, &v);
            self.enc.assert_implies(g, same);
        }
        Ok(())
    }

    /// Initial writes of every cell and lock made during execution.
    fn finish_init_writes(&mut self) {
        let mut cells: Vec<(ObjId, u64, u32, Location, InitValue)> = Vec::new();
        for (o, obj) in self.mem.objects.iter() {
            if self.private_owner.contains_key(&o) {
                continue;
            }
            for (&off, &(bits, loc)) in &obj.cells {
                cells.push((o, off, bits, loc, obj.init));
            }
        }
        for (o, off, bits, loc, init) in cells {
            let value = match (self.init_vals.get(&(o, off)), init) {
                (Some(v), _) => v.clone(),
                (None, InitValue::Nondet) => self.enc.bv_fresh(bits),
                (None, _) => self.enc.bv_const(bits, 0),
            };
            self.eq.add_init_write(loc, value);
        }
        let mut locks: Vec<Location> = self.locks.values().copied().collect();
        locks.sort();
        for loc in locks {
            let zero = self.enc.bv_const(1, 0);
            self.eq.add_init_write(loc, zero);
        }
    }

    pub fn check(&mut self, kind: CheckKind, lit: Lit) {
        if self.enc.const_value(lit) == Some(false) {
            return;
        }
        self.checks.push(Check {
            kind,
            lit,
            loc: self.loc,
            thread: self.cur,
        });
    }

    /// Reports `msg` as reached when `lit` holds.
    pub fn unsupported_check(&mut self, msg: impl Into<String>, lit: Lit) {
        self.check(CheckKind::Unsupported(msg.into()), lit);
    }

    fn loop_bound(&self, func: FuncId, lp: LoopId) -> u32 {
        let key = format!("{}.{}", self.prog.funcs[func].name, lp.as_u32());
        self.opts
            .unwindset
            .get(&key)
            .copied()
            .unwrap_or(self.opts.unwind)
    }

    /// Inlines a call of `func`: returns the state after it returns and the returned value.
    pub fn call(
        &mut self,
        func: FuncId,
        args: Vec<Val>,
        mut st: State,
    ) -> Result<(State, Option<Val>), SymexError> {
        let f = &self.prog.funcs[func];
        let body = match &f.body {
            Some(b) => b,
            None => return unsupported(format!("call of {} without a body", f.name)),
        };
        let depth = self.call_stack.iter().filter(|&&g| g == func).count() as u32;
        if depth >= self.opts.unwind.max(1) {
            if self.opts.unwinding_assertions {
                self.check(CheckKind::Recursion(func), st.guard);
            }
            st.guard = self.enc.fls();
            return Ok((st, None));
        }
        let saved_frame = self.frame;
        self.frame = self.next_frame;
        self.next_frame += 1;
        self.call_stack.push(func);
        for (&p, a) in f.params.iter().zip(args) {
            let place = Place::var(p, self.prog.vars[p].ty);
            let g = st.guard;
            self.write_place(&place, a, g, &mut st)?;
        }

        let n = body.instrs.len();
        let mut pending: BTreeMap<usize, State> = BTreeMap::new();
        let mut cur: Option<State> = Some(st);
        let mut returned: Option<State> = None;
        let mut ret_vals: Vec<(Lit, Val)> = Vec::new();
        let mut counts: HashMap<LoopId, u32> = HashMap::new();
        let mut via_back = false;
        let mut pc = 0usize;
        loop {
            if let Some(p) = pending.remove(&pc) {
                match &mut cur {
                    Some(c) => c.merge(p, self.enc).or_else(unsupported)?,
                    None => cur = Some(p),
                }
            }
            let live = cur.as_ref().is_some_and(|c| !c.is_dead(self.enc));
            if !live || pc >= n {
                if pc >= n {
                    // Falling off the end of the body returns.
                    if let Some(c) = cur.take() {
                        merge_into(&mut returned, c, self.enc)?;
                    }
                }
                cur = None;
                match pending.keys().next() {
                    Some(&next) => {
                        pc = next;
                        via_back = false;
                        continue;
                    }
                    None => break,
                }
            }
            if self.opts.deadline.is_some_and(|d| Instant::now() > d) {
                return Err(SymexError::Timeout);
            }
            let mut s = cur.take().expect("live state");
            let id = InstrId::from_u32(pc as u32);
            let instr = &body.instrs[id];
            self.loc = instr.loc;
            if !via_back {
                for (lp, info) in body.loops.iter() {
                    if info.head == id {
                        counts.insert(lp, 0);
                    }
                }
            }
            via_back = false;
            match &instr.kind {
                InstrKind::Goto {
                    target,
                    cond,
                    back_edge,
                } => {
                    let c = match cond {
                        Some(e) => self.eval_cond(e, &mut s)?,
                        None => self.enc.tru(),
                    };
                    let g = s.guard;
                    let taken = self.enc.and(g, c);
                    let stay = self.enc.and(g, !c);
                    let target = target.as_u32() as usize;
                    if let Some(lp) = back_edge {
                        let count = counts.entry(*lp).or_insert(0);
                        if *count + 1 < self.loop_bound(func, *lp) {
                            *count += 1;
                            let mut fall = s.clone();
                            fall.guard = stay;
                            merge_pending(&mut pending, pc + 1, fall, self.enc)?;
                            s.guard = taken;
                            cur = Some(s);
                            pc = target;
                            via_back = true;
                            continue;
                        }
                        if self.opts.unwinding_assertions {
                            self.check(CheckKind::Unwind { func, lp: *lp }, taken);
                        }
                        s.guard = stay;
                    } else {
                        if target <= pc {
                            return unsupported("backward jump that is not a loop");
                        }
                        let mut jump = s.clone();
                        jump.guard = taken;
                        merge_pending(&mut pending, target, jump, self.enc)?;
                        s.guard = stay;
                    }
                    cur = Some(s);
                }
                InstrKind::Return(e) => {
                    if let Some(e) = e {
                        let v = self.eval(e, &mut s, None)?;
                        ret_vals.push((s.guard, v));
                    }
                    merge_into(&mut returned, s, self.enc)?;
                }
                InstrKind::Halt => {}
                InstrKind::ThreadExit(e) => {
                    let v = self.eval(e, &mut s, None)?;
                    let v = match v {
                        Val::Scalar(b) => self.resize(&b, self.mem.ptr_bits, false),
                        Val::Agg(_) => return unsupported("pthread_exit of an aggregate"),
                    };
                    self.exits.push((s.guard, v));
                }
                InstrKind::Call { dst, callee, args } => {
                    let s2 = self.exec_call(dst.as_ref(), callee, args, s)?;
                    cur = Some(s2);
                }
                kind => {
                    self.exec_simple(kind, &mut s)?;
                    cur = Some(s);
                }
            }
            pc += 1;
        }
        self.call_stack.pop();
        let frame = self.frame;
        self.frame = saved_frame;
        let mut out = match returned {
            Some(r) => r,
            None => State::new(self.enc.fls()),
        };
        out.vars.retain(|k, _| k.0 != frame);
        let ret = ret_vals.into_iter().reduce(|(ga, va), (gb, vb)| {
            let v = Val::ite(self.enc, gb, &vb, &va);
            (self.enc.or(ga, gb), v)
        });
        Ok((out, ret.map(|(_, v)| v)))
    }

    fn exec_call(
        &mut self,
        dst: Option<&Place>,
        callee: &Callee,
        args: &[Expr],
        mut s: State,
    ) -> Result<State, SymexError> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a, &mut s, None)?);
        }
        let targets: Vec<(FuncId, Lit)> = match callee {
            Callee::Direct(f) => vec![(*f, s.guard)],
            Callee::Indirect(e) => {
                let bits: Vec<Option<u32>> =
                    vals.iter().map(|v| v.scalar().map(|b| b.width())).collect();
                self.resolve_function_pointer(e, &bits, &mut s)?
            }
        };
        let mut result: Option<State> = None;
        for (f, g) in targets {
            let mut branch = s.clone();
            branch.guard = g;
            if self.prog.funcs[f].body.is_none() {
                // Policy for external functions, as for direct calls in the frontend.
                if let Some(d) = dst {
                    self.nondet_into(d, &mut branch)?;
                }
            } else {
                // Direct calls of atomic functions are wrapped by the frontend already.
                let indirect_atomic =
                    matches!(callee, Callee::Indirect(_)) && self.prog.funcs[f].atomic;
                let opened = indirect_atomic && self.open_atomic(&mut branch);
                let (mut after, ret) = self.call(f, vals.clone(), branch)?;
                self.close_atomic(&mut after, opened);
                if let (Some(d), Some(v)) = (dst, ret) {
                    let g = after.guard;
                    self.write_place(d, v, g, &mut after)?;
                }
                branch = after;
            }
            merge_into(&mut result, branch, self.enc)?;
        }
        Ok(result.unwrap_or_else(|| State::new(self.enc.fls())))
    }

    /// The functions a function pointer may name, each with the guard under which it does.
    /// Only functions whose parameters fit `arg_bits` are candidates; a call of anything else
    /// through the pointer is undefined and reported as unsupported.
    fn resolve_function_pointer(
        &mut self,
        e: &Expr,
        arg_bits: &[Option<u32>],
        s: &mut State,
    ) -> Result<Vec<(FuncId, Lit)>, SymexError> {
        let v = self.eval_scalar(e, s, None)?;
        let funcs = self.func_objects();
        let mut out = Vec::new();
        let mut hits = Vec::new();
        for (f, o) in funcs {
            if !self.fits(f, arg_bits) {
                continue;
            }
            let k = self.enc.bv_const(v.width(), self.mem.pointer(o, 0));
            let hit = self.enc.bv_eq(&v, &k);
            let g = self.enc.and(s.guard, hit);
            if self.enc.const_value(g) != Some(false) {
                out.push((f, g));
                hits.push(hit);
            }
        }
        let any = self.enc.or_all(&hits);
        let miss = self.enc.and(s.guard, !any);
        self.unsupported_check(
            "call through a pointer to no function of a fitting type",
            miss,
        );
        Ok(out)
    }

    /// Whether `f` has a body and parameters of the given widths (None: an aggregate).
    fn fits(&self, f: FuncId, arg_bits: &[Option<u32>]) -> bool {
        let func = &self.prog.funcs[f];
        func.body.is_some()
            && func.params.len() == arg_bits.len()
            && func.params.iter().zip(arg_bits).all(|(&p, b)| {
                let ty = self.prog.vars[p].ty;
                let pb = self
                    .prog
                    .types
                    .is_scalar(ty)
                    .then(|| self.prog.types.bits(ty));
                pb == *b
            })
    }

    /// Instructions that neither jump nor call.
    fn exec_simple(&mut self, kind: &InstrKind, s: &mut State) -> Result<(), SymexError> {
        match kind {
            InstrKind::Skip => {}
            InstrKind::Decl(v) => self.declare(*v, s)?,
            InstrKind::Assign { dst, src } => {
                let v = self.eval(src, s, None)?;
                let g = s.guard;
                self.write_place(dst, v, g, s)?;
            }
            InstrKind::Nondet { dst } => self.nondet_into(dst, s)?,
            InstrKind::Assume(c) => {
                let c = self.eval_cond(c, s)?;
                s.guard = self.enc.and(s.guard, c);
            }
            InstrKind::Assert { cond, prop } => {
                let c = self.eval_cond(cond, s)?;
                let bad = self.enc.and(s.guard, !c);
                self.check(CheckKind::Property(*prop), bad);
                s.guard = self.enc.and(s.guard, c);
            }
            InstrKind::ThreadCreate { handle, entry, arg } => {
                let a = self.eval(arg, s, None)?;
                let entries = match entry {
                    Callee::Direct(f) => vec![(*f, s.guard)],
                    Callee::Indirect(e) => {
                        let bits = [a.scalar().map(|b| b.width())];
                        self.resolve_function_pointer(e, &bits, s)?
                    }
                };
                let bits = self.prog.types.bits(handle.ty);
                // The handle only matters where the path's guard holds: the last candidate is
                // the default, so a direct create stores a constant.
                let mut hv: Option<BitVec> = None;
                let atomic = s.block();
                for (f, g) in entries.into_iter().rev() {
                    let child = self.eq.add_thread();
                    self.eq.add_create(self.cur, child, g, atomic);
                    let number = self.spawn(child, f, Some(a.clone()), g, self.loc)?;
                    let k = self.enc.bv_const(bits, number as u64);
                    hv = Some(match hv {
                        None => k,
                        Some(other) => self.enc.bv_ite(g, &k, &other),
                    });
                }
                let hv = hv.unwrap_or_else(|| self.enc.bv_fresh(bits));
                let g = s.guard;
                self.write_place(handle, Val::Scalar(hv), g, s)?;
            }
            InstrKind::ThreadJoin { thread, retval } => self.join(thread, retval.as_ref(), s)?,
            InstrKind::ThreadSelf { dst } => {
                let bits = self.prog.types.bits(dst.ty);
                let v = self.enc.bv_const(bits, self.cur_number as u64);
                let g = s.guard;
                self.write_place(dst, Val::Scalar(v), g, s)?;
            }
            InstrKind::AtomicBegin => match &mut s.atomic {
                Some((_, d)) => *d += 1,
                None => s.atomic = Some((self.eq.new_atomic_block(), 1)),
            },
            InstrKind::AtomicEnd => match &mut s.atomic {
                Some((_, d)) if *d > 1 => *d -= 1,
                Some(_) => s.atomic = None,
                None => return unsupported("atomic section end without a begin"),
            },
            InstrKind::MutexInit(m) => {
                let zero = self.enc.bv_const(1, 0);
                self.lock_write(m, zero, s)?;
            }
            InstrKind::MutexLock(m) => self.lock(m, s)?,
            InstrKind::MutexUnlock(m) => {
                let zero = self.enc.bv_const(1, 0);
                self.lock_write(m, zero, s)?;
            }
            InstrKind::MutexTryLock { mutex, dst } => self.trylock(mutex, dst.as_ref(), s)?,
            InstrKind::CondWait { cond: _, mutex } => {
                // POSIX allows spurious wake-ups: waiting is unlocking and locking again.
                let zero = self.enc.bv_const(1, 0);
                self.lock_write(mutex, zero, s)?;
                self.lock(mutex, s)?;
            }
            InstrKind::MutexDestroy(_)
            | InstrKind::CondInit(_)
            | InstrKind::CondSignal(_)
            | InstrKind::CondBroadcast(_)
            | InstrKind::CondDestroy(_)
            | InstrKind::Free(_) => {}
            InstrKind::Alloc {
                dst,
                size,
                zeroed,
                site,
            } => self.alloc(dst.as_ref(), size, *zeroed, site.as_u32(), s)?,
            InstrKind::Memset { dst, byte, len } => self.memset(dst, byte, len, s)?,
            InstrKind::Memcpy { dst, src, len } => self.memcpy(dst, src, len, s)?,
            InstrKind::Goto { .. }
            | InstrKind::Call { .. }
            | InstrKind::Return(_)
            | InstrKind::Halt
            | InstrKind::ThreadExit(_) => unreachable!("handled by the body loop"),
        }
        Ok(())
    }

    fn declare(&mut self, v: VarId, s: &mut State) -> Result<(), SymexError> {
        let var = &self.prog.vars[v];
        let ty = var.ty;
        if self.is_memory_var(v) {
            let key = (self.frame, v);
            if self.local_obj.contains_key(&key) {
                // A new lifetime of the same object: its value is indeterminate again.
                let place = Place::var(v, ty);
                self.nondet_value_into(&place, s, false)?;
            }
            // The first lifetime starts from the object's nondet initial value.
            self.obj_of_var(v)?;
        } else {
            let val = self.fresh_value(ty)?;
            s.vars.insert((self.frame, v), val);
        }
        Ok(())
    }

    pub fn zero_value(&mut self, ty: crate::ir::TypeId) -> Result<Val, SymexError> {
        let types = &self.prog.types;
        let aggregate = matches!(types.get(ty), Type::Array { .. } | Type::Struct(_));
        let leaves = super::memory::leaves(types, ty).or_else(unsupported)?;
        let vals = leaves
            .into_iter()
            .map(|(o, b)| (o, self.enc.bv_const(b, 0)))
            .collect();
        Ok(Val::from_leaves(vals, aggregate))
    }

    pub fn fresh_value(&mut self, ty: crate::ir::TypeId) -> Result<Val, SymexError> {
        let types = &self.prog.types;
        let aggregate = matches!(types.get(ty), Type::Array { .. } | Type::Struct(_));
        let leaves = super::memory::leaves(types, ty).or_else(unsupported)?;
        let bools = super::memory::bool_offsets(types, ty);
        let vals = leaves
            .into_iter()
            .map(|(o, b)| {
                // A `_Bool` holds 0 or 1 only: its other bits are zero.
                let v = if bools.contains(&o) {
                    let bit = self.enc.bv_fresh(1);
                    self.enc.bv_zero_extend(&bit, b)
                } else {
                    self.enc.bv_fresh(b)
                };
                (o, v)
            })
            .collect();
        Ok(Val::from_leaves(vals, aggregate))
    }

    fn nondet_into(&mut self, dst: &Place, s: &mut State) -> Result<(), SymexError> {
        self.nondet_value_into(dst, s, true)
    }

    fn nondet_value_into(
        &mut self,
        dst: &Place,
        s: &mut State,
        record: bool,
    ) -> Result<(), SymexError> {
        let v = self.fresh_value(dst.ty)?;
        if record {
            if let Val::Scalar(b) = &v {
                self.nondets.push(NondetInput {
                    thread: self.cur,
                    loc: self.loc,
                    guard: s.guard,
                    value: b.clone(),
                    signed: self.prog.types.is_signed(dst.ty),
                });
            }
        }
        let g = s.guard;
        self.write_place(dst, v, g, s)
    }

    fn ancestors(&self, mut t: usize) -> Vec<usize> {
        let mut out = Vec::new();
        while let Some(p) = self.threads[t].parent {
            out.push(p);
            t = p;
        }
        out
    }

    fn join(
        &mut self,
        thread: &Expr,
        retval: Option<&Expr>,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let v = self.eval_scalar(thread, s, None)?;
        let g = s.guard;
        let atomic = s.block();
        let mut oks = Vec::new();
        let mut hits = Vec::new();
        let mut rets: Vec<(Lit, BitVec)> = Vec::new();
        let ancestors = self.ancestors(self.cur_number as usize);
        for k in 0..self.threads.len() {
            // A thread never joins itself or a thread that created it: such a join would wait
            // for its own end. Those values are reported below as unresolved.
            if k as u32 == self.cur_number || ancestors.contains(&k) {
                continue;
            }
            let kc = self.enc.bv_const(v.width(), k as u64);
            let hit = self.enc.bv_eq(&v, &kc);
            let jg = self.enc.and(g, hit);
            if self.enc.const_value(jg) == Some(false) {
                continue;
            }
            let t = &self.threads[k];
            let (child, done, ret) = (t.info.thread, t.done, t.ret.clone());
            self.eq.add_join(self.cur, child, jg, atomic);
            let ok = self.enc.and(jg, done);
            oks.push(ok);
            hits.push(hit);
            rets.push((hit, ret));
        }
        let any = self.enc.or_all(&hits);
        let miss = self.enc.and(g, !any);
        self.unsupported_check("pthread_join of a thread that is not known here", miss);
        s.guard = self.enc.or_all(&oks);
        if let Some(rp) = retval {
            let p = self.eval_scalar(rp, s, None)?;
            let is_null = {
                let z = self.enc.bv_const(p.width(), 0);
                self.enc.bv_eq(&p, &z)
            };
            if self.enc.const_value(is_null) != Some(true) {
                let mut val = self.enc.bv_fresh(self.mem.ptr_bits);
                for (hit, r) in rets {
                    val = self.enc.bv_ite(hit, &r, &val);
                }
                let g = self.enc.and(s.guard, !is_null);
                self.store_through(&p, 0, Val::Scalar(val), self.mem.ptr_bits, g, s)?;
            }
        }
        Ok(())
    }

    /// The lock-state locations a mutex pointer may designate, each with its condition.
    fn lock_targets(
        &mut self,
        m: &Expr,
        s: &mut State,
    ) -> Result<Vec<(Location, Lit)>, SymexError> {
        let p = self.eval_scalar(m, s, None)?;
        let off_bits = self.mem.off_bits();
        let mut out = Vec::new();
        if let Some(c) = self.enc.bv_const_value(&p) {
            let obj = ObjId::from_u32((c >> off_bits) as u32);
            let off = c & ((1u64 << off_bits) - 1);
            if obj.index() == 0 || obj.index() >= self.mem.objects.len() {
                self.unsupported_check("mutex operation on an invalid pointer", s.guard);
                return Ok(out);
            }
            out.push((self.lock_loc(obj, off), s.guard));
            return Ok(out);
        }
        // A symbolic mutex pointer: any object of the program at any offset where a lock is
        // known, or where an object holds a pthread_mutex_t (its start).
        let mut keys: Vec<(ObjId, u64)> = self.locks.keys().copied().collect();
        for (i, &o) in &self.id_of {
            if matches!(i, ObjIdent::Global(_)) {
                keys.push((o, 0));
            }
        }
        keys.sort();
        keys.dedup();
        let mut hits = Vec::new();
        for (o, off) in keys {
            let k = self.enc.bv_const(p.width(), self.mem.pointer(o, off));
            let hit = self.enc.bv_eq(&p, &k);
            let g = self.enc.and(s.guard, hit);
            if self.enc.const_value(g) == Some(false) {
                continue;
            }
            hits.push(hit);
            out.push((self.lock_loc(o, off), g));
        }
        let any = self.enc.or_all(&hits);
        let miss = self.enc.and(s.guard, !any);
        self.unsupported_check("mutex pointer that cannot be resolved", miss);
        Ok(out)
    }

    fn lock_loc(&mut self, obj: ObjId, off: u64) -> Location {
        if let Some(&l) = self.locks.get(&(obj, off)) {
            return l;
        }
        let name = format!("lock({}+{off})", self.mem.objects[obj].name);
        let l = self.eq.add_location(name);
        self.locks.insert((obj, off), l);
        l
    }

    fn lock_write(&mut self, m: &Expr, value: BitVec, s: &mut State) -> Result<(), SymexError> {
        for (loc, g) in self.lock_targets(m, s)? {
            self.emit_write(loc, g, value.clone(), s);
        }
        Ok(())
    }

    /// Acquire: atomically, the lock is read free and written taken; the thread blocks
    /// (its guard requires the free read) otherwise.
    fn lock(&mut self, m: &Expr, s: &mut State) -> Result<(), SymexError> {
        let opened = self.open_atomic(s);
        let mut acquired = Vec::new();
        for (loc, g) in self.lock_targets(m, s)? {
            let v = self.emit_read(loc, g, 1, s);
            let free = !v.bit(0);
            let ok = self.enc.and(g, free);
            let one = self.enc.bv_const(1, 1);
            self.emit_write(loc, ok, one, s);
            acquired.push(ok);
        }
        s.guard = self.enc.or_all(&acquired);
        self.close_atomic(s, opened);
        Ok(())
    }

    fn trylock(&mut self, m: &Expr, dst: Option<&Place>, s: &mut State) -> Result<(), SymexError> {
        let opened = self.open_atomic(s);
        let mut got = Vec::new();
        for (loc, g) in self.lock_targets(m, s)? {
            let v = self.emit_read(loc, g, 1, s);
            let ok = self.enc.and(g, !v.bit(0));
            let one = self.enc.bv_const(1, 1);
            self.emit_write(loc, ok, one, s);
            got.push(ok);
        }
        self.close_atomic(s, opened);
        if let Some(d) = dst {
            let any = self.enc.or_all(&got);
            let bits = self.prog.types.bits(d.ty);
            let zero = self.enc.bv_const(bits, 0);
            let busy = self.enc.bv_const(bits, 16); // EBUSY
            let v = self.enc.bv_ite(any, &zero, &busy);
            let g = s.guard;
            self.write_place(d, Val::Scalar(v), g, s)?;
        }
        Ok(())
    }

    fn open_atomic(&mut self, s: &mut State) -> bool {
        if s.atomic.is_none() {
            s.atomic = Some((self.eq.new_atomic_block(), 1));
            true
        } else {
            false
        }
    }

    fn close_atomic(&mut self, s: &mut State, opened: bool) {
        if opened {
            s.atomic = None;
        }
    }

    fn alloc(
        &mut self,
        dst: Option<&Place>,
        size: &Expr,
        zeroed: bool,
        site: u32,
        s: &mut State,
    ) -> Result<(), SymexError> {
        let sz = self.eval_scalar(size, s, None)?;
        let Some(n) = self.enc.bv_const_value(&sz) else {
            return unsupported("malloc of a size that is not constant");
        };
        let name = format!("heap{}#{}", site, self.mem.objects.len());
        let init = if zeroed {
            InitValue::Zero
        } else {
            InitValue::Nondet
        };
        // Typed by the pointer it is assigned to, when the size fits that type.
        let types = &self.prog.types;
        let leaves = dst
            .and_then(|d| types.pointee(d.ty))
            .and_then(|t| {
                let es = types.size_of(t)?;
                (es > 0 && n % es == 0).then_some((t, n / es, es))
            })
            .and_then(|(t, k, es)| {
                let inner = super::memory::leaves(types, t).ok()?;
                Some(
                    (0..k)
                        .flat_map(|i| inner.iter().map(move |&(o, b)| (i * es + o, b)))
                        .collect::<Vec<_>>(),
                )
            });
        let obj = self.dynamic_object(
            ObjTag::Heap(site),
            Object {
                name,
                kind: ObjKind::Heap,
                size: n,
                leaves,
                init,
                cells: Default::default(),
            },
        )?;
        if let Some(d) = dst {
            let bits = self.prog.types.bits(d.ty);
            let p = self.enc.bv_const(bits, self.mem.pointer(obj, 0));
            let g = s.guard;
            self.write_place(d, Val::Scalar(p), g, s)?;
        }
        Ok(())
    }

    pub fn is_memory_var(&self, v: VarId) -> bool {
        let var = &self.prog.vars[v];
        match var.kind {
            VarKind::Global | VarKind::StaticLocal(_) => !var.thread_local,
            VarKind::Param(_) | VarKind::Local(_) => var.address_taken,
            VarKind::Temp(_) => false,
        }
    }

    /// The state key of a thread-private variable in the current frame.
    pub fn var_key(&self, v: VarId) -> VarKey {
        match self.prog.vars[v].kind {
            VarKind::Global | VarKind::StaticLocal(_) => (THREAD_FRAME, v),
            _ => (self.frame, v),
        }
    }

    /// The object of a memory variable (made on first use for address-taken locals).
    pub fn obj_of_var(&mut self, v: VarId) -> Result<ObjId, SymexError> {
        let var = &self.prog.vars[v];
        if var.is_global() {
            if var.thread_local {
                return unsupported(format!(
                    "address of thread-local variable {}",
                    var.source_name
                ));
            }
            let name = var.name.clone();
            let ty = var.ty;
            return self.object(ObjIdent::Global(v), |sx| {
                Ok(sx.object_template(&name, ty, ObjKind::Global, InitValue::Static))
            });
        }
        let key = (self.frame, v);
        if let Some(&o) = self.local_obj.get(&key) {
            return Ok(o);
        }
        let var = &self.prog.vars[v];
        let name = format!("{}@{}", var.name, self.frame);
        let types = &self.prog.types;
        let obj = Object {
            name,
            kind: ObjKind::Local,
            size: types.size_of(var.ty).unwrap_or(0),
            leaves: super::memory::leaves(types, var.ty).ok(),
            init: InitValue::Nondet,
            cells: Default::default(),
        };
        let o = self.dynamic_object(ObjTag::Local(v), obj)?;
        self.local_obj.insert(key, o);
        Ok(o)
    }

    /// Makes (or finds, when an earlier run made it) a heap object or address-taken local.
    fn dynamic_object(&mut self, tag: ObjTag, obj: Object) -> Result<ObjId, SymexError> {
        let occ = self.occurrences.entry((self.cur_number, tag)).or_insert(0);
        let key = ObjKey {
            thread: self.cur_number,
            tag,
            occurrence: *occ,
        };
        *occ += 1;
        let size = obj.size;
        let id = self.object(ObjIdent::Dynamic(key), |_| Ok(obj))?;
        if self.mem.objects[id].size != size {
            return unsupported("object whose size differs between runs");
        }
        Ok(id)
    }

    /// Bit-vector resized to `bits`, extending by `signed`.
    pub fn resize(&mut self, v: &BitVec, bits: u32, signed: bool) -> BitVec {
        use std::cmp::Ordering::*;
        match v.width().cmp(&bits) {
            Equal => v.clone(),
            Greater => self.enc.bv_truncate(v, bits),
            Less if signed => self.enc.bv_sign_extend(v, bits),
            Less => self.enc.bv_zero_extend(v, bits),
        }
    }
}

fn merge_pending(
    pending: &mut BTreeMap<usize, State>,
    at: usize,
    st: State,
    enc: &mut Encoder,
) -> Result<(), SymexError> {
    if st.is_dead(enc) {
        return Ok(());
    }
    match pending.get_mut(&at) {
        Some(p) => p.merge(st, enc).or_else(unsupported),
        None => {
            pending.insert(at, st);
            Ok(())
        }
    }
}

fn merge_into(slot: &mut Option<State>, st: State, enc: &mut Encoder) -> Result<(), SymexError> {
    match slot {
        Some(p) => p.merge(st, enc).or_else(unsupported),
        None => {
            *slot = Some(st);
            Ok(())
        }
    }
}
