//! VerifySC: does a sequentially consistent run exist that executes a given set of events
//! (per thread, a prefix of its events) with every event observing what the instance says?
//!
//! The instance is the paper's `(X, GoodW)` with the good writes of a read given by value:
//! a memory read must return its value (any write of that value may be its source), a
//! synchronisation read must follow its one good write (see `event`). A witness is a
//! linearisation of the events that respects program order and in which every event
//! observes its value; since the interpreter runs each event, a witness *is* a run of the
//! program.
//!
//! The search is the paper's Algorithm 1: a depth-first search over witness prefixes, each
//! extended by an executable event (the thread's next event of the instance, which, run from
//! the prefix's state, observes what it must). Prefixes with the same *witness state* are
//! equi-extendable and explored once. The paper's witness state is (lower set, memory map:
//! variable → thread of its active write); ours is (lower set, memory contents,
//! synchronisation writers), compared exactly: the threads' local states are fixed by the
//! lower set (every event observed its prescribed values), so two prefixes with equal
//! witness states have equal machine states and the same extensions. It is at most as fine
//! as the paper's (the memory map determines the contents).
//!
//! Heuristics of Section 4.2 used here: the greedy rules, 1a (an executable event that
//! writes nothing is taken without branching: moving a pure read to the front of any
//! witness keeps it a witness, since it changes no memory and the value it reads is the one
//! it must read) and 1b (an executable event that writes only global memory whose old and
//! new values no event left to run needs, and that the enumerated event does not read, is
//! taken without branching: `quiet_write`, with the argument), and the auxiliary trace (successors are tried in the order of the parent instance's
//! witness, so a witness that extends it is found without backtracking). The closure
//! filter (`closure`, over synchronisation objects and memory reads) drops a candidate
//! observation it proves to have no witness, and for a lock acquisition it bounds the
//! observations still possible, so the search stops once each of them is found
//! (`lock_targets`).
//!
//! With a causal map (`causal`), an event of its domain is run only where it is not
//! internal to its frontier, so every witness and candidate observation returned satisfies
//! the map; the memo key then also holds the last writers that matter (see `search`). The
//! greedy rule 1a stays complete: it takes a pure read only where the map allows it, and
//! moving such a read to the front of a witness changes no other event's observations or
//! writers. Rule 1b would change the writers, so it is off while the map constrains an
//! event of the search.
//!
//! The same search also enumerates the values one more event can observe (`cand`): that
//! event may run at any point of a witness; every distinct observation for which the whole
//! instance can be completed is returned with its witness (one search instead of one per
//! candidate value group).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::time::Instant;

use super::causal::{self, CausalMap, Writers};
use super::closure;
use super::event::{self, Ev, EvData, EvId, Obs, SyncWriters, Unmodelled};
use super::runs::{RunId, Runs, ROOT, UNCACHED};
use crate::explore::interp::{Machine, RunEnd, Target};
use crate::explore::sched::Step;

/// Where a witness prefix ends: a state of its own (the initial state, a witness `fixed`
/// builds), or the end of a step run, shared with the step cache (`runs`) and the other
/// prefixes that step extends: a successor costs no machine clone.
#[derive(Clone)]
enum At<'p> {
    Own(Box<(Machine<'p>, SyncWriters)>),
    Ran(Rc<event::Ran<'p>>),
}

/// A witness prefix.
#[derive(Clone)]
pub struct State<'p> {
    at: At<'p>,
    /// Events executed per thread.
    pub counts: Vec<u32>,
    /// The threads of the executed events, in order.
    pub sched: Vec<usize>,
    /// The candidate event, once executed: its index in `Search::cands`.
    cand: Option<usize>,
    /// The run prefix this is in the tree of steps run (`runs`).
    run: RunId,
    /// The memory writes so far, kept only when the causal map constrains an event of the
    /// search (`causal::internal`).
    writes: Writers,
}

impl<'p> State<'p> {
    /// A witness of an instance with the candidate run last (`fixed`): `machine` its end,
    /// `counts` its events per thread, `sched` its threads in order.
    pub(super) fn witness(
        machine: Machine<'p>,
        counts: Vec<u32>,
        sync: SyncWriters,
        sched: Vec<usize>,
    ) -> Self {
        State {
            at: At::Own(Box::new((machine, sync))),
            counts,
            sched,
            cand: Some(0),
            run: UNCACHED,
            writes: Writers::new(),
        }
    }

    /// The machine state at the prefix's end.
    pub fn machine(&self) -> &Machine<'p> {
        match &self.at {
            At::Own(b) => &b.0,
            At::Ran(r) => &r.machine,
        }
    }

    /// The synchronisation writers at the prefix's end.
    pub fn sync(&self) -> &SyncWriters {
        match &self.at {
            At::Own(b) => &b.1,
            At::Ran(r) => &r.sync,
        }
    }

    /// The machine state, the synchronisation writers and the schedule of the prefix.
    pub fn into_parts(self) -> (Machine<'p>, SyncWriters, Vec<usize>) {
        let (m, s) = match self.at {
            At::Own(b) => *b,
            At::Ran(r) => match Rc::try_unwrap(r) {
                Ok(r) => (r.machine, r.sync),
                Err(r) => (r.machine.clone(), r.sync.clone()),
            },
        };
        (m, s, self.sched)
    }
}

