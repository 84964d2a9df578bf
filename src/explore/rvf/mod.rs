//! RVF-SMC: stateless model checking over the reads-value-from equivalence (Agarwal,
//! Chatterjee, Pathak, Pavlogiannis, Toman, CAV 2021). Two runs are equivalent when they
//! have the same events, every event reads and writes the same values, and the causal order
//! (program order and reads-from) among the reads is the same. Equivalent runs give every
//! thread the same local states, so exploring one run per class decides every assertion.
//!
//! # The exploration
//!
//! A node is an *instance*: per thread, a prefix of its events, every event with what it
//! observes (`event::Obs`: the value of each memory read, the write a synchronisation read
//! follows, the nondet values). A thread is deterministic given its observations, so the
//! instance fixes its events. From a node (the paper's Algorithm 2, one read per level):
//! 1. the instance's witness (a run, found by VerifySC, `verify_sc`) is extended maximally
//!    by non-read events (writes to globals, thread ends: always enabled, their effect
//!    fixed by their thread), by joins of finished threads, which observe the same
//!    wherever they run (`joins`), and by reads of globals the thread's lock guards (or
//!    nothing writes after the first thread creation) and releases of a lock by its holder,
//!    which observe the same too (`guarded`); a run that ends there (every thread finished or blocked, or a violation, trap
//!    or bound) is a leaf, a complete execution;
//! 2. for every thread that is not over, its next event is a read; VerifySC enumerates every
//!    value that read can observe in some witness of the extended instance plus that read,
//!    and each gives a child instance, with the witness found.
//!
//! Siblings differ in the value one read observes, or in which read was added. The paper's
//! causal maps (`causal`) keep the later siblings from covering the runs an earlier one
//! covers: at a node, once thread t's next read r has made its children, the children of
//! the later threads (and their subtrees) get `C(r) :=` the node's frontier (its events
//! after the extension), and VerifySC only returns witnesses and candidate observations
//! whose runs satisfy the map (no event r of its domain internal to `C(r)`: observing only
//! writes inside the frontier). The maps are off unless asked for (`Options::causal_maps`,
//! `yogar verify --causal-maps`): a memo of the explored instances (below) already explores
//! each instance once, and measured with and without the maps (B3 and the lock counter up to
//! 5 threads, every program in tests/programs), the maps cut 0.5-2 % of the witness-search
//! steps, save no CPU time, and reach slightly more instances on 12 test programs (the same
//! instance under maps that do not imply each other). The paper's backtrack signals (which
//! cut the remaining siblings when no descendant brought a new write) rest on a lemma that
//! fails for our events, which can read and write different locations in one atomic step
//! and can block; `settled` keeps the lemma's conclusion in a form decided before the
//! descendants are explored. VerifySC (`verify_sc`) uses both greedy rules of the
//! paper, the second with values in place of writers. The closure
//! (`closure`, over synchronisation objects and the memory reads it can compare exactly)
//! filters the candidate observations before VerifySC searches their completions.
//! When the closure shows that a thread's next read can make one observation only (a lock
//! after the last release, a join of a finished thread, a read of a cell its lock
//! protects), the node's own witness extended by the read answers it and the search is
//! skipped (`fixed`): without it the lock counter's searches walked ~100 witness
//! prefixes each to prove that one answer.
//!
//! # Causal maps: why the exploration is complete for the bound
//!
//! Notation: X'(N) is node N's instance after the extension, lens(N) its per-thread lengths
//! (a frontier), C(N) its map. A run T (maximal within the bounds, or ended by a violation,
//! trap or bound) *fits* N when (i) T has every read event of X'(N) with the observations
//! of the instance, and every event of X'(N) missing from T is a non-read event (T ended
//! early before it); (ii) every event of X'(N) in T is internal to lens(N) in T; (iii) T
//! satisfies C(N). Every run fits the root: its extension has non-read events only, which
//! observe nothing, and its map is empty. Claim: when T fits N, the exploration below N
//! meets T's end. By induction on the number of events of T outside X'(N):
//! - None: N's extended witness runs every event of T with T's observations, so each thread
//!   goes through the same local states and T's end (a violation at the same step,
//!   finished or blocked threads) is the end of N's run, a leaf. (An instance read never
//!   ends a witness: a candidate that ends the run is reported as a run, not a child.)
//! - Otherwise let e be T's first event outside X'(N). Every event before it is in X'(N),
//!   so e is internal to lens(N); it is its thread's next event at N, a read (the extension
//!   takes every next non-read event). Let r_1..r_k be the reads the loop processes at N, in
//!   its order, and i the smallest index with r_i in T and internal to lens(N) (e is one).
//!   For j < i, r_j is not in T or not internal to lens(N), so T satisfies the map C_i of
//!   r_i's iteration (C(N) plus `C(r_j) := lens(N)`; an inherited entry it replaces had a
//!   smaller frontier, and internal to a smaller frontier implies internal to a larger).
//!   The projection W of T onto (X'(N) ∩ T) ∪ {r_i}, followed by X'(N)'s non-read events
//!   missing from T, is a witness of X'(N) plus r_i with T's observation of r_i: each event
//!   of W is internal to lens(N) in T, so every write it observes in T (the last write of
//!   each byte it reads, the last writer of each synchronisation object, a free of the
//!   object it writes) is in W, and W's writes are T's in T's order, so it observes the
//!   same; its thread's earlier events observe the same (induction along W), so it is the
//!   same event; the appended non-read events observe nothing. W satisfies C_i: an event of
//!   W that T makes external to a frontier F has an observed write outside F that lies in
//!   X'(N) (the event is internal to lens(N)), so in W too (the write list of `causal` keeps
//!   it, as in T). VerifySC enumerates every observation of r_i that has a witness
//!   satisfying C_i, so if r_i ends the run (T's last event) it is reported from a witness
//!   prefix, and otherwise the child N_i for T's observation of r_i exists and T fits it:
//!   (i) the new extension adds non-read events; (ii) X'(N)'s events are internal to
//!   lens(N), a smaller frontier than lens(N_i), r_i likewise, the new non-read events
//!   observe nothing; (iii) C(N_i) = C_i. N_i's extension holds r_i, an event of T outside
//!   X'(N): the induction applies.
//!
//! The lock and join skip below does not drop r_i: W is a witness of X'(N) plus r_i. The
//! argument needs no backtrack signals and holds with blocking locks and joins (T need not
//! run every enabled read).
//!
//! A settled read r (`settled`) that is not in the map's domain is processed alone: when a
//! fitting T contains r, r observes only writes of X'(N) (no later step writes what it
//! reads), so it is internal to lens(N) and serves as r_i above with C_i = C(N); when T
//! ends early without r, r inserted after its thread's last event of X'(N) gives a run T'
//! that ends the same way (`settled`), and since r writes nothing, every other event of T'
//! observes the same writes as in T, so T' still satisfies C(N) and fits N. (With r in the
//! map's domain, T' might not satisfy it: such a node processes all its reads.) The one
//! exception is r's step itself ending T' short of a violation (a trap, an asserted loop
//! bound in the register-only instructions it runs on): T's end would then be lost, so
//! when one of r's candidate observations ends the run that way, the node processes its
//! other reads as well (after r, in the order above: the argument holds for any order).
//!
//! Every RVF class and every reachable violation is thus explored at least once. A node
//! whose run ends has no children, so the leaves are exactly the explored executions; each
//! leaf is one (events, values) instance and may stand for several RVF classes that differ
//! only in the causal order of its reads (the paper's "beyond partitioning" remark):
//! `count_classes` enumerates them.
//!
//! # The memo of explored instances
//!
//! With values instead of the paper's good-writes sets, one instance can be reached along
//! two orders of adding its reads even with causal maps: the map of the later sibling keeps
//! the earlier read from observing only the common ancestor's events, but a deeper witness
//! may give it the same value from elsewhere. The fit above depends on the instance (which
//! fixes X') and on the map, so a node is skipped when the same instance was explored under
//! a map its own implies (each entry present with a frontier at least as large,
//! `CausalMap::implied_by`): every run that fits it fits the explored one. Measured on the
//! tests/programs spaces, the memo still cuts a few instances (31 of ~6000; dropping it
//! explores them again), and costs a hash per instance; kept. Its entries share their
//! events with the explored nodes (`event::Ev` is shared, not copied), so an entry costs a
//! vector of references per thread (the lock counter at 6 threads: 43 MB in all, 343 MB
//! with copies). With `Options::causal_maps` off the maps stay empty and the memo alone
//! makes each instance explored once (the previous exploration, kept for comparison).
//!
//! # Symbolic inputs
//!
//! A nondet input of more than two values stays symbolic (`inputs`): one exploration per
//! input class, the classes found by solving the decisions a whole exploration makes, and
//! observations compared with their terms, so that an exploration depends on its inputs
//! only through those decisions (the argument is in `inputs`).
//!
//! # Why a FALSE is real
//!
//! Every state the exploration and VerifySC reach is made by running the interpreter; a
//! violation is reported with the schedule that reached it, replayed from the start, and
//! the trace and witness come from that concrete run.

