//! The execution model of the paper (its Section 2): a state is the fetched events of every
//! thread, the committed ones among them, and the read-from and coherence choices of the
//! committed memory accesses. Threads fetch in program order but never past an uncommitted
//! branch; register assignments, branches and fences commit as soon as the registers they
//! read are known (the FLB steps); loads and stores commit one at a time in any order the
//! commit-before order allows, a load with the store it reads from as parameter, a store with
//! its position in the coherence order of its location.
//!
//! Commit-before (what must be committed before an access is enabled), POWER: the loads its
//! address and data come from (address and data dependencies), the branches before it (it is
//! not fetched before them: control dependencies), the loads any earlier access takes its
//! address from (`addr;po`), every earlier access to the same location (`po-loc`), every
//! access before a `sync` or `lwsync` that precedes it; a load also waits for the store it
//! reads (`rf`). This is the paper's `cb^power`. Under SC every earlier access of the thread
//! comes first (program order).

use std::rc::Rc;

use super::program::{Fence, Instr, Program, Reg};

/// An event: the `index`-th instruction instance `thread` fetched. Stable across runs with
/// the same earlier branch outcomes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventId {
    pub thread: u32,
    pub index: u32,
}

/// A store of the coherence order: the initial value of a location, or a committed store.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    Init(usize),
    Store(EventId),
}

/// The dependencies of an event.
#[derive(Clone, Debug)]
pub struct Deps {
    /// Per register read (in [`Instr::uses`] order), the event of this thread that defined
    /// it (none: the register's initial value).
    pub defs: Vec<Option<u32>>,
    /// Loads (indices in this thread) the address, the data (stored value, condition) come
    /// from, through registers.
    pub addr_loads: Vec<u32>,
    pub data_loads: Vec<u32>,
    /// Loads some earlier branch depends on (control dependency).
    pub ctrl: Vec<u32>,
    /// Loads some earlier branch depends on with an `isync` between it and this event.
    pub ctrl_isync: Vec<u32>,
    /// Loads an earlier access takes its address from (`addr;po`).
    pub addr_po: Vec<u32>,
}

/// One fetched event.
#[derive(Clone, Debug)]
pub struct Ev {
    pub pc: usize,
    pub committed: bool,
    /// Value read (load), written (store, assignment), condition (branch, assertion).
    pub value: i64,
    /// The location of an access, once its address is known.
    pub loc: Option<usize>,
    /// What the event depends on: fixed when it is fetched, shared by the copies of a state.
    pub deps: Rc<Deps>,
    /// Number of `sync`, `lwsync` before this event in the thread.
    pub syncs: u32,
    pub lwsyncs: u32,
    /// Index of the last event before this one that follows a `sync` or `lwsync` (accesses
    /// before `fence_at` must be committed first), 0 if none.
    pub fence_at: u32,
    /// A load's source.
    pub rf: Option<Src>,
}

/// One thread's part of the state.
#[derive(Clone, Debug)]
pub struct ThreadState {
    pub events: Vec<Ev>,
    /// The next instruction to fetch (None: waiting for the last branch to commit).
    pub next_pc: Option<usize>,
    /// The thread stopped (a failed assertion).
    pub stopped: bool,
}

/// Which commit-before order: the access order POWER needs, or program order (SC).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cb {
    Power,
    ProgramOrder,
}

/// Why a run cannot go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stuck {
    /// An access to an address that is no location.
    BadAddress { thread: usize, pc: usize },
    /// A thread fetched more events than the bound.
    Bound { thread: usize },
}

/// A state of the execution model.
#[derive(Clone, Debug)]
pub struct State<'p> {
    pub prog: &'p Program,
    pub threads: Vec<ThreadState>,
    /// Committed accesses in commit order.
    pub committed: Vec<EventId>,
    /// Per location, the coherence order (without the initial store, which is first).
    pub co: Vec<Vec<EventId>>,
    /// A thread's assertion failed.
    pub violation: Option<(usize, usize)>,
    pub cb: Cb,
    pub max_events: usize,
}

