//! Constrained DPOR (Albert, Gómez-Zamalloa, Isabel, Rubio, CAV 2018): independence
//! constraints that make two dependent steps commute in the current state.
//!
//! Our constraints are evaluated, not synthesised: two steps α, β commute in a state s when
//! running α·β and β·α from s ends in the same state (memory, threads, locks) and neither
//! step synchronises (a lock, a creation, a thread's end). Commuting in s is not enough, since
//! a third thread may change s first (in the paper's Example 4 that loses the only violating
//! order). So a pair counts as independent only under *transitive uniformity*: no location
//! the two executions depend on — every location either order reads, and every location only
//! one order writes — may be written by any other live thread from its current position on
//! (its static write footprint, including the callees and the threads it may create). Then
//! every state the other threads can lead to agrees with s on everything the two orders
//! read, so both orders run alike there and still end equal: the condition of the paper's
//! Theorem 1.
//!
//! Used for the sleep-set extension (the paper's line 17): a sleeping thread whose next step
//! commutes uniformly with the step taken stays asleep, since every run through the step and
//! then that thread ends in a state a run through the thread first already reached. The
//! paper's back-set reduction (line 9, dropping such races altogether) is not used: with
//! dynamic access sets it loses the violation of the paper's own example from z = -1 (the
//! q/r race commutes after p, the p/r race after q, and r.q.p is never run), which the
//! explorer tests check.
//!
//! Footprints are per state: a step's accesses are what it does in the state it runs from
//! (an atomic section's accesses follow the values it reads). A sleep-set entry holds the
//! accesses of the thread's next step *in the state of its node*: an entry kept because it
//! does not conflict with the step taken is still exact below it (the step taken wrote
//! nothing the sleeping step reads, so that step runs alike), and an entry kept by the
//! extension gets the accesses its step has after the step taken (the second half of the
//! order the commutation check ran), not those it had before. So every later conflict test
//! of the entry is against what the sleeping thread would really do there, and the dependency
//! of the search (races, backtrack sets) is source-DPOR's on the accesses actually made.

use std::collections::{BTreeSet, HashMap};

use super::hb::Event;
use super::Node;
use crate::explore::findings::ExploreStats;
use crate::explore::interp::{Access, Machine, Target};
use crate::explore::sched::{self, Step};
use crate::ir::{FuncId, InstrId, InstrKind, Place, PlaceBase, Program, VarId};

/// What code may write.
#[derive(Clone, Debug, Default)]
struct Writes {
    globals: BTreeSet<VarId>,
    /// Objects that are not globals (address-taken locals, the heap).
    locals: bool,
    /// Anything (a write through a pointer).
    anything: bool,
    /// Mutexes, the thread table.
    sync: bool,
}

impl Writes {
    fn place(&mut self, prog: &Program, p: &Place) {
        match &p.base {
            PlaceBase::Deref(_) => self.anything = true,
            PlaceBase::Var(v) => {
                let d = &prog.vars[*v];
                if d.is_global() && !d.thread_local {
                    self.globals.insert(*v);
                } else if d.address_taken {
                    self.locals = true;
                }
            }
        }
    }
    fn add(&mut self, o: &Writes) {
        self.globals.extend(o.globals.iter().copied());
        self.locals |= o.locals;
        self.anything |= o.anything;
        self.sync |= o.sync;
    }
    /// Whether this may write the target.
    fn may_write(&self, m: &Machine, t: &Target) -> bool {
        match t {
            Target::Mem { obj, .. } => {
                self.anything
                    || match m.global_of(*obj) {
                        Some(v) => self.globals.contains(&v),
                        None => self.locals,
                    }
            }
            _ => true,
        }
    }
}

/// Whether two steps commute.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Commute {
    No,
    /// In the state at hand only.
    Here,
    /// In the state at hand and every state the other threads can lead to.
    Uniformly,
}

