//! Symmetry breaking between identical thread instances: the first event of each of a group of
//! twins is ordered by their creation ([`encoder::SearchOrder`]).
//!
//! # Which threads are twins
//!
//! Thread instances t_1 … t_n (numbered in creation order) are one group when they
//! * were created by the same thread (their create points are items of its program order, in
//!   that order; two that both execute are created in that order);
//! * run the same code with the same argument, a constant (a bit-vector whose every bit is the
//!   encoder's true or false literal; an aggregate never qualifies): the same entry function,
//!   or entry functions whose bodies are the same code under different names (`same_body`,
//!   whose doc says why nothing can tell such functions apart);
//! * cannot tell themselves apart: none called `pthread_self`, none had a read take `main`'s
//!   value at its create (`main_values`: a fold that depends on where it was created) unless
//!   `main` made no event between the creates of the group's members (or of their ancestor
//!   among `main`'s children; equal `main_mark`s): the value folded is that of `main`'s
//!   writes emitted before the mark, the same for all of them; every heap or address-taken
//!   stack object one of them made is private (no other thread may access it) and no use
//!   observes its address (section "Objects of their own" below); none created a thread;
//! * nothing can tell them apart from outside: no join names any of them, or the joins that
//!   do are one join block of their creator (`joins`, section "Joined twins" below); a
//!   `pthread_join` is the only use of a handle that reaches the thread (comparing or storing
//!   handles only moves numbers around);
//! * each has an anchor: its first item is an event whose guard is the thread's creation guard
//!   (so it is executed whenever the thread is created, and no event of the thread comes
//!   before it), and all anchors of the group access the same location, the same way, from the
//!   same source line (for twins of different entry functions: from the same line relative to
//!   their entry's, or the same line of a function both call).
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
//! argument and the values it read (it could not observe its number, no join told it apart, its
//! reads of memory are events of the same locations in every twin, or folds of the same
//! writes of `main` (no other thread writes a folded cell, and `main`'s writes before the
//! equal marks are the same), and the objects it made are its own up to their numbers, next
//! section). So the renamed execution E' is an
//! execution of the program with the same steps in the same order (every check that failed in
//! E fails in E', at the same step of a thread running the same code; an unwinding check or an
//! overflow likewise), and the anchor step of every member of S is the same step of its run
//! in both (the first shared access, fixed by the anchor condition). In E' the anchors of S
//! are in creation order, so E' satisfies every order added here. Hence restricting the search
//! to executions that satisfy them keeps every reachable error: a TRUE stays TRUE, and a
//! FALSE found under them is an execution of the unrestricted program (a subset of its
//! executions), so its trace and witness are real interleavings.
//!
//! # Objects of their own
//!
//! Twins make their objects (an address-taken local, a heap cell) under different numbers,
//! and a pointer is an object number and an offset: twin t_i's k-th object is o_{i,k}, t_j's
//! is o_{j,k}. The renaming that hands t_i's run to t_j also renames o_{i,k} to o_{j,k} in
//! every value of that run; nothing else moves. That run is still what t_j's code does when
//! * the objects are private (`Sharing::is_shared` false: no pointer to them reaches memory
//!   another thread accesses, the thread's argument or its result). Then only the twin's own
//!   steps access them, and a private object's contents are values on the twin's path, not
//!   events: no other thread reads or writes them, so renaming them changes no event;
//! * no use observes their addresses (`Sharing::address_observed` false, whose module
//!   `sharing::addresses` lists the uses that do not: dereferences, copies, pointer
//!   arithmetic). A pointer to o_{i,k} then only selects o_{i,k} when it is dereferenced,
//!   and after the renaming the same pointer selects o_{j,k}, which holds the same contents
//!   (the same steps wrote it); every other value (an integer, a condition, a guard, a value
//!   written to a shared location, a check) is computed from values that are the same in both
//!   runs, since no comparison, integer conversion or arithmetic ever took a number in. The
//!   points-to sets over-approximate every value a pointer takes, through variables and
//!   memory, so a use the check does not flag has no pointer to these objects.
//!
//! So t_j running t_i's run with its own numbers makes the same events with the same guards
//! and values, and the argument above goes through. `symmetry_private_address_false.c` is the
//! error when a comparison observes an address: there, ordering the twins would hide it.
//!
//! Beyond the anchors, `twin_segments` orders later blocks of twins that are in the same
//! state there (its module doc carries that argument).
//!
//! # Joined twins
//!
//! A join of twin c waits for c's end, and a renamed execution runs another twin's steps as c:
//! a join that singles out some twins could wait in E' for a run that ends later, or never.
//! The joins are harmless when they are one *join block* B of the creator P: calls
//! C_1 … C_m of `pthread_join` by P, one after another on one path (the guard after C_i is the
//! guard before C_{i+1}, so no branch lies between), each naming one thread whatever the values
//! (a constant handle), none storing the return value, with no check added from C_1 to C_m and
//! no item of P (event, create) between their join points; every member of the group is
//! named by some C_i, no other join names a member, and no join names P. (P may name other
//! threads in B too.) Then after B, P's guard is `g_1 ∧ ⋀_i done(c_i)`, with g_1 the guard
//! before C_1: an `and` over a set of threads that contains the whole group.
//!
//! Renaming σ maps the created twins S onto themselves and leaves every other thread (and the
//! uncreated members, which are done in neither) alone, so `⋀_i done(c_i)` keeps its value: P
//! passes B in E' exactly when it does in E, and all its guards and values outside B are the
//! same (B stores nothing and checks nothing). The guards inside B may change (which join
//! points are reached), but nothing of P lies there. The order of E' is that of E with the
//! join points of B moved:
//! * if P passes B in E, every join point of B is executed and every thread it names is
//!   done, each ended before its join point, so before the last one, J_m; the group's members
//!   are all named, so every run of S ends before J_m. Put all join points of B just before
//!   J_m's position (P has nothing between them): each now names, in E', a run of S or an
//!   unrenamed thread, ended before;
//! * if P does not pass B in E, it does not in E' either: nothing of P after the join points
//!   reached is executed, and nothing waits for P's end (no join names P). Put the join points
//!   of B, and P's end, after everything else: every edge into them comes from before.
//!
//! Either way E' is an execution with the same steps of every thread, and the argument above
//! goes through. A block that checks something between two joins is excluded because the check
//! could hold in E only while some twins (the ones joined so far) are done, which σ changes; a
//! join that stores the return value gives P a value of the particular thread joined; a join
//! of only some twins (a constant handle of t[0] without t[1]) lets P go on in E' when the
//! runs it waits for differ (the test program `symmetry_joined_false.c` is that error).
//!
//! The renaming keeps the threads' identity out of the property, which is what limits this to
//! unreach-call and no-overflow under sequential consistency (`SymexOptions::symmetry`): the
//! data-race encoding asks for an event to be directly after all program-order predecessors of
//! another and would take these orders as such predecessors, and the memory-safety checks
//! involve objects whose numbers would move.

