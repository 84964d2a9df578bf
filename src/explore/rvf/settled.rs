//! Settled reads: the static form of the paper's backtrack signals.
//!
//! RVF-SMC processes the enabled reads of a node one after another; after a read r has been
//! processed, the paper stops the node when no descendant met a write to r's location that
//! the node did not have (a backtrack signal that never came: Lemma 1). That lemma is proved
//! for events that each read or write one location and never block; our events can do both
//! at once (an atomic step that reads x and writes y) and can block (locks, joins), and
//! with such events a write that only happens *before* the node's events can be the only way
//! for r to read something new while no descendant of r ever meets it. Example: thread t
//! runs `x = 1; r: a = y;`, thread q runs one atomic step `if (x == 0) y = 5`: processing r
//! first, r reads y = 0, and below it q's step can only read x = 1 and writes nothing; no
//! new write of y is ever met, yet the run where q's step comes first (and r reads 5) is
//! only reached through q's read at the node.
//!
//! What is kept is the lemma's conclusion in a form that can be decided before the
//! descendants are explored: a read is *settled* at a node when no thread can ever write
//! what it reads again, whatever it observes from here on. The node then processes that
//! read alone and none of its other reads.
//!
//! # Why that loses no run
//!
//! The parent module's completeness argument shows that a node may process any one of its
//! threads' next reads, as long as every run that fits the node contains it reading from
//! the node's extension X'. Let r be settled at the node: the next step of thread t, which
//! is runnable there and not inside an atomic section.
//! - Every write in a fitting run T to what r reads is an event of X': T's other events are
//!   later steps of the threads from their positions at the node (or of threads those
//!   create), and none of them writes it. So when T contains r, r reads from X' in T.
//! - When T does not contain r, put r right after t's last event in X' (t's creation when it
//!   has none there). r reads only registers and globals written by X' alone, so it reads
//!   from X' there; it writes nothing shared and does not block, so every other event
//!   observes what it did and T's end is still reached: the run T' fits the node and
//!   contains r. At worst r's step itself ends T' early or stops t. A failed assertion:
//!   r's child reports a violation. A failed assumption or an unasserted bound: only t
//!   stops. A trap or an asserted bound (the step runs on through t's register-only
//!   instructions, a loop's back edge included): T' would end there instead of at T's end
//!   (a violation would become an unknown), so the parent module then processes the node's
//!   other reads as well. No other thread is inside an atomic section there:
//!   t was runnable at that point in T, or, when only its creation is in X', the creator's
//!   section ends inside X' since t is runnable at the node.
//!
//! # When a read is settled
//!
//! Decided syntactically, so that it holds for every value the read can observe: the
//! thread's next instruction is an assignment to a register, an assumption, an assertion
//! or a jump (instructions that never write shared memory and never block; the step also
//! runs the thread's following instructions that touch only its own frame);
//! every place it reads is a register or a global variable whose address is never taken
//! (so it is written only by assignments that name it; an array element or a member of it
//! counts as the whole variable), and no thread can write any of those globals again. The
//! last part is a may-write analysis over the IR: for each instruction, the globals the
//! instructions reachable from it may write, calls included (a callee writes what its
//! whole body may write, and so does a thread it creates); an indirect call or thread
//! creation may write anything. A thread may write what its innermost frame may write from
//! where it is and what each outer frame may write from its return point on (the
//! instruction that called is counted too: the value a call returns is stored when it
//! returns).

use cranelift_entity::{EntityRef, SecondaryMap};

use crate::explore::interp::Machine;
use crate::ir::{Callee, Expr, ExprKind, FuncId, InstrKind, Place, PlaceBase, Program, VarId};

/// A set of the globals the analysis tracks, or every write.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Writes {
    any: bool,
    bits: Vec<u64>,
}

impl Writes {
    fn insert(&mut self, i: usize) {
        if self.bits.len() <= i / 64 {
            self.bits.resize(i / 64 + 1, 0);
        }
        self.bits[i / 64] |= 1 << (i % 64);
    }