pub mod assume_stops;
pub mod causal;
pub mod closure;
pub mod event;
pub mod fixed;
pub mod guarded;
pub mod inputs;
pub mod joins;
pub mod runs;
pub mod settled;
pub mod stopping;
pub mod verify_sc;

use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::time::Instant;

use super::classes;
use super::findings::{out_of_budget, unenumerable, Budget, Findings};
use super::interp::{Bounds, Machine, RunEnd, Target, Value};
use super::sched::Step;
use crate::ir::{InstrKind, Loc, Program};
use crate::sharing::guards::Guards;
use crate::sharing::Sharing;
use crate::verdict::UnknownReason;
use causal::CausalMap;
use event::{Ev, Obs, SyncWriters, Unmodelled};

/// How to explore.
#[derive(Clone, Debug)]
pub struct Options {
    pub bounds: Bounds,
    pub budget: Budget,
    /// Go on after a violation (to count the whole space).
    pub all: bool,
    /// Count the RVF classes the leaves stand for (enumerates every witness of every leaf:
    /// for tests and measurements on small programs).
    pub count_classes: bool,
    /// Use causal maps (off: for measurements and the tests that show what they cut).
    pub causal_maps: bool,
    /// Take a read whose observation the closure fixes without a witness search (`fixed`;
    /// off: for the tests that show it loses no class).
    pub fixed_reads: bool,
    /// Take joins of finished threads into a node's extension like non-read events
    /// (`joins`; off: for the tests that show it loses no violation).
    pub fold_joins: bool,
    /// Take reads of globals a held clean mutex guards, or that nothing writes after the
    /// first thread creation, and releases of a clean mutex by its holder into a node's
    /// extension (`guarded`; off: for the tests that show it loses no violation).
    pub fold_guarded: bool,
    /// Keep nondet inputs of more than two values symbolic and explore the input classes
    /// one exploration each (`inputs`); off, such an input gives UNKNOWN (the explorer
    /// enumerates two-valued inputs only). Off under no-overflow, whose overflow tests the
    /// symbolic shadow does not record as decisions.
    pub symbolic_inputs: bool,
}