mod joins;
mod same_body;

use std::collections::HashMap;

use encoder::{AccessKind, Event, Location, ThreadItem};
use solver_glue::Lit;

use super::exec::Symex;
use crate::ir::{FuncId, Loc};

/// What twins share: the creator, the entry (the first of the functions with its body), the
/// constant argument (value and width).
type TwinKey = (usize, FuncId, Option<(u64, u32)>);

/// An instance's first event and what it must match in its twins.
#[derive(Copy, Clone)]
struct Anchor {
    number: usize,
    /// A read of the thread took `main`'s value at its create, or that of its ancestor
    /// (`main_mark`: how many events there were then).
    folded: bool,
    main_mark: Option<usize>,
    event: Event,
    guard: Lit,
    location: Location,
    kind: AccessKind,
    loc: Loc,
    /// Where its entry function starts (the anchor of a twin of another entry function lies
    /// on the same line relative to it).
    entry_loc: Loc,
}

impl Anchor {
    /// The same access from the same source point of the same code.
    fn matches(&self, other: &Anchor) -> bool {
        let relative = |a: &Anchor| a.loc.line.wrapping_sub(a.entry_loc.line);
        (self.location, self.kind) == (other.location, other.kind)
            && (self.loc == other.loc
                || (self.loc.file == other.loc.file && relative(self) == relative(other)))
    }
}

impl Symex<'_, '_, '_> {
    /// Adds the search orders between the anchors of consecutive twins (module doc).
    pub(super) fn break_symmetry(&mut self) {
        let tru = self.enc.tru();
        let creators: Vec<encoder::Thread> = self.eq.creates.iter().map(|c| c.parent).collect();
        let entries: Vec<FuncId> = self.threads.iter().skip(1).map(|t| t.info.entry).collect();
        let reps = same_body::representatives(self.prog, &self.opts.unwindset, &entries);
        let mut groups: HashMap<TwinKey, Vec<Anchor>> = HashMap::new();
        for (number, t) in self.threads.iter().enumerate().skip(1) {
            let Some(parent) = t.parent else { continue };
            let d = t.distinct;
            if d.identity || d.objects {
                continue;
            }
            let th = t.info.thread;
            if creators.contains(&th) {
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
                number,
                folded: d.folded,
                main_mark: t.main_mark,
                event: e,
                guard: t.info.guard,
                location: ev.location,
                kind: ev.kind,
                loc: self.event_info[e].loc,
                entry_loc: self.prog.funcs[t.info.entry].loc,
            };
            let entry = reps.get(&t.info.entry).copied().unwrap_or(t.info.entry);
            groups.entry((parent, entry, arg)).or_default().push(anchor);
        }
        let mut keys: Vec<TwinKey> = groups.keys().copied().collect();
        keys.sort();
        for key in keys {
            let mut group = groups.remove(&key).unwrap_or_default();
            let numbers: Vec<usize> = group.iter().map(|a| a.number).collect();
            if !self.joins_keep_twins(key.0, &numbers) {
                // The members no join names are still twins among themselves.
                let joined: Vec<encoder::Thread> = self.eq.joins.iter().map(|j| j.child).collect();
                group.retain(|a| !joined.contains(&self.threads[a.number].info.thread));
            }
            // A value folded from `main`'s is the same in every twin only when `main` made no
            // event between their creates.
            let mark = group.first().map(|a| a.main_mark);
            if group.iter().any(|a| a.folded) && group.iter().any(|a| Some(a.main_mark) != mark) {
                group.retain(|a| !a.folded);
            }
            let Some(first) = group.first().copied() else {
                continue;
            };
            if group.iter().any(|a| !a.matches(&first)) {
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
            // A join observes a twin's end: then its end condition belongs to every suffix.
            let joined = self.eq.joins.iter().any(|j| twins.contains(&j.child));
            let ends: Option<Vec<Lit>> = joined.then(|| {
                group
                    .iter()
                    .map(|a| self.threads[a.number].finished)
                    .collect()
            });
            let created: Vec<Lit> = group.iter().map(|a| a.guard).collect();
            self.order_twin_segments(&twins, &created, ends.as_deref());
        }
    }
}
