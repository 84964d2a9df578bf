//! no-data-race in the default engine: race pairs as conditional edges of the ordering theory.
//!
//! SV-COMP's data race is two accesses to the same memory location by different threads, at
//! least one a write and not both atomic, that can occur one directly after the other. Under
//! sequential consistency that is: some reachable state has both accesses enabled (the next
//! step of their threads). For an ordered pair (a, b) of events of different threads, such a
//! state exists with a taken first iff some execution has
//!
//! > every program-order predecessor of b  <  a  <  b
//!
//! in its total order. (⇐) Just before a, thread j has done everything before b and not b:
//! b is its next step (b's guard, the path condition, depends only on j's earlier reads); a
//! is the next step of thread i. (⇒) From the state where both are enabled, run a, then b,
//! then the rest: an execution of the program, which symbolic execution covers within the
//! bound (a loop past the bound is an unwinding check, which blocks a TRUE as always).
//!
//! So each candidate pair gets a fresh literal `r` with `r → guard(a) ∧ guard(b)` and two
//! kinds of edges present while `r` holds: `a → b`, and `p → a` for every order edge `p → b`
//! into b's clock (its thread's previous item, its creation point, a joined thread's end;
//! each conjoined with its own guard). The ordering theory's acyclicity check on a full
//! assignment is exact (`encoder::ordering::theory`), so a model with `r` true is a real
//! execution with that order, and UNSAT over all `r` means no pair can be adjacent. The
//! error of the property is the disjunction of the race literals; assertions are no errors
//! (a failed one stops its thread, which the other threads' steps can always precede).
//!
//! Clocks: the events of an atomic block share one, so an access inside a section races
//! with a non-atomic access as the whole block (the block runs at a's place, directly
//! before or after the other access); two accesses both in sections are no candidates. A
//! predecessor edge from a's own clock (a creation inside a's atomic block) is left out: the
//! block is a's place itself.
//!
//! Orientation: a pair with one access in an atomic section is encoded with the section
//! first only. The argument above needs b's guard and address to depend only on j's reads
//! before b's clock; inside a section they also depend on the section's own reads before b,
//! which read at the block's place — after a, and after whatever else the order puts between
//! a and b. So "preds(b) < a < b" with b in a section is no race state: a block whose
//! `assume(lock == 0)` fails while another thread holds a spin lock made of atomic functions
//! could run after that thread's unguarded read of the lock and its release, and the read
//! was reported as racing with the block's write (pthread-ext/41_FreeBSD_abd_kbd_sliced,
//! tests/programs/races/atomic_spinlock_read_true.c). Nothing is lost: in a state where the
//! block and a non-atomic access x are both enabled, running the block, then x, is an
//! execution too (x's guard and address depend only on its thread's earlier reads), and it
//! has "preds(x) < block < x". The blocks of a byte object's access are no sections: their
//! events' guards and addresses are fixed before the block, so both orders stay.
//!
//! Candidates: events of one location (a cell: typed objects have one per scalar, byte
//! objects one per byte, so different fields or bytes never race), of two threads other than
//! the init thread, at least one a write, not both in sections, not on a lock's state (mutex
//! operations are synchronisation), and not ordered by unconditional program order (creation
//! and join), under which the edges would be cyclic anyway.

use encoder::{Encoder, Equation, Event, OrderTheory, ProgramOrder};
use solver_glue::Lit;

use crate::symex::SymexOutput;

/// A candidate race: `first` directly before `second`, while `lit` holds.
#[derive(Copy, Clone, Debug)]
pub struct RacePair {
    pub first: Event,
    pub second: Event,
    pub lit: Lit,
}

/// The candidate pairs of `out` as ordered pairs (first, second) to encode: both orders of
/// two accesses outside sections, only the section's access first otherwise (see the module
/// doc's orientation).
pub fn candidates(out: &SymexOutput, po: &ProgramOrder) -> Vec<(Event, Event)> {
    let eq = &out.equation;
    let init = eq.init_thread();
    let mut by_loc: Vec<Vec<Event>> = vec![Vec::new(); eq.locations.len()];
    for (e, d) in eq.events.iter() {
        if d.thread != init && !out.sync_locations.contains(&d.location) {
            by_loc[cranelift_entity::EntityRef::index(d.location)].push(e);
        }
    }
    let mut pairs = Vec::new();
    for events in &by_loc {
        for (i, &x) in events.iter().enumerate() {
            let dx = &eq.events[x];
            for &y in &events[i + 1..] {
                let dy = &eq.events[y];
                if dx.thread == dy.thread
                    || (dx.is_read() && dy.is_read())
                    || (out.event_info[x].section && out.event_info[y].section)
                    || eq.true_lit == !dx.guard
                    || eq.true_lit == !dy.guard
                    || po.po_before(x, y)
                    || po.po_before(y, x)
                {
                    continue;
                }
                let (sx, sy) = (out.event_info[x].section, out.event_info[y].section);
                if !sy {
                    pairs.push((x, y));
                }
                if !sx {
                    pairs.push((y, x));
                }
            }
        }
    }
    pairs
}

/// Encodes every candidate pair in its order (`first` directly before `second`) on `enc`
/// and `theory` (before it is connected); the pairs with their literals.
pub fn encode(
    eq: &Equation,
    candidates: &[(Event, Event)],
    theory: &mut OrderTheory,
    enc: &mut Encoder,
) -> Vec<RacePair> {
    let into = theory.clock_in_edges();
    let mut edges = Vec::new();
    let mut pairs = Vec::with_capacity(candidates.len());
    for &(a, b) in candidates {
        let r = enc.new_lit();
        enc.add_clause(&[!r, eq.events[a].guard]);
        enc.add_clause(&[!r, eq.events[b].guard]);
        let (ca, cb) = (theory.clock_of(a), theory.clock_of(b));
        edges.push((ca, cb, r));
        for &(p, g) in &into[cb as usize] {
            if p == ca || g == !eq.true_lit {
                continue;
            }
            let lit = if g == eq.true_lit { r } else { enc.and(r, g) };
            edges.push((p, ca, lit));
        }
        pairs.push(RacePair {
            first: a,
            second: b,
            lit: r,
        });
    }
    theory.add_conditional_edges(&edges);
    pairs
}

/// The schedule of a race model cut to the race: the events before `first`'s clock, its
/// clock's events, then `second`'s (the events of one atomic block are consecutive in
/// `order`). A prefix of a schedule is one, and `second` is enabled after it (see the module
/// doc).
pub fn cut(eq: &Equation, order: &[Event], pair: &RacePair) -> Vec<Event> {
    let same_block = |e: Event, of: Event| {
        e == of || (eq.events[of].atomic.is_some() && eq.events[e].atomic == eq.events[of].atomic)
    };
    let start = order
        .iter()
        .position(|&e| same_block(e, pair.first))
        .unwrap_or(order.len());
    let mut cut: Vec<Event> = order[..start].to_vec();
    cut.extend(
        order[start..]
            .iter()
            .filter(|&&e| same_block(e, pair.first)),
    );
    cut.extend(order.iter().filter(|&&e| same_block(e, pair.second)));
    cut
}