/// The result.
pub struct Report {
    pub findings: Findings,
    /// RVF classes the explored executions stand for, when counted (`None`: not asked, or
    /// too many witnesses to enumerate).
    pub classes: Option<u64>,
}

/// An instance with the witness found for it.
struct Node<'p> {
    inst: Vec<Vec<Ev>>,
    sched: Vec<usize>,
    machine: Machine<'p>,
    sync: SyncWriters,
    causal: CausalMap,
    /// The threads whose steps are all silent so far, with their decisions (`assume_stops`).
    quiet: assume_stops::Quiet,
}

/// An explored instance and its causal map (the memo).
type Explored = (Vec<Vec<Ev>>, CausalMap);

/// Witnesses enumerated per leaf at most when counting classes.
const CLASS_STATES: u64 = 200_000;

/// Explores `prog` within the bounds: over every input class with symbolic inputs
/// (`inputs::explore`), else once with the inputs enumerated.
pub fn explore(prog: &Program, opts: &Options) -> Report {
    let facts = Facts::of(prog);
    if opts.symbolic_inputs {
        inputs::explore(prog, &facts, opts)
    } else {
        explore_under(prog, &facts, opts, None)
    }
}

/// What the explorations of one program share, computed once (not per input class): the
/// reads whose observation settles a thread, the globals only one thread accesses, and the
/// globals a mutex guards or nothing writes after the first thread creation.
pub(crate) struct Facts<'p> {
    settled: settled::Settled<'p>,
    private: stopping::Private,
    guards: Guards,
}