/// Static write footprints of the program's code.
pub struct Context<'p> {
    prog: &'p Program,
    /// Per function: what its instructions write directly, the functions it calls or starts.
    direct: HashMap<FuncId, (Writes, Vec<FuncId>)>,
}

impl<'p> Context<'p> {
    pub fn new(prog: &'p Program) -> Context<'p> {
        let mut direct = HashMap::new();
        for (f, _, body) in prog.defined_funcs() {
            let mut w = Writes::default();
            let mut calls = Vec::new();
            for i in body.instrs.values() {
                instr_writes(prog, &i.kind, &mut w, &mut calls);
            }
            direct.insert(f, (w, calls));
        }
        Context { prog, direct }
    }

    /// What `f` and everything it calls or starts may write.
    fn closure(&self, f: FuncId, out: &mut Writes, seen: &mut BTreeSet<FuncId>) {
        if !seen.insert(f) {
            return;
        }
        if let Some((w, calls)) = self.direct.get(&f) {
            out.add(w);
            for &g in calls {
                self.closure(g, out, seen);
            }
        }
    }

    /// What thread `t` may still write from where it is (the instructions reachable from
    /// each frame's position, their callees and the threads they may start).
    fn remaining(&self, m: &Machine, t: usize) -> Writes {
        let mut out = Writes::default();
        let mut seen = BTreeSet::new();
        for (f, pc) in m.frames(t) {
            let Some(body) = self.prog.funcs[f].body.as_ref() else {
                continue;
            };
            let mut todo = vec![pc];
            let mut reach: BTreeSet<InstrId> = BTreeSet::new();
            while let Some(i) = todo.pop() {
                if (i.as_u32() as usize) < body.instrs.len() && reach.insert(i) {
                    todo.extend(body.successors(i));
                }
            }
            let mut calls = Vec::new();
            for i in reach {
                instr_writes(self.prog, &body.instrs[i].kind, &mut out, &mut calls);
            }
            for g in calls {
                self.closure(g, &mut out, &mut seen);
            }
        }
        out
    }

    /// Sleep-set extension: an entry that conflicts with `n` stays asleep when its step and
    /// `n` commute uniformly in the node's state; it keeps the accesses its step has after
    /// `n`.
    pub(super) fn extend_sleep(
        &self,
        s: &Machine,
        node: &Node,
        n: &Event,
        sleep: &mut Vec<(usize, Vec<Access>)>,
        stats: &mut ExploreStats,
    ) {
        for (q, acc) in &node.sleep {
            if sleep.iter().any(|(x, _)| x == q) || !sched::conflict(acc, &n.step.accesses) {
                continue;
            }
            // In a concolic run the state stands for every input on its path condition: the
            // probes must not make a decision it leaves open (their outcome, and whether the
            // two orders end equal, could differ for other inputs). Their decisions are not
            // the run's: the path condition is put back after them.
            let pc = s.concolic().map(|h| h.borrow().log.len());
            let mut m = s.clone();
            let verdict = match sched::run_step(&mut m, *q, &[]) {
                Ok(step) if step.choices.is_empty() => Some(self.commute(s, &step, &n.step)),
                _ => None,
            };
            let mut open = false;
            if let (Some(h), Some(pc)) = (s.concolic(), pc) {
                let mut k = h.borrow_mut();
                open = k.log.len() > pc;
                k.truncate(pc);
            }
            if let (false, Some((Commute::Uniformly, Some(after)))) = (open, verdict) {
                sleep.push((*q, after));
                stats.constrained += 1;
            }
        }
    }

    /// Whether steps `a` and `b` (of two threads) commute in `s`, and whether also in every
    /// state the other live threads can lead to from `s` (transitive uniformity); with the
    /// accesses of `a`'s thread's step when it runs after `b`.
    fn commute(&self, s: &Machine, a: &Step, b: &Step) -> (Commute, Option<Vec<Access>>) {
        let syncs = |x: &Step| {
            x.acquire.is_some()
                || x.release.is_some()
                || !x.created.is_empty()
                || x.end.is_some()
                || x.accesses.iter().any(|a| {
                    !matches!(
                        a.target,
                        Target::Mem { .. } | Target::Everything | Target::Globals
                    )
                })
        };
        if syncs(a) || syncs(b) || a.thread == b.thread {
            return (Commute::No, None);
        }
        let run = |first: &Step, second: &Step| -> Option<(Machine, Vec<Access>, Vec<Access>)> {
            let mut m = s.clone();
            let x = sched::run_step(&mut m, first.thread, &choices(first)).ok()?;
            let y = sched::run_step(&mut m, second.thread, &choices(second)).ok()?;
            if x.end.is_some() || y.end.is_some() || syncs(&x) || syncs(&y) {
                return None;
            }
            let mut acc = x.accesses;
            acc.extend(y.accesses.iter().copied());
            Some((m, acc, y.accesses))
        };
        let (Some((m1, acc1, _)), Some((m2, acc2, a_after))) = (run(a, b), run(b, a)) else {
            return (Commute::No, None);
        };
        if !m1.same_state(&m2) {
            return (Commute::No, None);
        }
        // What the two orders depend on: their reads, and what only one of them writes.
        let written = |acc: &[Access]| -> Vec<Target> {
            acc.iter().filter(|x| x.write).map(|x| x.target).collect()
        };
        let (w1, w2) = (written(&acc1), written(&acc2));
        let depends: Vec<Target> = acc1
            .iter()
            .chain(&acc2)
            .filter(|x| !x.write)
            .map(|x| x.target)
            .chain(w1.iter().filter(|t| !w2.contains(t)).copied())
            .chain(w2.iter().filter(|t| !w1.contains(t)).copied())
            .collect();
        let uniform = (0..s.num_threads())
            .filter(|&t| t != a.thread && t != b.thread && !s.is_over(t))
            .all(|t| {
                let w = self.remaining(s, t);
                !depends.iter().any(|d| w.may_write(s, d))
            });
        if uniform {
            (Commute::Uniformly, Some(a_after))
        } else {
            (Commute::Here, None)
        }
    }
}

/// The nondet values a step took.
fn choices(s: &Step) -> Vec<u64> {
    s.choices.iter().map(|c| c.value).collect()
}

fn instr_writes(prog: &Program, k: &InstrKind, w: &mut Writes, calls: &mut Vec<FuncId>) {
    match k {
        InstrKind::Assign { dst, .. } | InstrKind::Nondet { dst } => w.place(prog, dst),
        InstrKind::ThreadSelf { dst } => w.place(prog, dst),
        InstrKind::Alloc { dst, .. } => {
            if let Some(d) = dst {
                w.place(prog, d);
            }
            w.locals = true;
        }
        InstrKind::Call { dst, callee, .. } => {
            if let Some(d) = dst {
                w.place(prog, d);
            }
            match callee {
                crate::ir::Callee::Direct(g) => calls.push(*g),
                crate::ir::Callee::Indirect(_) => w.anything = true,
            }
        }
        InstrKind::ThreadCreate { handle, entry, .. } => {
            w.place(prog, handle);
            w.sync = true;
            match entry {
                crate::ir::Callee::Direct(g) => calls.push(*g),
                crate::ir::Callee::Indirect(_) => w.anything = true,
            }
        }
        InstrKind::ThreadJoin {
            retval: Some(_), ..
        } => w.anything = true,
        InstrKind::Free(_) | InstrKind::Memset { .. } | InstrKind::Memcpy { .. } => {
            w.anything = true
        }
        InstrKind::MutexInit(_)
        | InstrKind::MutexLock(_)
        | InstrKind::MutexUnlock(_)
        | InstrKind::MutexTryLock { .. }
        | InstrKind::MutexDestroy(_)
        | InstrKind::CondWait { .. } => {
            w.sync = true;
            if let InstrKind::MutexTryLock { dst: Some(d), .. } = k {
                w.place(prog, d);
            }
        }
        InstrKind::Return(_) => w.locals = true,
        _ => {}
    }
}
