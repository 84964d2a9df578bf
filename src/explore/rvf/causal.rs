//! Causal maps (the paper's Section 5), for value-based instances.
//!
//! A frontier is a per-thread lower set of events, given by per-thread lengths: event
//! `(t, i)` is inside frontier `f` when `i < f[t]` (threads beyond `f` have nothing inside).
//! An event id names the same event in every node below the one that made it (a thread's
//! prefix only grows along the exploration tree), so a map from event ids to frontiers can
//! be handed down the tree.
//!
//! An event is *internal* to a frontier in a run when everything it observes comes from
//! inside: every write the run made before it to a cell it reads (or, for a write that
//! observes that its object is alive, to a cell it writes: a free is a write of the whole
//! object) is inside, and every synchronisation writer it observes is none or inside. The
//! initial value counts as inside. "Every earlier write to an overlapping cell" is kept as
//! the list of writes with the latest per exact target (`Writers`), a superset of the
//! writes that made the bytes it reads: a test that may answer "not internal" for an event
//! whose bytes all come from inside (partially overlapping writes), never the converse.
//! That direction is the safe one: a run is cut only when an event is internal.
//!
//! A run *satisfies* a causal map `C` when no event `r` of `dom(C)` that it executes is
//! internal to `C(r)`: the reads-from sources inside `C(r)` were covered by an earlier
//! sibling (see `mod.rs`, "Causal maps").

use std::collections::BTreeMap;
use std::rc::Rc;

use super::event::{EvId, SyncKey};
use crate::explore::interp::{Access, Target};
use crate::explore::sched::Step;

/// Per-thread lengths: the events `(t, i)` with `i < f[t]`.
pub type Frontier = Rc<[u32]>;

/// The causal map of a node: event → the frontier it must not be internal to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CausalMap(BTreeMap<EvId, Frontier>);

impl CausalMap {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, r: EvId) -> Option<&Frontier> {
        self.0.get(&r)
    }

    /// Sets `C(r) := f` (an entry inherited from an ancestor is replaced: frontiers only
    /// grow along a path, so the new one is a superset).
    pub fn set(&mut self, r: EvId, f: Frontier) {
        self.0.insert(r, f);
    }

    pub fn iter(&self) -> impl Iterator<Item = (EvId, &Frontier)> {
        self.0.iter().map(|(r, f)| (*r, f))
    }

    /// Every run that satisfies `other` satisfies `self`: each entry of `self` is in
    /// `other` with a frontier at least as large (internal to the smaller frontier implies
    /// internal to the larger one).
    pub fn implied_by(&self, other: &CausalMap) -> bool {
        self.0.iter().all(|(r, f)| {
            other.0.get(r).is_some_and(|g| {
                f.iter()
                    .enumerate()
                    .all(|(t, &l)| l <= g.get(t).copied().unwrap_or(0))
            })
        })
    }
}

/// Whether event `w` is inside frontier `f`.
pub fn inside(w: EvId, f: &[u32]) -> bool {
    f.get(w.0).is_some_and(|&l| w.1 < l)
}

/// The memory writes of a run prefix that a later access may observe: per exact target the
/// latest, most recent last, each with a tag the caller gives (VerifySC: the frontiers the
/// writer is outside of).
pub type Writers = Vec<(Target, EvId, u64)>;

/// The memory accesses of a step whose outcome depends on earlier writes: its reads, and
/// its writes to objects that can die (they observe that the object is alive, `event::Obs`).
fn observing(a: &Access) -> bool {
    match a.target {
        Target::Mem { obj, .. } => !a.write || obj.owner != 0,
        _ => false,
    }
}

/// Whether the step `step`, observing the synchronisation writers `sync_reads`, run after a
/// prefix whose writes are `writes`, is internal to `f`.
pub fn internal(
    step: &Step,
    sync_reads: &[(SyncKey, Option<EvId>)],
    writes: &Writers,
    f: &[u32],
) -> bool {
    sync_reads
        .iter()
        .all(|(_, w)| w.is_none_or(|w| inside(w, f)))
        && step.accesses.iter().filter(|a| observing(a)).all(|a| {
            writes
                .iter()
                .all(|(t, w, _)| !a.target.overlaps(t) || inside(*w, f))
        })
}

/// Adds the memory writes of `step`, event `id`, to `writes`, tagged `tag`.
pub fn record(writes: &mut Writers, id: EvId, step: &Step, tag: u64) {
    for a in step.accesses.iter().filter(|a| a.write) {
        if let Target::Mem { .. } = a.target {
            writes.retain(|(t, _, _)| *t != a.target);
            writes.push((a.target, id, tag));
        }
    }
}