impl<'p> Facts<'p> {
    fn of(prog: &'p Program) -> Facts<'p> {
        let sharing = Sharing::analyse(prog);
        Facts {
            settled: settled::Settled::of(prog),
            private: stopping::Private::of(prog, &sharing),
            guards: Guards::analyse(prog, &sharing),
        }
    }
}

/// Explores `prog` within the bounds once: with the inputs of `conc` when given (the
/// machines run concolically on its symbolic state, and a silent thread's failed assumption
/// that could hold cuts its node, `assume_stops`), else with the inputs enumerated.
pub(crate) fn explore_under(
    prog: &Program,
    facts: &Facts,
    opts: &Options,
    mut conc: Option<assume_stops::Cuts>,
) -> Report {
    let start = Instant::now();
    let mut f = Findings::default();
    let mut classes_seen: Option<BTreeSet<classes::RvfClass>> =
        opts.count_classes.then(BTreeSet::new);
    let root = match Machine::with_bounds(prog, Some(opts.bounds.clone())) {
        Ok(mut m) => {
            if let Some(c) = &conc {
                m.attach_concolic(c.h.clone());
            }
            m
        }
        Err(e) => {
            f.give_up(UnknownReason::unsupported(format!(
                "the program cannot start ({e:?})"
            )));
            return Report {
                findings: f,
                classes: None,
            };
        }
    };
    let Facts {
        settled,
        private,
        guards,
    } = facts;
    // The steps VerifySC runs, shared between its searches.
    let mut runs = runs::Runs::new(root.clone());
    let mut seen: HashMap<u64, Vec<Explored>> = HashMap::new();
    let mut stack = vec![Node {
        inst: vec![Vec::new()],
        sched: Vec::new(),
        machine: root.clone(),
        sync: SyncWriters::new(),
        causal: CausalMap::default(),
        quiet: assume_stops::Quiet::default(),
    }];
    // Cut stops are not looked for while classes are counted (`assume_stops`).
    let cut_stops = !opts.count_classes;
    'search: while let Some(mut node) = stack.pop() {
        if let Some(why) = out_of_budget(&opts.budget, &f.stats) {
            f.give_up(why);
            break;
        }
        // 1. Extension by non-read events.
        let mut ended: Option<(Step, RunEnd)> = None;
        'extend: loop {
            for t in node.machine.runnable() {
                let idx = node.inst.get(t).map_or(0, |v| v.len()) as u32;
                let cuts = conc.as_mut().filter(|_| cut_stops);
                if let Some(c) = &cuts {
                    c.before();
                }
                let ran = match event::run(&node.machine, t, idx, &[], &node.sync) {
                    Ok(r) => r,
                    Err(e) => {
                        give_up(&mut f, &node.machine, e);
                        break 'search;
                    }
                };
                f.stats.steps += 1;
                // A step that leaves its thread inside an atomic section was cut short (its
                // section blocks here, at a lock whose mutex this witness's memory names):
                // from another witness's state the same step runs the whole section and may
                // observe things. It is no non-read event (`atomic_lock_blocked_at_node_false.c`).
                // A join of a finished thread observes that thread's end wherever it runs:
                // it is taken like a non-read event (`joins`); so are reads of guarded or
                // unwritten globals and releases by the holder (`guarded`).
                let plain = ran.obs.is_empty() && !ran.machine.in_atomic(t);
                let taken = plain
                    || (opts.fold_joins && joins::folds(&node.machine, t, &ran))
                    || (opts.fold_guarded && guarded::folds(guards, &node.machine, t, &ran));
                if !taken {
                    if let Some(c) = &cuts {
                        c.discard();
                    }
                    continue;
                }
                let ev = ran.event();
                if let Some(c) = cuts {
                    match c.after(&mut node.quiet, t, &ran.step, &ev, &ran.machine) {
                        Ok(false) => {}
                        Ok(true) => {
                            f.stats.pruned_stops += 1;
                            continue 'search;
                        }
                        Err(why) => {
                            f.give_up(why);
                            break 'search;
                        }
                    }
                }
                node.machine = ran.machine;
                node.sync = ran.sync;
                node.inst.resize_with(node.machine.num_threads(), Vec::new);
                node.inst[t].push(ev);
                node.sched.push(t);
                if verify_sc::ended_early(&ran.step) {
                    let end = ran.step.end.clone().expect("ended");
                    ended = Some((ran.step, end));
                    break 'extend;
                }
                continue 'extend;
            }
            break;
        }
        node.inst.resize_with(node.machine.num_threads(), Vec::new);
        let leaf = ended.is_some() || node.machine.runnable().is_empty();
        // A run ended with every thread over or waiting. When some thread waits for a mutex
        // or thread named through memory another thread writes (`wait_fixed`), its wait may
        // name another one, and pass, at another point of a witness of the instance: the
        // run is recorded, and the node is still searched like any other.
        let over = ended.is_some();
        let last = || {
            over || (0..node.machine.num_threads())
                .all(|t| node.machine.is_over(t) || wait_fixed(&node.inst, &node.machine, t))
        };
        if leaf {
            f.stats.executions += 1;
            if let Some(seen) = &mut classes_seen {
                if !count_leaf(&root, &node.inst, seen) {
                    classes_seen = None;
                }
            }
            if let Some((step, end)) = ended {
                if record_end(&mut f, &root, &node.inst, &node.sched, &step, &end) && !opts.all {
                    break 'search;
                }
            }
            if last() {
                continue;
            }
        }
        // The instance may have been reached along another order of adding its reads; the
        // node explored there covers this one when its causal map is implied by this one's
        // (see "Causal maps").
        let bucket = seen.entry(hash_instance(&node.inst)).or_default();
        if bucket
            .iter()
            .any(|(i, c)| *i == node.inst && c.implied_by(&node.causal))
        {
            f.stats.redundant += 1;
            continue;
        }
        bucket.push((node.inst.clone(), node.causal.clone()));
        f.stats.nodes += 1;
        // 2. One child per thread's next read and value it can observe; the causal map of
        // the children of later threads forbids each earlier read to be internal here.
        let lens: causal::Frontier = node.inst.iter().map(|v| v.len() as u32).collect();
        let mut causal = node.causal.clone();
        let mut children = Vec::new();
        // A settled read outside the causal map's domain is processed alone (`settled`).
        let alone =
            settled.settled_thread(&node.machine, |t| node.causal.get((t, lens[t])).is_none());
        if alone.is_some() {
            f.stats.settled += 1;
        }
        let every: Vec<usize> = (0..node.machine.num_threads()).collect();
        let mut order = alone.map_or_else(|| every.clone(), |a| vec![a]);
        let mut k = 0;
        while let Some(&t) = order.get(k) {
            k += 1;
            if node.machine.is_over(t) {
                continue;
            }
            // A join or lock that waits once the whole instance has run has no witness that
            // runs every event of the instance: a join waits for a thread whose last event is
            // not in the instance, so it waits in every witness prefix; a lock waits for a
            // mutex that a thread of the instance holds at the end of every witness (the
            // writes of a mutex form a chain the observations fix: see `event::run`), while
            // the lock, the last event of its thread, would hold it there too. The search is
            // skipped. No run is lost: the completeness argument (module doc) only uses children
            // that have a witness running the whole instance.
            // The wake-up of a condition wait is a lock of its mutex (the wait is an unlock
            // and a lock, see `dpor`'s "Condition variables"). Which mutex or thread it waits
            // for must be the same wherever it can run in a witness (`wait_fixed`): read
            // through memory another thread writes, it may name another one earlier in a
            // witness, and pass there.
            let waits = match node.machine.next_kind(t) {
                Some(InstrKind::ThreadJoin { .. } | InstrKind::MutexLock(_)) => true,
                Some(InstrKind::CondWait { .. }) => node.machine.cond_waiting(t),
                _ => false,
            };
            if waits && !node.machine.enabled(t) && wait_fixed(&node.inst, &node.machine, t) {
                continue;
            }
            let idx = node.inst.get(t).map_or(0, |v| v.len()) as u32;
            // The observation the closure fixes needs no search (`fixed`); a step it cannot
            // run is left to the search, which decides what to report.
            let fast = if opts.fixed_reads && causal.is_empty() {
                let init = |cell: &Target| root.global_summary(cell);
                fixed::search(&node.machine, &node.inst, &node.sched, &node.sync, t, &init)
                    .ok()
                    .flatten()
            } else {
                None
            };
            let found = match fast.map(Ok).unwrap_or_else(|| {
                let cand_cells = event::next_cells(&node.machine, t, idx, &node.sync);
                verify_sc::search(
                    &mut runs,
                    &node.inst,
                    Some(t),
                    verify_sc::Order {
                        aux: &node.sched,
                        greedy: true,
                        cand_cells: cand_cells.as_deref(),
                    },
                    &causal,
                    opts.budget.deadline,
                )
            }) {
                Ok(found) => found,
                Err(verify_sc::Stop::Deadline) => {
                    f.give_up(UnknownReason::Timeout);
                    break 'search;
                }
                Err(verify_sc::Stop::Unmodelled(e)) => {
                    give_up(&mut f, &node.machine, e);
                    break 'search;
                }
            };
            f.stats.steps += found.states;
            f.stats.causal_cuts += found.cut;
            f.stats.quiet_writes += found.quiet;
            for e in &found.ended {
                f.stats.executions += 1;
                let mut inst = node.inst.clone();
                inst.resize_with(inst.len().max(t + 1), Vec::new);
                inst[t].push(e.event.clone());
                if record_end(&mut f, &root, &inst, &e.sched, &e.step, &e.end) && !opts.all {
                    break 'search;
                }
            }
            // A child whose read stops its thread silently is not explored (`stopping`); not
            // while counting classes, whose leaves it would drop.
            let silent = |ev: &Option<Ev>, st: &verify_sc::State| {
                !opts.count_classes
                    && ev
                        .as_ref()
                        .is_some_and(|ev| private.silent_stop(ev, st.machine(), st.sync(), t, idx))
            };
            let before = found.witnesses.len();
            let witnesses: Vec<_> = found
                .witnesses
                .into_iter()
                .filter(|(ev, st)| !silent(ev, st))
                .collect();
            let dropped = (before - witnesses.len()) as u64;
            f.stats.silent_stops += dropped;
            // The settled read ends a run short of a violation (a trap, a bound), or stops
            // its thread in a child not explored: the runs without it are not below its
            // children, so the other reads are processed too.
            if alone == Some(t)
                && (dropped > 0
                    || found
                        .ended
                        .iter()
                        .any(|e| !matches!(e.end, RunEnd::Violation { .. })))
            {
                order.extend(every.iter().filter(|&&u| u != t));
            }
            for (ev, st) in witnesses {
                let mut inst = node.inst.clone();
                inst[t].push(ev.expect("a candidate witness"));
                let mut quiet = node.quiet.clone();
                quiet.loud(t);
                let (machine, sync, sched) = st.into_parts();
                children.push(Node {
                    inst,
                    sched,
                    machine,
                    sync,
                    causal: causal.clone(),
                    quiet,
                });
            }
            if opts.causal_maps {
                causal.set((t, lens[t]), lens.clone());
            }
        }
        stack.extend(children.into_iter().rev());
    }
    f.stats.time = start.elapsed();
    let classes = classes_seen.map(|s| s.len() as u64);
    Report {
        findings: f,
        classes,
    }
}

