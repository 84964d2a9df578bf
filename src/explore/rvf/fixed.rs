//! A candidate read whose observation the closure fixes: appended to the node's witness
//! without a VerifySC search.
//!
//! At a node, VerifySC (`verify_sc::search`) enumerates every observation thread `t`'s next
//! event can make in some witness of the instance plus it, searching witness prefixes from
//! the initial state. Most of those searches (a lock after the last release, a join of a
//! finished thread, a read of a cell the thread's lock protects) have one answer, which the
//! node's own witness gives: run the event at its end. This module proves that answer is
//! the only one with the closure (`closure`) and returns it, so the search is skipped.
//!
//! # Why the answer is complete
//!
//! Let `ev` be the event run at the end of the node's witness (a real run: its observations
//! are those of a witness of the instance plus it). Let `e` be any event thread `t` runs
//! next in some witness τ of the instance plus `e`. Thread `t`'s local state is fixed by the
//! instance, so `e` is the same instruction as `ev`, run with the same registers; it differs
//! only in what its observations give. We require:
//! - one outcome of the step (`run_all`: no nondet values), not inside an atomic section
//!   (where a later access can go where an earlier read points) and not leaving one open;
//! - no `Obs::Alive` (whether an object is alive is not an observation the closure orders);
//! - every memory read of the step comes before any write of an overlapping cell in the
//!   step (it observes the state before the event); the values `e` writes may differ from
//!   `ev`'s (they can depend on what it reads), so the probes below count them as
//!   wildcards, good writes of every read of their cell (`closure`'s `Probe`), which the
//!   closure's argument allows;
//! - its synchronisation writes are fixed by the instruction: none, or a mutex operation
//!   other than a trylock and a condition wait (each writes its mutex whatever it observes),
//!   a thread creation (the thread table) or a join (none). Its targets are fixed too: a
//!   step makes at most one fresh shared read, and where it reads and writes is computed
//!   from its thread's state (`event::next_cells`).
//!
//! Then, for each synchronisation read of `ev` (object k), every other writer of k in the
//! instance, and no writer, is ruled out: when `ev` writes k, a writer w that another event
//! of the instance writing k observes (not itself) is impossible for `e` (both follow w
//! with no write of k between; the later of the two would observe the earlier); no writer
//! of a thread's done object is impossible for a join (it waits for the end); any other is
//! rejected by the closure with a probe event that reads only k,
//! observing that writer, and writes what `ev` writes (memory as wildcards): `e`'s read of k in τ observes its
//! last writer before `e`, which τ shows consistent (τ contains the closure's edges, the
//! argument of `closure`, for the probe too: it constrains less than `e` does). So `e`
//! observes `ev`'s writer. For each memory read of `ev` (cell c), `closure::sources` leaves
//! one possible last write of c before the read, and `ev` observed it: so does `e`, the
//! same write event, hence the same bytes and pointers. With every observation equal, `e`
//! is `ev` (a thread is deterministic given its observations). The search would have
//! returned exactly one observation, `ev`'s, with a witness (or the run `ev` ends); we
//! return the same, with the node's witness plus `ev` as its witness.
//!
//! Only used without a causal map (the default): with one, the witness must also satisfy the
//! map, which the node's witness plus `ev` need not.

use super::closure;
use super::event::{self, Ev, EvData, EvId, Obs, SyncWriters, Unmodelled};
use super::verify_sc::{self, Ended, Found, State};
use crate::explore::interp::{Machine, Target};
use crate::ir::InstrKind;