impl<'p> State<'p> {
    pub fn new(prog: &'p Program, cb: Cb, max_events: usize) -> State<'p> {
        State {
            prog,
            threads: prog
                .threads
                .iter()
                .map(|t| ThreadState {
                    events: Vec::new(),
                    next_pc: (!t.instrs.is_empty()).then_some(0),
                    stopped: false,
                })
                .collect(),
            committed: Vec::new(),
            co: vec![Vec::new(); prog.locs.len()],
            violation: None,
            cb,
            max_events,
        }
    }

    pub fn ev(&self, e: EventId) -> &Ev {
        &self.threads[e.thread as usize].events[e.index as usize]
    }

    pub fn instr(&self, e: EventId) -> &'p Instr {
        &self.prog.threads[e.thread as usize].instrs[self.ev(e).pc]
    }

    /// The value of register `r` as event `e` reads it (`k`-th use).
    fn reg_value(&self, t: usize, def: Option<u32>, r: Reg) -> i64 {
        match def {
            Some(d) => self.threads[t].events[d as usize].value,
            None => self.prog.threads[t]
                .init
                .iter()
                .find(|(q, _)| *q == r)
                .map_or(0, |(_, v)| *v),
        }
    }

    /// Evaluates expression `x` of event `e` (all its definitions committed).
    fn eval(&self, e: EventId, x: &super::program::Expr) -> i64 {
        let t = e.thread as usize;
        let ev = self.ev(e);
        let uses = self.instr(e).uses();
        x.eval(&|r| {
            let k = uses.iter().position(|u| *u == r).expect("a used register");
            self.reg_value(t, ev.deps.defs[k], r)
        })
    }

    fn defs_committed(&self, t: usize, defs: &[Option<u32>]) -> bool {
        defs.iter()
            .flatten()
            .all(|d| self.threads[t].events[*d as usize].committed)
    }

    /// The definitions of the address registers of an access.
    fn addr_defs(&self, e: EventId) -> &[Option<u32>] {
        let ev = self.ev(e);
        match self.instr(e) {
            Instr::Load { addr, .. } | Instr::Store { addr, .. } => {
                let mut v = Vec::new();
                addr.regs(&mut v);
                &ev.deps.defs[..v.len()]
            }
            _ => &[],
        }
    }

    /// Computes the location of an access whose address registers are known.
    fn locate(&mut self, e: EventId) -> Result<(), Stuck> {
        if self.ev(e).loc.is_some() || !self.defs_committed(e.thread as usize, self.addr_defs(e)) {
            return Ok(());
        }
        let a = match self.instr(e) {
            Instr::Load { addr, .. } | Instr::Store { addr, .. } => self.eval(e, addr),
            _ => return Ok(()),
        };
        let loc = self.prog.location_at(a).ok_or(Stuck::BadAddress {
            thread: e.thread as usize,
            pc: self.ev(e).pc,
        })?;
        self.threads[e.thread as usize].events[e.index as usize].loc = Some(loc);
        Ok(())
    }