/// A run the candidate event ended (a violation, a trap, a bound): a real run of the
/// program, found while looking for witnesses.
pub struct Ended {
    pub sched: Vec<usize>,
    pub event: Ev,
    pub step: Step,
    pub end: RunEnd,
}

/// What the search found.
#[derive(Default)]
pub struct Found<'p> {
    /// Witnesses of the instance extended by the candidate, one per distinct observation of
    /// the candidate (without a candidate: at most one witness of the instance).
    pub witnesses: Vec<(Option<Ev>, State<'p>)>,
    pub ended: Vec<Ended>,
    /// Witness prefixes visited.
    pub states: u64,
    /// Successors cut because the causal map forbids what an event observes there.
    pub cut: u64,
    /// Prefixes extended by one write no event left needs, without branching (rule 1b).
    pub quiet: u64,
}

/// The memo key's part for the causal map (`writers_key`).
type WritersKey = Vec<(Target, u64, Option<EvId>)>;

/// Why the search stopped early.
pub enum Stop {
    Deadline,
    Unmodelled(Unmodelled),
}

/// How to order the search.
#[derive(Copy, Clone)]
pub struct Order<'a> {
    /// Successors in the order of this schedule first (the auxiliary trace).
    pub aux: &'a [usize],
    /// Take an executable pure read, or a write whose old and new values no event left
    /// needs, alone (off: lower threads first throughout, for a witness in the order other
    /// explorers print).
    pub greedy: bool,
    /// Every cell the candidate event can read or write (`event::next_cells`); `None`: not
    /// known, so greedy rule 1b waits until the candidate has run.
    pub cand_cells: Option<&'a [Target]>,
}