/// The observations thread `t`'s next event makes in every witness of `inst` plus it, with
/// the node's witness `sched` (ending in `machine`, with synchronisation writers `sync`)
/// extended by it; `None` when the closure cannot show that there is only one (then the
/// search decides). `init` gives a global cell's initial summary.
pub fn search<'p>(
    machine: &Machine<'p>,
    inst: &[Vec<Ev>],
    sched: &[usize],
    sync: &SyncWriters,
    t: usize,
    init: &dyn Fn(&Target) -> Option<u64>,
) -> Result<Option<Found<'p>>, Unmodelled> {
    if !machine.runnable().contains(&t) {
        return Ok(None);
    }
    let fixed_writes = matches!(
        machine.next_kind(t),
        Some(
            InstrKind::MutexLock(_)
                | InstrKind::MutexUnlock(_)
                | InstrKind::ThreadCreate { .. }
                | InstrKind::ThreadJoin { .. }
        )
    );
    let idx = inst.get(t).map_or(0, |v| v.len()) as u32;
    let mut outs = event::run_all(machine, t, idx, sync)?;
    if outs.len() != 1 {
        return Ok(None);
    }
    let ran = outs.pop().expect("one outcome");
    if ran.step.atomic || ran.machine.in_atomic(t) {
        return Ok(None);
    }
    let ev = ran.event();
    let acc = &ran.step.accesses;
    let read_first = acc.iter().enumerate().all(|(i, a)| {
        a.write
            || !acc[..i]
                .iter()
                .any(|b| b.write && b.target.overlaps(&a.target))
    });
    if !ev.choices.is_empty()
        || ev.obs.iter().any(|o| matches!(o, Obs::Alive))
        || !read_first
        || (!ev.sync_writes.is_empty() && !fixed_writes)
    {
        return Ok(None);
    }
    let probe = |sync_reads| {
        Ev::from(EvData {
            obs: Vec::new(),
            choices: Vec::new(),
            pure_read: false,
            sync_reads,
            sync_writes: ev.sync_writes.clone(),
            reads: Vec::new(),
            writes: ev.writes.clone(),
            writes_symbolic: ev.writes_symbolic,
        })
    };
    for &(key, seen) in &ev.sync_reads {
        let writes_key = ev.sync_writes.contains(&key);
        let mut writers = vec![None];
        // Writers another event that writes the object observes (not itself).
        let mut taken: Vec<Option<EvId>> = Vec::new();
        for (q, evs) in inst.iter().enumerate() {
            for (i, e) in evs.iter().enumerate() {
                let id = (q, i as u32);
                if e.sync_writes.contains(&key) {
                    writers.push(Some(id));
                    taken.extend(
                        e.sync_reads
                            .iter()
                            .filter(|&&(k, w)| k == key && w != Some(id))
                            .map(|&(_, w)| w),
                    );
                }
            }
        }
        // Ruled out without the closure: a writer another event that writes the object
        // observes, when the candidate writes it too (of two events that observe the same
        // writer and write the object, the later would observe the earlier); no writer of
        // a thread's end (a join waits for it).
        let other = writers
            .into_iter()
            .filter(|&w| w != seen)
            .filter(|w| !(writes_key && taken.contains(w)))
            .filter(|w| !(key.0 == event::DONE && w.is_none()))
            .any(|w| closure::consistent_wild(inst, (t, &probe(vec![(key, w)])), init));
        if other {
            return Ok(None);
        }
    }
    for (cell, _) in ev.mem_reads() {
        match closure::sources(inst, (t, &probe(Vec::new())), cell, init) {
            Some(s) if s.len() == 1 => {}
            _ => return Ok(None),
        }
    }
    let mut sched = sched.to_vec();
    sched.push(t);
    let mut found = Found {
        states: 1,
        ..Found::default()
    };
    if verify_sc::ended_early(&ran.step) {
        found.ended.push(Ended {
            sched,
            event: ev,
            end: ran.step.end.clone().expect("ended"),
            step: ran.step,
        });
    } else {
        let mut counts: Vec<u32> = inst.iter().map(|v| v.len() as u32).collect();
        counts.resize(counts.len().max(t + 1), 0);
        counts[t] += 1;
        let st = State::witness(ran.machine, counts, ran.sync, sched);
        found.witnesses.push((Some(ev), st));
    }
    Ok(Some(found))
}