/// Whether what thread `t` would wait for next (`Machine::wait_reads`: the mutex or thread
/// its next step names through memory) is the same wherever its next step can run in a
/// witness of `inst` plus that step, `m` being the end of one witness. The step follows
/// every event of `inst` of its own thread, but it can run before any event of another
/// thread: a cell it reads is fixed only when no other thread's event of `inst` writes it
/// (it then holds the initial value or `t`'s last write of each byte wherever the step
/// runs). Thread 0's events before its first thread creation are an exception: they
/// precede every event of every other thread. Then whether the wait passes is fixed by the
/// synchronisation objects, which the instance fixes (its observations order each mutex's
/// operations, see `event::run`, and which threads are over). A cell another thread writes
/// can hold another value where the step runs, even when that thread is the only writer
/// (`lock_through_pointer_one_writer_false.c`: the locker reads the index before the
/// writer's write, while every witness ends after it), and the wait may name another
/// mutex or thread there.
fn wait_fixed(inst: &[Vec<Ev>], m: &Machine, t: usize) -> bool {
    let Some(reads) = m.wait_reads(t) else {
        return false;
    };
    reads.iter().all(|r| {
        let writes = |e: &Ev| e.writes.iter().any(|(w, _)| r.overlaps(w));
        inst.iter()
            .enumerate()
            .filter(|&(q, _)| q != t)
            .all(|(q, evs)| {
                let from = if q == 0 {
                    evs.iter()
                        .position(|e| e.sync_writes.contains(&event::THREADS))
                        .unwrap_or(0)
                } else {
                    0
                };
                !evs[from..].iter().any(writes)
            })
    })
}