/// Searches the witnesses of `inst` (per thread, its events) from the initial state of `runs`
/// (whose steps it shares with the other searches of the exploration, see `runs`),
/// with one more event of thread `cand` when given, that satisfy the causal map `causal`
/// (no event `r` of its domain runs internal to `C(r)`, `causal`). The last event of an
/// instance may end the run (a violation): a witness then ends with it.
///
/// With a causal map, whether a later event is internal depends on the writers of the
/// cells it reads, not only on the memory contents: two prefixes with the same machine
/// state but different writers are not equi-extendable any more. The memo key then holds,
/// per written target, which of the constrained events still to run would find that writer
/// outside its frontier (`writers_key`); a writer inside every such frontier is left out,
/// like the initial value (both count as inside). Without a constrained event in reach the
/// writes are not tracked and the key is the plain one.
///
/// A prefix in the tree of steps run (`runs`, every prefix but those run while the tree is
/// full) is named in the memo by its id there instead of its state: `Runs::run` makes two
/// prefixes one node exactly when the plain key calls them equal (memory fingerprint,
/// event counts, synchronisation writers, `Machine::same_state`), and the tree is dropped
/// only between searches, so within a search equal ids mean equal plain keys. The memo then
/// keeps no machine and compares none. A prefix outside the tree is keyed by its state; the
/// same state reached both ways is searched twice, which costs time only. The commonest
/// key, a prefix before the candidate has run with no writers to tell apart (`writers_key`
/// empty), is the prefix's id alone, and its memo is the tree's visit mark
/// (`Runs::first_visit`, reset by `Runs::begin_search`): a vector indexed by the id, not a
/// hash set; the same key, so the same prefixes are searched.
pub fn search<'p>(
    runs: &mut Runs<'p>,
    inst: &[Vec<Ev>],
    cand: Option<usize>,
    order: Order,
    causal: &CausalMap,
    deadline: Option<Instant>,
) -> Result<Found<'p>, Stop> {
    let aux = order.aux;
    let lens: Vec<u32> = inst.iter().map(|v| v.len() as u32).collect();
    let len = |t: usize| lens.get(t).copied().unwrap_or(0);
    // The constrained events this search may run: instance events and the candidate.
    let constrained: Vec<(EvId, &[u32])> = causal
        .iter()
        .filter(|&((t, i), _)| i < len(t) || (cand == Some(t) && i == len(t)))
        .map(|(r, f)| (r, &f[..]))
        .collect();
    let tracking = !constrained.is_empty();
    runs.begin_search();
    // Shares its objects with the tree's root (copy on write): cheap.
    let root = runs.root().clone();
    // The initial bytes of a global cell (the closure's initial write).
    let init = |cell: &Target| root.global_summary(cell);
    let mut found = Found::default();
    let mut cands: Vec<Ev> = Vec::new();
    let mut done: Vec<bool> = Vec::new();
    type Key = (
        Vec<u32>,
        Option<usize>,
        Vec<(event::SyncKey, event::EvId)>,
        Vec<(Target, u64, Option<EvId>)>,
        u64,
    );
    let mut seen: HashMap<Key, Vec<Machine<'p>>> = HashMap::new();
    // The memo of the prefixes in the tree of steps run, by their id there (see above).
    let mut seen_runs: HashSet<(RunId, Option<usize>, WritersKey)> = HashSet::new();
    // The observations a lock candidate can make that the closure does not rule out, once
    // known (`Some(None)`: the candidate is not a lock, the search is exhaustive).
    let mut targets: Option<Option<Vec<Obs>>> = None;
    let mut stack = vec![State {
        at: At::Own(Box::new((root.clone(), SyncWriters::new()))),
        counts: vec![0; inst.len()],
        sched: Vec::new(),
        cand: None,
        run: ROOT,
        writes: Writers::new(),
    }];
    // Whether event `id`, run as `ran` observing `ev` after the prefix `s`, is forbidden.
    let forbidden = |s: &State, id: EvId, ran: &event::Ran, ev: &Ev| {
        tracking
            && causal
                .get(id)
                .is_some_and(|f| causal::internal(&ran.step, &ev.sync_reads, &s.writes, f))
    };
    let recorded = |s: &State, id: EvId, ran: &event::Ran| {
        let mut w = s.writes.clone();
        if tracking {
            let outside = constrained
                .iter()
                .enumerate()
                .filter(|(_, (_, f))| !causal::inside(id, f))
                .fold(0u64, |m, (j, _)| m | 1 << (j % 64));
            causal::record(&mut w, id, &ran.step, outside);
        }
        w
    };
    while let Some(s) = stack.pop() {
        if s.cand.is_some_and(|i| done[i]) {
            continue;
        }
        let writers = writers_key(&s, &lens, &constrained);
        let fresh = if s.run != UNCACHED {
            if writers.is_empty() && s.cand.is_none() {
                runs.first_visit(s.run)
            } else {
                seen_runs.insert((s.run, s.cand, writers))
            }
        } else {
            let key: Key = (
                s.counts.clone(),
                s.cand,
                s.sync().iter().map(|(k, v)| (*k, *v)).collect(),
                writers,
                runs.fingerprint(s.run, s.machine()),
            );
            let bucket = seen.entry(key).or_default();
            let fresh = !bucket.iter().any(|m| m.same_state(s.machine()));
            if fresh {
                // Shares its objects and threads with the prefix's (copy on write): cheap.
                bucket.push(s.machine().clone());
            }
            fresh
        };
        if !fresh {
            continue;
        }
        found.states += 1;
        if found.states % 1024 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Deadline);
        }
        if s.counts == lens && (cand.is_none() || s.cand.is_some()) {
            match s.cand {
                Some(i) => {
                    done[i] = true;
                    found.witnesses.push((Some(cands[i].clone()), s));
                    if let (Some(Some(ts)), true) = (&targets, found.ended.is_empty()) {
                        let covered = |o: &Obs| {
                            cands
                                .iter()
                                .zip(&done)
                                .any(|(e, d)| *d && e.obs.len() == 1 && e.obs[0] == *o)
                        };
                        if ts.iter().all(covered) {
                            return Ok(found);
                        }
                    }
                    continue;
                }
                None => {
                    found.witnesses.push((None, s));
                    return Ok(found);
                }
            }
        }
        let runnable = runs.runnable(s.run, s.machine());
        // The auxiliary trace's next thread first, then the others in order.
        let first = aux
            .get(s.sched.len())
            .copied()
            .filter(|a| runnable.contains(a));
        let ordered = first
            .into_iter()
            .chain(runnable.iter().copied().filter(|&t| Some(t) != first));
        let mut next: Vec<State<'p>> = Vec::new();
        // Greedy: an executable pure read of the instance is taken alone.
        let mut greedy = false;
        for t in ordered {
            let k = s.counts.get(t).copied().unwrap_or(0);
            let Some(ev) = inst.get(t).and_then(|v| v.get(k as usize)) else {
                continue;
            };
            let step = runs
                .run(s.run, s.machine(), t, &s.counts, &ev.choices, s.sync())
                .map_err(Stop::Unmodelled)?;
            let ran = &*step.ran;
            let last = s.counts.iter().zip(&lens).enumerate().all(|(q, (c, l))| {
                if q == t {
                    c + 1 == *l
                } else {
                    c == l
                }
            });
            if ran.obs != ev.obs || (ended_early(&ran.step) && !(last && cand.is_none())) {
                continue;
            }
            if forbidden(&s, (t, k), ran, ev) {
                found.cut += 1;
                continue;
            }
            // Greedy rules 1a (a pure read) and 1b (a write no event left needs).
            let alone = order.greedy
                && (ev.pure_read
                    || !tracking && quiet_write(&s, (t, k), ev, ran, inst, cand, order));
            // A successor this search has visited already (its memo key is then its id
            // alone, see above) would be dropped when popped: it is not built.
            let known =
                step.id != UNCACHED && !tracking && s.cand.is_none() && runs.visited(step.id);
            let n = (!known).then(|| {
                let mut counts = s.counts.clone();
                counts[t] += 1;
                State {
                    at: At::Ran(Rc::clone(&step.ran)),
                    counts,
                    sched: extended(&s.sched, t),
                    cand: s.cand,
                    run: step.id,
                    writes: recorded(&s, (t, k), ran),
                }
            });
            if alone {
                if !ev.pure_read {
                    found.quiet += 1;
                }
                next = n.into_iter().collect();
                greedy = true;
                break;
            }
            next.extend(n);
        }
        if !greedy {
            if let Some(c) = cand.filter(|&c| s.cand.is_none() && runnable.contains(&c)) {
                let k = lens.get(c).copied().unwrap_or(0);
                if s.counts.get(c).copied().unwrap_or(0) == k {
                    for step in runs
                        .run_all(s.run, s.machine(), c, &s.counts, s.sync())
                        .map_err(Stop::Unmodelled)?
                    {
                        let ran = &*step.ran;
                        let ev = ran.event();
                        if forbidden(&s, (c, k), ran, &ev) {
                            found.cut += 1;
                            continue;
                        }
                        let sched = extended(&s.sched, c);
                        if ended_early(&ran.step) {
                            let violation = matches!(ran.step.end, Some(RunEnd::Violation { .. }));
                            found.ended.push(Ended {
                                sched,
                                event: ev,
                                end: ran.step.end.clone().expect("ended"),
                                step: ran.step.clone(),
                            });
                            if violation {
                                return Ok(found);
                            }
                            continue;
                        }
                        if targets.is_none() {
                            targets = Some(lock_targets(inst, c, &ev, &init));
                        }
                        let i = match cands.iter().position(|e| *e == ev) {
                            Some(i) => i,
                            None => {
                                // The closure rejects it: no witness, nothing to search.
                                let rejected = !closure::consistent(inst, Some((c, &ev)), &init);
                                cands.push(ev);
                                done.push(rejected);
                                cands.len() - 1
                            }
                        };
                        if done[i] {
                            continue;
                        }
                        let writes = recorded(&s, (c, k), ran);
                        next.push(State {
                            at: At::Ran(Rc::clone(&step.ran)),
                            counts: s.counts.clone(),
                            sched,
                            cand: Some(i),
                            run: step.id,
                            writes,
                        });
                    }
                }
            }
        }
        stack.extend(next.into_iter().rev());
    }
    Ok(found)
}