    /// Fetches the next instruction of thread `t`.
    fn fetch(&mut self, t: usize) -> Result<bool, Stuck> {
        let th = &self.threads[t];
        let Some(pc) = th.next_pc else {
            return Ok(false);
        };
        if th.stopped || pc >= self.prog.threads[t].instrs.len() {
            return Ok(false);
        }
        if th.events.len() >= self.max_events {
            return Err(Stuck::Bound { thread: t });
        }
        let instr = &self.prog.threads[t].instrs[pc];
        let index = th.events.len() as u32;
        // Register definitions and the loads they carry.
        let uses = instr.uses();
        let defs: Vec<Option<u32>> = uses
            .iter()
            .map(|r| {
                th.events
                    .iter()
                    .rposition(|ev| self.prog.threads[t].instrs[ev.pc].def() == Some(*r))
                    .map(|i| i as u32)
            })
            .collect();
        let loads_of = |d: &[Option<u32>]| -> Vec<u32> {
            let mut v: Vec<u32> = Vec::new();
            for i in d.iter().flatten() {
                let ev = &th.events[*i as usize];
                match self.prog.threads[t].instrs[ev.pc] {
                    Instr::Load { .. } => v.push(*i),
                    _ => v.extend(ev.deps.data_loads.iter().copied()),
                }
            }
            v.sort_unstable();
            v.dedup();
            v
        };
        let n_addr = match instr {
            Instr::Load { addr, .. } | Instr::Store { addr, .. } => {
                let mut v = Vec::new();
                addr.regs(&mut v);
                v.len()
            }
            _ => 0,
        };
        let addr_loads = loads_of(&defs[..n_addr]);
        let data_loads = loads_of(&defs[n_addr..]);
        let (mut ctrl, mut ctrl_isync, mut addr_po, mut syncs, mut lwsyncs, mut fence_at) =
            match th.events.last() {
                Some(p) => (
                    p.deps.ctrl.clone(),
                    p.deps.ctrl_isync.clone(),
                    p.deps.addr_po.clone(),
                    p.syncs,
                    p.lwsyncs,
                    p.fence_at,
                ),
                None => (Vec::new(), Vec::new(), Vec::new(), 0, 0, 0),
            };
        if let Some(p) = th.events.last() {
            let pi = &self.prog.threads[t].instrs[p.pc];
            match pi {
                Instr::Branch { .. } => ctrl.extend(p.deps.data_loads.iter().copied()),
                Instr::Fence(Fence::Isync) => ctrl_isync = ctrl.clone(),
                Instr::Fence(Fence::Sync) => {
                    syncs += 1;
                    fence_at = index;
                }
                Instr::Fence(Fence::Lwsync) => {
                    lwsyncs += 1;
                    fence_at = index;
                }
                Instr::Load { .. } | Instr::Store { .. } => {
                    addr_po.extend(p.deps.addr_loads.iter().copied())
                }
                _ => {}
            }
            for v in [&mut ctrl, &mut ctrl_isync, &mut addr_po] {
                v.sort_unstable();
                v.dedup();
            }
        }
        let next = match instr {
            Instr::Branch { .. } | Instr::Assert { .. } => None,
            _ => Some(pc + 1),
        };
        let ev = Ev {
            pc,
            committed: false,
            value: 0,
            loc: None,
            deps: Rc::new(Deps {
                defs,
                addr_loads,
                data_loads,
                ctrl,
                ctrl_isync,
                addr_po,
            }),
            syncs,
            lwsyncs,
            fence_at,
            rf: None,
        };
        let th = &mut self.threads[t];
        th.events.push(ev);
        th.next_pc = next;
        Ok(true)
    }

    /// Commits the local event `e` if the registers it reads are known.
    fn commit_local(&mut self, e: EventId) -> bool {
        let t = e.thread as usize;
        let ev = self.ev(e);
        if ev.committed || !self.defs_committed(t, &ev.deps.defs) {
            return false;
        }
        let instr = self.instr(e);
        let pc = ev.pc;
        let (value, next) = match instr {
            Instr::Assign { e: x, .. } => (self.eval(e, x), None),
            Instr::Branch { cond, target } => {
                let c = self.eval(e, cond);
                (c, Some(if c != 0 { *target } else { pc + 1 }))
            }
            Instr::Assert { cond } => {
                let c = self.eval(e, cond);
                if c == 0 {
                    self.violation.get_or_insert((t, pc));
                    self.threads[t].stopped = true;
                }
                (c, Some(pc + 1))
            }
            Instr::Fence(_) => (0, None),
            Instr::Load { .. } | Instr::Store { .. } => return false,
        };
        let th = &mut self.threads[t];
        th.events[e.index as usize].committed = true;
        th.events[e.index as usize].value = value;
        if let Some(n) = next {
            th.next_pc = Some(n);
        }
        true
    }

