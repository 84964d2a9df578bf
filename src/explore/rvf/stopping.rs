//! Silent stops: a child instance whose new read stops its thread for good (a failed
//! assumption, `abort`, `exit`) without any effect another thread can see is not explored.
//! The stop may come a few steps later: the read and the steps of its thread up to the stop
//! may touch globals that no other thread can access (the sharing pass finds them private:
//! `main$tmp_guard0 = cnt == 2; assume_abort_if_not(main$tmp_guard0)`).
//!
//! SV-COMP tasks guard their final checks with `assume_abort_if_not(counter == n)`: the
//! main thread reads a counter the workers increment and stops unless all have run. Each
//! value the read can observe short of `n` gives a child in which main is stopped and the
//! workers' whole space is explored again below it (pthread-wmm `mix*`: one copy per
//! counter value). Those copies find nothing the exploration does not find elsewhere.
//!
//! # Why that loses no violation, trap or bound
//!
//! Call a global *private to t* when the sharing pass (`crate::sharing`, the one symbolic
//! execution trusts for the same purpose) finds that at most one thread instance accesses it
//! and t does: no other thread reads or writes it. Let r be thread t's next event at node N,
//! and o an observation of r such that r's step, run at the end of a witness, and then t's
//! following steps s_1..s_k, run alone from there, each write only globals private to t,
//! observe only globals private to t (no synchronisation object: no lock or unlock, no
//! thread creation or join, no end of thread that a join observes; no nondet value), do not
//! end the run, and leave t stopped after s_k (`Machine::is_over` without `is_done`: a
//! stopped thread takes no further step, a join of it waits forever, and it leaves any
//! atomic section). Each step is fixed by its thread's observations; those of s_1..s_k are
//! of memory only t writes, so in every run where r observes o, t's events after r are
//! s_1..s_k (or a prefix of them, if the run ends first), whatever the other threads do.
//! Take a run T that fits the child N_o (parent module, "Causal maps"): it contains r
//! observing o. Let T' be T without r and t's events after it. Those events wrote only
//! memory no other thread accesses and no synchronisation object, so every other event of
//! T observes in T' what it did in T (its step is the same), and every event enabled in T is
//! enabled in T' (they released nothing, created nothing; an atomic section of t could only
//! keep other threads from running, which T' does not need). So T' makes T's other steps in
//! T's order: it ends with the same violation, trap or bound as T (none of the removed steps
//! ends the run: a candidate that does is reported as an ended run, not as a child, and the
//! chain stops at any step that would). T' fits N: its events of X'(N) observe what they
//! did in T through the same writes (internality to lens(N) is unchanged), r is not in
//! X'(N) (nor are t's later events), and any causal-map entry of r holds vacuously. T' has
//! fewer events outside X'(N) than T, so the completeness argument's induction (on that
//! number, at the same node N) meets its end through another of N's reads. A run that ends
//! without a violation, trap or bound (finished or deadlocked) records nothing, so losing
//! it loses no verdict.
//!
//! The node must process a read other than r for T\r: when r was processed alone (a
//! settled read, `settled`), the node processes its other reads too, as it does for a
//! candidate that ends the run short of a violation. Losing N_o loses leaves, so the
//! classes counted (`Options::count_classes`) would drop: the prune is off while counting.

use cranelift_entity::EntityRef;

use super::event::{self, Ev, Obs, SyncWriters};
use crate::explore::interp::{Machine, Target};
use crate::ir::{Program, VarId};
use crate::sharing::{AbsObj, Sharing};

/// Steps of the stopping thread followed after the read at most.
const CHAIN: usize = 32;

/// The globals the sharing pass finds private (at most one thread instance accesses each).
pub struct Private {
    private: Vec<bool>,
}

impl Private {
    pub fn of(prog: &Program, sharing: &Sharing) -> Private {
        let mut private = vec![false; prog.vars.len()];
        for (v, d) in prog.vars.iter() {
            if d.is_global() && !d.thread_local {
                private[v.index()] = !sharing.is_shared(AbsObj::Global(v));
            }
        }
        Private { private }
    }

    /// Whether `cell` lies in a global no thread but the one that accesses it can access.
    fn cell(&self, m: &Machine, cell: &Target) -> bool {
        let Target::Mem { obj, .. } = *cell else {
            return false;
        };
        obj.owner == 0
            && m.global_of(obj)
                .is_some_and(|v: VarId| self.private.get(v.index()).copied().unwrap_or(false))
    }

    /// Whether an event (its reads and writes) touches only private globals and observes no
    /// synchronisation object and no nondet value.
    fn quiet(&self, m: &Machine, ev: &Ev) -> bool {
        ev.sync_reads.is_empty()
            && ev.sync_writes.is_empty()
            && ev.choices.is_empty()
            && ev.obs.iter().all(|o| matches!(o, Obs::Mem(_)))
            && ev.reads.iter().all(|c| self.cell(m, c))
            && ev.writes.iter().all(|(c, _)| self.cell(m, c))
    }

    /// Whether `ev`, thread `t`'s new event (its `idx`-th), whose step leaves the machine in
    /// `after` with the synchronisation writers `sync` (the end of a witness with `ev` last
    /// of its thread), stops `t` silently: see the module doc.
    pub fn silent_stop(
        &self,
        ev: &Ev,
        after: &Machine,
        sync: &SyncWriters,
        t: usize,
        idx: u32,
    ) -> bool {
        // The read itself may observe anything (its observations fix its step); it may
        // write only private globals and no synchronisation object.
        if !ev.sync_writes.is_empty() || !ev.writes.iter().all(|(c, _)| self.cell(after, c)) {
            return false;
        }
        let mut m = after.clone();
        let mut sync = sync.clone();
        for k in 0..=CHAIN {
            if m.is_over(t) {
                return !m.is_done(t);
            }
            if k == CHAIN || !m.runnable().contains(&t) {
                return false;
            }
            let Ok(ran) = event::run(&m, t, idx + 1 + k as u32, &[], &sync) else {
                return false;
            };
            if ran.step.end.is_some() || !self.quiet(&ran.machine, &ran.event()) {
                return false;
            }
            m = ran.machine;
            sync = ran.sync;
        }
        false
    }
}