/// The schedule `sched` followed by thread `t`, allocated once at its final length.
fn extended(sched: &[usize], t: usize) -> Vec<usize> {
    let mut v = Vec::with_capacity(sched.len() + 1);
    v.extend_from_slice(sched);
    v.push(t);
    v
}

/// The part of the memo key that the causal map needs: per written target, the set of the
/// constrained events still to run (a bit each, in `constrained`'s order) whose frontier
/// does not hold the target's last writer. Two prefixes with equal keys give every later
/// event the same answer in `causal::internal`: an entry leaves the list only when a later
/// write to the same target replaces it, in both prefixes alike, and an entry whose writer
/// is inside every frontier still in play never makes an event external. With more than 64
/// constrained events the writers themselves are the key (finer, as sound).
fn writers_key(
    s: &State,
    lens: &[u32],
    constrained: &[(EvId, &[u32])],
) -> Vec<(Target, u64, Option<EvId>)> {
    let len = |t: usize| lens.get(t).copied().unwrap_or(0);
    if constrained.is_empty() {
        return Vec::new();
    }
    if constrained.len() > 64 {
        return s.writes.iter().map(|&(t, w, _)| (t, 0, Some(w))).collect();
    }
    // The candidate is the event just past its thread's instance; it runs once.
    let pending = constrained
        .iter()
        .enumerate()
        .filter(|(_, ((t, i), _))| {
            let c = s.counts.get(*t).copied().unwrap_or(0);
            *i > c || (*i == c && (*i < len(*t) || s.cand.is_none()))
        })
        .fold(0u64, |m, (j, _)| m | 1 << j);
    let key: Vec<(Target, u64, Option<EvId>)> = s
        .writes
        .iter()
        .filter(|&&(_, _, outside)| outside & pending != 0)
        .map(|&(t, _, outside)| (t, outside & pending, None))
        .collect();
    // The list's order (most recent last) is kept: equal sets in different orders only
    // make the key finer.
    key
}