fn give_up(f: &mut Findings, m: &Machine, e: Unmodelled) {
    match e {
        Unmodelled::Input(super::sched::Unenumerable(loc)) => f.give_up(unenumerable(m, loc)),
        Unmodelled::Access(what) => f.give_up(UnknownReason::unsupported(what)),
    }
}

/// The steps of the run `sched` of the instance `inst`, replayed from `root`.
fn replay<'p>(root: &Machine<'p>, inst: &[Vec<Ev>], sched: &[usize]) -> (Machine<'p>, Vec<Step>) {
    let mut m = root.clone();
    let mut sync = SyncWriters::new();
    let mut counts = vec![0u32; inst.len()];
    let mut steps = Vec::new();
    for &t in sched {
        let k = counts[t];
        let ev = &inst[t][k as usize];
        let ran = event::run(&m, t, k, &ev.choices, &sync).expect("a replayed event runs");
        debug_assert_eq!(ran.obs, ev.obs, "a replayed event observes the same");
        counts[t] += 1;
        m = ran.machine;
        sync = ran.sync;
        steps.push(ran.step);
    }
    (m, steps)
}

/// Records a run that ended early (its last event is the last of `sched`); true for a
/// violation.
fn record_end(
    f: &mut Findings,
    root: &Machine,
    inst: &[Vec<Ev>],
    sched: &[usize],
    step: &Step,
    end: &RunEnd,
) -> bool {
    if let RunEnd::Violation { thread, loc } = end {
        if f.violation.is_none() {
            // The same run in the order the other explorers print (lower threads first):
            // witness replay finds it more easily.
            let plain = verify_sc::Order {
                aux: &[],
                greedy: false,
                cand_cells: None,
            };
            let limit = Instant::now() + std::time::Duration::from_secs(2);
            let any = CausalMap::default();
            let mut runs = runs::Runs::new(root.clone());
            let ordered = verify_sc::search(&mut runs, inst, None, plain, &any, Some(limit))
                .ok()
                .and_then(|found| found.witnesses.into_iter().next())
                .map(|(_, st)| st.sched);
            let sched = ordered.as_deref().unwrap_or(sched);
            let (m, steps) = replay(root, inst, sched);
            debug_assert_eq!(steps.last().map(|s| &s.end), Some(&step.end));
            let refs: Vec<&Step> = steps.iter().collect();
            f.violation = Some(super::trace::build(&m, &refs, *thread, *loc));
        }
    }
    let at: Loc = step.loc;
    f.run_end(root, end, at)
}

