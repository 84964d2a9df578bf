//! Symmetry breaking between identical thread instances: the first event of each of a group of
//! twins is ordered by their creation ([`encoder::SearchOrder`]).
//!
//! # Which threads are twins
//!
//! Thread instances t_1 … t_n (numbered in creation order) are one group when they
//! * were created by the same thread (their create points are items of its program order, in
//!   that order; two that both execute are created in that order);
//! * run the same entry function with the same argument, a constant (a bit-vector whose every
//!   bit is the encoder's true or false literal; an aggregate never qualifies);
//! * cannot tell themselves apart: none called `pthread_self`, none had a read take `main`'s
//!   value at its create (`main_values`: a fold that depends on where it was created), none
//!   made a heap or address-taken stack object (its number is part of the pointers the thread
//!   computes with, and differs between twins), none created a thread;
//! * nothing can tell them apart from outside: no join names any of them (a `pthread_join` is
//!   the only use of a handle that reaches the thread; comparing or storing handles only
//!   moves numbers around);
//! * each has an anchor: its first item is an event whose guard is the thread's creation guard
//!   (so it is executed whenever the thread is created, and no event of the thread comes
//!   before it), and all anchors of the group access the same location, the same way, from the
//!   same source line.
//!
//! Twins that do not meet this are left out (a group is the qualifying instances of one key);
//! anything unproved gives no order.
//!
//! # The order, and why no outcome is lost
//!
//! For consecutive twins t_i, t_j of a group (i < j), `anchor(t_i) → anchor(t_j)` under the
//! guard `created(t_i) ∧ created(t_j)`. Take any execution E (a total order of the executed
//! events of one valuation, under sequential consistency). Let S be the twins of the group that
//! E creates and sort S by the positions of their anchors. Each anchor comes after its own
//! thread's create, so the k-th earliest anchor comes after k distinct creates of S; those are
//! executed in the creator's program order, so it comes after the k-th create of S. Rename the
//! thread with the k-th earliest anchor to the k-th created member of S. Every renamed thread
//! keeps its steps, its values and its position in the order: its steps all come after its
//! anchor, which comes after its new create; what it did depended only on its code, its
//! argument and the values it read (it could not observe its number, nothing joined it, its
//! reads of memory are events of the same locations in every twin because no read was folded,
//! and it made no object whose number would differ). So the renamed execution E' is an
//! execution of the program with the same steps in the same order (every check that failed in
//! E fails in E', at the same step of a thread running the same code; an unwinding check or an
//! overflow likewise), and the anchor step of every member of S is the same step of its run
//! in both (the first shared access, fixed by the anchor condition). In E' the anchors of S
//! are in creation order, so E' satisfies every order added here. Hence restricting the search
//! to executions that satisfy them keeps every reachable error: a TRUE stays TRUE, and a
//! FALSE found under them is an execution of the unrestricted program (a subset of its
//! executions), so its trace and witness are real interleavings.
//!
//! Beyond the anchors, `twin_segments` orders later blocks of twins that are in the same
//! state there (its module doc carries that argument).
//!
//! The renaming keeps the threads' identity out of the property, which is what limits this to
//! unreach-call and no-overflow under sequential consistency (`SymexOptions::symmetry`): the
//! data-race encoding asks for an event to be directly after all program-order predecessors of
//! another and would take these orders as such predecessors, and the memory-safety checks
//! involve objects whose numbers would move.

use std::collections::HashMap;

use encoder::{AccessKind, Event, Location, ThreadItem};
use solver_glue::Lit;

use super::exec::Symex;
use crate::ir::{FuncId, Loc};

/// What twins share: the creator, the entry, the constant argument (value and width).
type TwinKey = (usize, FuncId, Option<(u64, u32)>);

/// An instance's first event and what it must match in its twins.
#[derive(Copy, Clone)]
struct Anchor {
    event: Event,
    guard: Lit,
    location: Location,
    kind: AccessKind,
    loc: Loc,
}

impl Symex<'_, '_, '_> {
    /// Adds the search orders between the anchors of consecutive twins (module doc).
    pub(super) fn break_symmetry(&mut self) {
        let tru = self.enc.tru();
        let joined: Vec<encoder::Thread> = self.eq.joins.iter().map(|j| j.child).collect();
        let creators: Vec<encoder::Thread> = self.eq.creates.iter().map(|c| c.parent).collect();
        let mut groups: HashMap<TwinKey, Vec<Anchor>> = HashMap::new();
        for t in self.threads.iter().skip(1) {
            let Some(parent) = t.parent else { continue };
            let d = t.distinct;
            if d.identity || d.folded || d.objects {
                continue;
            }
            let th = t.info.thread;
            if joined.contains(&th) || creators.contains(&th) {
                continue;
            }
            let arg = match &t.arg {
                None => None,
                Some(v) => {
                    let Some(b) = v.scalar() else { continue };
                    let Some(c) = b.const_value(tru) else {
                        continue;
                    };
                    Some((c, b.width()))
                }
            };
            let Some(&ThreadItem::Event(e)) = self.eq.threads[th].items.first() else {
                continue;
            };
            let ev = &self.eq.events[e];
            if ev.guard != t.info.guard {
                continue;
            }
            let anchor = Anchor {
                event: e,
                guard: t.info.guard,
                location: ev.location,
                kind: ev.kind,
                loc: self.event_info[e].loc,
            };
            groups
                .entry((parent, t.info.entry, arg))
                .or_default()
                .push(anchor);
        }
        let mut keys: Vec<TwinKey> = groups.keys().copied().collect();
        keys.sort();
        for key in keys {
            let group = &groups[&key];
            let first = group[0];
            if group
                .iter()
                .any(|a| (a.location, a.kind, a.loc) != (first.location, first.kind, first.loc))
            {
                continue;
            }
            for pair in group.windows(2) {
                let guard = self.enc.and(pair[0].guard, pair[1].guard);
                if self.enc.const_value(guard) == Some(false) {
                    continue;
                }
                self.eq
                    .add_search_order(pair[0].event, pair[1].event, guard);
            }
            let twins: Vec<encoder::Thread> = group
                .iter()
                .map(|a| self.eq.events[a.event].thread)
                .collect();
            self.order_twin_segments(&twins, &group.iter().map(|a| a.guard).collect::<Vec<_>>());
        }
    }
}
