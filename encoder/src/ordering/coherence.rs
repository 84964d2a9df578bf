//! Coherence literals: the order in which the writes of one location happen.
//!
//! For every two writes of one location that program order does not already order, one fresh
//! variable says which comes first (true: the lower-numbered event). Nothing constrains these
//! variables by clauses: the ordering theory reads them, and they only mean something when both
//! writes execute. With them, an assignment is a consistent execution exactly when the graph of
//! program order, read-from, coherence and from-read edges is acyclic (see `theory`), so the
//! theory's check on a full assignment is exact and the solver does the case splits that the
//! closure rules of the paper cannot decide (the "butterfly" patterns).
//!
//! Writes whose guard is the constant false never execute and get no variables.

use cranelift_entity::{EntityRef, SecondaryMap};
use solver_glue::Lit;

use crate::equation::{Equation, Event, Location};
use crate::gates::Encoder;
use crate::program_order::ProgramOrder;
use crate::schedule::ScheduleEncoding;

/// One unordered pair of writes with its variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CoherencePair {
    /// The lower-numbered write.
    pub first: Event,
    pub second: Event,
    /// True iff `first` comes before `second` (when both execute).
    pub lit: Lit,
}

/// The coherence literals of an equation.
#[derive(Clone, Debug, Default)]
pub struct Coherence {
    /// Per location, its writes that may execute, in event order.
    pub(crate) writes: SecondaryMap<Location, Vec<Event>>,
    pairs: Vec<CoherencePair>,
}

impl Coherence {
    /// Creates one variable on `enc` (the φ encoder) per pair of writes of a location that
    /// `po` ([`ProgramOrder::unconditional`]) leaves unordered, in a deterministic order.
    pub fn encode(eq: &Equation, po: &ProgramOrder, enc: &mut Encoder) -> Coherence {
        let mut writes: SecondaryMap<Location, Vec<Event>> = SecondaryMap::new();
        for (e, d) in eq.events.iter() {
            if d.is_write() && d.guard != !eq.true_lit {
                writes[d.location].push(e);
            }
        }
        let mut pairs = Vec::new();
        for loc in eq.locations.keys() {
            let ws = &writes[loc];
            for (i, &a) in ws.iter().enumerate() {
                for &b in &ws[i + 1..] {
                    if po.po_before(a, b) || po.po_before(b, a) {
                        continue;
                    }
                    pairs.push(CoherencePair {
                        first: a,
                        second: b,
                        lit: enc.new_lit(),
                    });
                }
            }
        }
        Coherence { writes, pairs }
    }

    /// Every pair with its variable.
    pub fn pairs(&self) -> &[CoherencePair] {
        &self.pairs
    }

    /// Number of coherence variables.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are no coherence variables.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Ties every coherence literal to the clocks of ξ built on `enc` in shared mode: when both
    /// writes execute, the literal says which clock is smaller. Every execution satisfies these
    /// clauses for the right choice of literals, so φ ∧ ζ ∧ ξ with them has the same executions;
    /// a clause over guards, links and coherence literals that it implies holds in all of them.
    pub fn define_on_schedule(
        &self,
        eq: &Equation,
        po: &ProgramOrder,
        xi: &ScheduleEncoding,
        enc: &mut Encoder,
    ) {
        for p in &self.pairs {
            let (ga, gb) = (eq.events[p.first].guard, eq.events[p.second].guard);
            let ab = xi.order_literal(eq, po, enc, p.first, p.second);
            let ba = xi.order_literal(eq, po, enc, p.second, p.first);
            enc.add_clause(&[!p.lit, !ga, !gb, ab]);
            enc.add_clause(&[p.lit, !ga, !gb, ba]);
        }
        debug_assert!(self
            .pairs
            .iter()
            .all(|p| p.first.index() < p.second.index()));
    }
}