    /// Fetch and local commits until none applies (`FLB(max)`); locates every access whose
    /// address is known.
    pub fn flb(&mut self) -> Result<(), Stuck> {
        loop {
            let mut changed = false;
            for t in 0..self.threads.len() {
                while self.fetch(t)? {
                    changed = true;
                }
                for i in 0..self.threads[t].events.len() {
                    let e = EventId {
                        thread: t as u32,
                        index: i as u32,
                    };
                    if self.ev(e).committed {
                        continue;
                    }
                    if self.instr(e).is_access() {
                        self.locate(e)?;
                    } else if self.commit_local(e) {
                        changed = true;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Whether the access `e` (fetched, not committed) is enabled: its commit-before
    /// predecessors other than its read-from source are committed.
    pub fn enabled(&self, e: EventId) -> bool {
        let t = e.thread as usize;
        let ev = self.ev(e);
        if ev.committed || ev.loc.is_none() || !self.defs_committed(t, &ev.deps.defs) {
            return false;
        }
        let events = &self.threads[t].events;
        let instrs = &self.prog.threads[t].instrs;
        for (j, p) in events[..e.index as usize].iter().enumerate() {
            if !instrs[p.pc].is_access() || p.committed {
                continue;
            }
            match self.cb {
                Cb::ProgramOrder => return false,
                Cb::Power => {
                    // addr;po (the address must be known), po-loc, fences.
                    if p.loc.is_none() || p.loc == ev.loc || (j as u32) < ev.fence_at {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The enabled accesses, smallest first.
    pub fn enabled_accesses(&self) -> Vec<EventId> {
        self.enabled_iter().collect()
    }

    /// The enabled accesses, smallest first, computed as they are asked for (the search
    /// needs only the first one not postponed).
    pub fn enabled_iter(&self) -> impl Iterator<Item = EventId> + '_ {
        self.threads.iter().enumerate().flat_map(move |(t, th)| {
            (0..th.events.len())
                .map(move |i| EventId {
                    thread: t as u32,
                    index: i as u32,
                })
                .filter(move |e| self.instr(*e).is_access() && self.enabled(*e))
        })
    }

    /// The value a source holds.
    pub fn src_value(&self, s: Src) -> i64 {
        match s {
            Src::Init(l) => self.prog.init[l],
            Src::Store(w) => self.ev(w).value,
        }
    }

    /// Commits load `e` reading from `s`.
    pub fn commit_load(&mut self, e: EventId, s: Src) {
        let v = self.src_value(s);
        let ev = &mut self.threads[e.thread as usize].events[e.index as usize];
        ev.committed = true;
        ev.value = v;
        ev.rf = Some(s);
        self.committed.push(e);
    }

    /// Commits store `e` with `n` stores before it in the coherence order of its location.
    pub fn commit_store(&mut self, e: EventId, n: usize) {
        let val = match self.instr(e) {
            Instr::Store { val, .. } => self.eval(e, val),
            _ => unreachable!("a store"),
        };
        let loc = self.ev(e).loc.expect("an enabled store is located");
        let ev = &mut self.threads[e.thread as usize].events[e.index as usize];
        ev.committed = true;
        ev.value = val;
        self.co[loc].insert(n, e);
        self.committed.push(e);
    }

    /// The stores a load of `loc` may read now: the initial value and the committed stores.
    pub fn sources(&self, loc: usize) -> Vec<Src> {
        std::iter::once(Src::Init(loc))
            .chain(self.co[loc].iter().map(|w| Src::Store(*w)))
            .collect()
    }

    /// Every thread ran to its end (or stopped) and every fetched event is committed.
    pub fn complete(&self) -> bool {
        self.threads.iter().enumerate().all(|(t, th)| {
            th.events.iter().all(|e| e.committed)
                && (th.stopped
                    || th
                        .next_pc
                        .is_some_and(|pc| pc >= self.prog.threads[t].instrs.len()))
        })
    }

    /// The final value of a register of thread `t`.
    pub fn final_reg(&self, t: usize, r: Reg) -> i64 {
        let th = &self.threads[t];
        let def = th
            .events
            .iter()
            .rposition(|ev| self.prog.threads[t].instrs[ev.pc].def() == Some(r))
            .map(|i| i as u32);
        self.reg_value(t, def, r)
    }

    /// The final value of a location (its coherence-last store).
    pub fn final_loc(&self, l: usize) -> i64 {
        match self.co[l].last() {
            Some(w) => self.ev(*w).value,
            None => self.prog.init[l],
        }
    }
}