/// The observations a mutex operation `ev` of thread `c` (the candidate, observed once: an
/// acquisition, a release, ...) can make in a witness of `inst` plus it, as far as the
/// closure can tell: `None` when `ev` observes anything but its mutex (one observation, of a
/// mutex, no nondet value, not ending the run).
///
/// Why the search may stop once each of these is found or rejected: the operation observes
/// the last writer of its mutex, which in a witness prefix is an event of the instance that
/// writes the mutex, or no writer; every observation outside the returned list is one the
/// closure rejects, with the operation counted as writing nothing (fewer writes give fewer
/// closure edges, so a rejection holds for the real event too, whatever it writes). The
/// thread's next step is fixed by its observations, so two runs of it that observe the
/// same writer are the same event: the candidates found cover every outcome.
fn lock_targets(
    inst: &[Vec<Ev>],
    c: usize,
    ev: &Ev,
    init: &dyn Fn(&Target) -> Option<u64>,
) -> Option<Vec<Obs>> {
    let [(key, _)] = ev.sync_reads[..] else {
        return None;
    };
    if key.0 != event::MUTEX || ev.obs.len() != 1 || !ev.choices.is_empty() {
        return None;
    }
    let mut writers = vec![None];
    for (t, evs) in inst.iter().enumerate() {
        for (i, e) in evs.iter().enumerate() {
            if e.sync_writes.contains(&key) {
                writers.push(Some((t, i as u32)));
            }
        }
    }
    let targets = writers
        .into_iter()
        .filter(|&w| {
            let probe = Ev::from(EvData {
                obs: vec![Obs::Sync(w)],
                choices: Vec::new(),
                pure_read: true,
                sync_reads: vec![(key, w)],
                sync_writes: Vec::new(),
                reads: Vec::new(),
                writes: Vec::new(),
                writes_symbolic: false,
            });
            closure::consistent(inst, Some((c, &probe)), init)
        })
        .map(Obs::Sync)
        .collect();
    Some(targets)
}