    fn contains(&self, i: usize) -> bool {
        self.any
            || self
                .bits
                .get(i / 64)
                .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds `o`; true when something was new.
    fn union(&mut self, o: &Writes) -> bool {
        let mut changed = false;
        if o.any && !self.any {
            self.any = true;
            changed = true;
        }
        if self.bits.len() < o.bits.len() {
            self.bits.resize(o.bits.len(), 0);
        }
        for (a, b) in self.bits.iter_mut().zip(&o.bits) {
            if *a | b != *a {
                *a |= b;
                changed = true;
            }
        }
        changed
    }
}

/// The may-write analysis of one program.
pub struct Settled<'p> {
    prog: &'p Program,
    /// Dense index of every global the analysis tracks (shared, address never taken).
    index: SecondaryMap<VarId, Option<u32>>,
    /// Per function and instruction: what the instruction itself may write (calls and thread
    /// creations included).
    at: SecondaryMap<FuncId, Vec<Writes>>,
    /// Per function and instruction: what the instructions reachable from it may write.
    from: SecondaryMap<FuncId, Vec<Writes>>,
}

impl<'p> Settled<'p> {
    pub fn of(prog: &'p Program) -> Settled<'p> {
        let mut index: SecondaryMap<VarId, Option<u32>> = SecondaryMap::new();
        let mut n = 0u32;
        for (v, d) in prog.vars.iter() {
            if d.is_global() && !d.thread_local && !d.address_taken {
                index[v] = Some(n);
                n += 1;
            }
        }
        let mut s = Settled {
            prog,
            index,
            at: SecondaryMap::new(),
            from: SecondaryMap::new(),
        };
        // What each instruction writes by itself, and whom it calls or starts.
        let mut calls: SecondaryMap<FuncId, Vec<Vec<FuncId>>> = SecondaryMap::new();
        for (f, func) in prog.funcs.iter() {
            let Some(body) = &func.body else { continue };
            let mut at = Vec::with_capacity(body.instrs.len());
            let mut cs = Vec::with_capacity(body.instrs.len());
            for (_, instr) in body.instrs.iter() {
                let (w, c) = s.own_writes(&instr.kind);
                at.push(w);
                cs.push(c);
            }
            s.at[f] = at;
            calls[f] = cs;
        }
        // What each function's whole body may write, callees included (a fixpoint: calls
        // may be recursive).
        let mut whole: SecondaryMap<FuncId, Writes> = SecondaryMap::new();
        loop {
            let mut changed = false;
            for (f, _) in prog.funcs.iter() {
                let mut w = whole[f].clone();
                for (i, own) in s.at[f].iter().enumerate() {
                    w.union(own);
                    for &g in &calls[f][i] {
                        let callee = whole[g].clone();
                        w.union(&callee);
                    }
                }
                if whole[f].union(&w) {
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (f, cs) in calls.iter() {
            for (i, c) in cs.iter().enumerate() {
                for &g in c {
                    let callee = whole[g].clone();
                    s.at[f][i].union(&callee);
                }
            }
        }
        // What may be written from each instruction on (a backward fixpoint per function).
        for (f, func) in prog.funcs.iter() {
            let Some(body) = &func.body else { continue };
            let mut from = s.at[f].clone();
            loop {
                let mut changed = false;
                for (i, _) in body.instrs.iter().rev() {
                    for succ in body.successors(i) {
                        let later = from[succ.index()].clone();
                        if from[i.index()].union(&later) {
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            s.from[f] = from;
        }
        s
    }

    /// What one instruction writes itself, and the functions it calls or starts (an
    /// indirect one: every write).
    fn own_writes(&self, kind: &InstrKind) -> (Writes, Vec<FuncId>) {
        let mut w = Writes::default();
        let mut calls = Vec::new();
        let place = |p: &Place, w: &mut Writes| {
            if let PlaceBase::Var(v) = p.base {
                if let Some(i) = self.index[v] {
                    w.insert(i as usize);
                }
            }
        };
        let mut callee = |c: &Callee, w: &mut Writes| match c {
            Callee::Direct(g) => calls.push(*g),
            Callee::Indirect(_) => w.any = true,
        };
        match kind {
            InstrKind::Assign { dst, .. } | InstrKind::Nondet { dst } => place(dst, &mut w),
            InstrKind::ThreadSelf { dst } => place(dst, &mut w),
            InstrKind::MutexTryLock { dst: Some(d), .. }
            | InstrKind::Alloc { dst: Some(d), .. } => place(d, &mut w),
            InstrKind::Call { dst, callee: c, .. } => {
                if let Some(d) = dst {
                    place(d, &mut w);
                }
                callee(c, &mut w);
            }
            InstrKind::ThreadCreate { handle, entry, .. } => {
                place(handle, &mut w);
                callee(entry, &mut w);
            }
            InstrKind::Decl(v) => {
                if let Some(i) = self.index[*v] {
                    w.insert(i as usize);
                }
            }
            // An over-approximated stretch: nothing is known about it.
            InstrKind::Approximate(_) => w.any = true,
            _ => {}
        }
        (w, calls)
    }

    /// What the threads of `m` may still write: each frame's instructions from where it is,
    /// and for an outer frame the call it made (the result is stored on return).
    fn still_written(&self, m: &Machine) -> Writes {
        let mut w = Writes::default();
        for u in 0..m.num_threads() {
            let frames = m.frames(u);
            let inner = frames.len().saturating_sub(1);
            for (k, &(f, pc)) in frames.iter().enumerate() {
                let i = pc.index();
                match self.from[f].get(i) {
                    Some(from) => {
                        w.union(from);
                    }
                    None => w.any = true,
                }
                if k < inner && i > 0 {
                    w.union(&self.at[f][i - 1]);
                }
            }
        }
        w
    }

    /// The first thread of `m`, among those `allowed`, whose next step is a settled read
    /// (see the module doc). The threads' may-write set is computed once, and only when a
    /// thread's next instruction has the right form.
    pub fn settled_thread(&self, m: &Machine, allowed: impl Fn(usize) -> bool) -> Option<usize> {
        let mut still: Option<Writes> = None;
        m.runnable().into_iter().find(|&t| {
            if m.in_atomic(t) || m.opens_atomic(t) || !allowed(t) {
                return false;
            }
            let Some(globals) = self.globals_read(m, t) else {
                return false;
            };
            let still = still.get_or_insert_with(|| self.still_written(m));
            globals.iter().all(|&v| !still.contains(v))
        })
    }

    /// The tracked globals the next instruction of thread `t` reads, when it has the form of
    /// a settled read (the module doc) and reads at least one.
    fn globals_read(&self, m: &Machine, t: usize) -> Option<Vec<usize>> {
        let &(f, pc) = m.frames(t).last()?;
        let body = self.prog.funcs[f].body.as_ref()?;
        let kind = &body.instrs[pc].kind;
        let mut ok = true;
        let mut globals: Vec<usize> = Vec::new();
        let mut read = |e: &Expr| {
            if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &e.kind {
                match p.base {
                    PlaceBase::Deref(_) => ok = false,
                    PlaceBase::Var(v) => match self.index[v] {
                        Some(i) => globals.push(i as usize),
                        None if self.register(v) => {}
                        None => ok = false,
                    },
                }
            }
        };
        match kind {
            InstrKind::Assign { dst, src } => {
                if !matches!(dst.base, PlaceBase::Var(v) if self.register(v)) {
                    return None;
                }
                dst.walk(&mut read);
                src.walk(&mut read);
            }
            InstrKind::Assume(e) | InstrKind::Assert { cond: e, .. } => e.walk(&mut read),
            InstrKind::Goto { cond: Some(c), .. } => c.walk(&mut read),
            _ => return None,
        }
        (ok && !globals.is_empty()).then_some(globals)
    }

    /// A variable only its own frame can touch: a local whose address is never taken.
    fn register(&self, v: VarId) -> bool {
        let d = &self.prog.vars[v];
        !d.is_global() && !d.address_taken
    }
}