/// Adds the RVF classes of every witness of the leaf `inst` to `seen`; false when there are
/// too many witness prefixes to enumerate. The witness prefixes are searched with a memo
/// whose key holds, besides the machine state, the causal order among the reads so far and
/// the reads causally before each thread's next event and each location's last write: two
/// prefixes equal in all of these have the same completions and give the same classes.
fn count_leaf(root: &Machine, inst: &[Vec<Ev>], seen: &mut BTreeSet<classes::RvfClass>) -> bool {
    use super::interp::Target;
    type Reads = BTreeSet<(usize, u32)>;
    let lens: Vec<u32> = inst.iter().map(|v| v.len() as u32).collect();
    #[derive(Clone)]
    struct S<'p> {
        m: Machine<'p>,
        counts: Vec<u32>,
        sync: SyncWriters,
        steps: Vec<Step>,
        /// Reads causally before each thread's next event.
        threads: Vec<Reads>,
        /// Last write per target (most recent last) with the reads causally before it.
        writes: Vec<(Target, Reads)>,
        order: BTreeSet<((usize, u32), (usize, u32))>,
    }
    type Key = (
        Vec<u32>,
        Vec<(event::SyncKey, event::EvId)>,
        Vec<Reads>,
        Vec<(Target, Reads)>,
        BTreeSet<((usize, u32), (usize, u32))>,
        u64,
    );
    let mut memo: HashMap<Key, Vec<Machine>> = HashMap::new();
    let mut stack = vec![S {
        m: root.clone(),
        counts: vec![0; inst.len()],
        sync: SyncWriters::new(),
        steps: Vec::new(),
        threads: vec![Reads::new(); inst.len()],
        writes: Vec::new(),
        order: BTreeSet::new(),
    }];
    let mut states = 0u64;
    while let Some(s) = stack.pop() {
        let key: Key = (
            s.counts.clone(),
            s.sync.iter().map(|(k, v)| (*k, *v)).collect(),
            s.threads.clone(),
            s.writes.clone(),
            s.order.clone(),
            s.m.fingerprint(),
        );
        let bucket = memo.entry(key).or_default();
        if bucket.iter().any(|m| m.same_state(&s.m)) {
            continue;
        }
        bucket.push(s.m.clone());
        states += 1;
        if states > CLASS_STATES {
            return false;
        }
        if s.counts == lens {
            seen.insert(classes::rvf_class(&s.steps));
            continue;
        }
        for t in s.m.runnable() {
            let k = s.counts[t];
            let Some(ev) = inst[t].get(k as usize) else {
                continue;
            };
            let Ok(ran) = event::run(&s.m, t, k, &ev.choices, &s.sync) else {
                return false;
            };
            if ran.obs != ev.obs {
                continue;
            }
            let mut n = s.clone();
            n.m = ran.machine;
            n.sync = ran.sync;
            n.counts[t] += 1;
            let id = (t, k + 1);
            let mut causal = n.threads[t].clone();
            for a in ran.step.accesses.iter().filter(|a| !a.write) {
                if let Some((_, r)) = n.writes.iter().rev().find(|(w, _)| a.target.overlaps(w)) {
                    causal.extend(r.iter().copied());
                }
            }
            if ran.step.accesses.iter().any(|a| !a.write) {
                for r in &causal {
                    n.order.insert((*r, id));
                }
                causal.insert(id);
            }
            for a in ran.step.accesses.iter().filter(|a| a.write) {
                n.writes.retain(|(w, _)| *w != a.target);
                n.writes.push((a.target, causal.clone()));
            }
            n.threads
                .resize(n.m.num_threads().max(n.threads.len()), Reads::new());
            for &c in &ran.step.created {
                n.threads[c] = causal.clone();
            }
            n.threads[t] = causal;
            n.steps.push(ran.step);
            stack.push(n);
        }
    }
    true
}

fn hash_value(v: &Value, h: &mut impl Hasher) {
    match v {
        Value::Scalar(s) => {
            0u8.hash(h);
            s.bits.hash(h);
            s.prov.hash(h);
        }
        Value::Bytes(b, p) => {
            1u8.hash(h);
            b.hash(h);
            p.hash(h);
        }
    }
}

fn hash_instance(inst: &[Vec<Ev>]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for evs in inst {
        evs.len().hash(&mut h);
        for e in evs {
            e.choices.hash(&mut h);
            for o in &e.obs {
                std::mem::discriminant(o).hash(&mut h);
                match o {
                    Obs::Mem(v) => hash_value(v, &mut h),
                    Obs::Sync(w) => w.hash(&mut h),
                    Obs::Choice(c) => c.hash(&mut h),
                    Obs::Alive => {}
                }
            }
        }
    }
    h.finish()
}