/// Greedy rule 1b (Section 4.2), for writes: whether the event `id` (`ev`, executable after
/// the prefix `s` and run there as `ran`) may be taken without trying the prefix's other
/// extensions. It may when it writes only global variables (`Machine::global_summary`), and
/// for every cell W it writes,
/// no event still to run needs W's value before it (the current one) or the value it
/// writes: every later event of the instance that touches W reads or writes exactly W,
/// and each such read observes neither value (compared by bytes, `closure::read_key`; a
/// read whose bytes are not known counts as needing both); the candidate (unless it has
/// run), whose value is not fixed, must not touch W at all (`order.cand_cells`): neither
/// read it nor write part of it. It must also observe nothing of synchronisation (a thread
/// creation observes the thread table), not end the run and leave no atomic section open.
/// This is the paper's rule (the active write and the new one are
/// good writes of no remaining read) with values in place of writers.
///
/// Why that loses no witness, no candidate observation and no run the candidate ends: let
/// `s·ρ` be one of them, with the event `e` at position p of ρ. Then `s·e·ρ'` (ρ without e)
/// is one too, with every event observing the same. e observes what it must after `s`
/// (it is executable there), and its step is fixed by its observations, so it writes the
/// same. Only the cells e writes can differ between the two runs' prefixes. A read of such
/// a cell W before p in ρ does not observe W's value at `s`, so some write of W (all of
/// W: no later event writes part of it) comes between `s` and it, in both runs; a read
/// after p does not observe e's value, so some write of W comes between e and it, in both
/// runs. Either way it observes the same write. The candidate touches no such cell. The
/// synchronisation objects are untouched by e, so every lock and join is enabled where it
/// was; e's thread is not inside an atomic section after e, and if some thread was inside
/// one after `s`, it is e's (e is runnable there), so p = 0.
/// The witness it finds may leave different values in those cells than another would:
/// the exploration reads a witness's memory only where it is the same in every witness
/// (its children's observations come from VerifySC; a wait named through memory, see
/// `wait_fixed` in the parent module), and its threads' positions and synchronisation,
/// which e leaves as they were.
fn quiet_write(
    s: &State,
    id: EvId,
    ev: &Ev,
    ran: &event::Ran,
    inst: &[Vec<Ev>],
    cand: Option<usize>,
    order: Order,
) -> bool {
    let (t, _) = id;
    if !ev.sync_reads.is_empty()
        || !ev.sync_writes.is_empty()
        || ran.step.end.is_some()
        || ran.machine.in_atomic(t)
    {
        return false;
    }
    // Per cell written: the cell, its value before e and after it.
    let mut cells: Vec<(Target, u64, u64)> = Vec::new();
    for a in ran.step.accesses.iter().filter(|a| a.write) {
        let before = s.machine().global_summary(&a.target);
        let after = ran.machine.global_summary(&a.target);
        let (Some(before), Some(after)) = (before, after) else {
            return false;
        };
        cells.push((a.target, before, after));
    }
    if cells.is_empty() {
        return false;
    }
    // Whether a later event needs a value of a written cell, or touches part of one.
    let needs = |e: &Ev| {
        let reads_one = e.mem_reads().any(|(r, v)| {
            cells.iter().any(|(w, before, after)| {
                r.overlaps(w)
                    && (r != w
                        || closure::read_key(v, w).is_none_or(|k| k == *before || k == *after))
            })
        });
        let writes_part = e
            .writes
            .iter()
            .any(|(x, _)| cells.iter().any(|(w, _, _)| x.overlaps(w) && x != w));
        reads_one || writes_part
    };
    let needed_later = inst.iter().enumerate().any(|(q, evs)| {
        let from = s.counts.get(q).copied().unwrap_or(0) as usize + usize::from(q == t);
        evs.iter().skip(from).any(needs)
    });
    let cand_cells = match cand {
        Some(_) if s.cand.is_none() => order.cand_cells.is_none_or(|rs| {
            rs.iter()
                .any(|r| cells.iter().any(|(w, _, _)| r.overlaps(w)))
        }),
        _ => false,
    };
    !needed_later && !cand_cells
}

/// The step ended the run before the other threads finished: a violation, a trap or a
/// bound (a finished run or a deadlock is an ordinary last state).
pub fn ended_early(step: &Step) -> bool {
    matches!(
        step.end,
        Some(RunEnd::Violation { .. } | RunEnd::Trap { .. } | RunEnd::Bound { .. })
    )
}
