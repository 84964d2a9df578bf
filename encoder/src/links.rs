//! ζ: every executed read takes its value from exactly one write of its location.
//!
//! For each read r and each candidate write w of its location there is one link literal
//! `s(r,w)` ("r reads from w") with
//! * `s ⇒ guard(r) ∧ guard(w)` and `s ⇒ value(r) = value(w)`,
//! * `guard(r) ⇒ ∨_w s(r,w)` and at most one `s(r,w)` per read.
//!
//! Candidates are pruned only where no execution can use them: a write after r in
//! (unconditional) program order, and a write w with an unconditional write w' of the same
//! location such that w ≺ w' ≺ r (w' always sits between w and r).

use crate::equation::{Equation, EquationError, Event};
use crate::gates::{Counters, Encoder};
use crate::program_order::{BitSet, ProgramOrder};
use cranelift_entity::EntityRef;
use cranelift_entity::SecondaryMap;
use solver_glue::Lit;

/// One candidate read-from pair of a read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Link {
    pub write: Event,
    /// True iff the read takes its value from `write`.
    pub lit: Lit,
}

/// The link literals of every read.
#[derive(Clone, Debug, Default)]
pub struct LinkTable {
    links: SecondaryMap<Event, Vec<Link>>,
    reads: Vec<Event>,
    size: Counters,
}

impl LinkTable {
    /// The reads, in event order.
    pub fn reads(&self) -> &[Event] {
        &self.reads
    }

    /// The candidate writes of `read` with their link literals.
    pub fn candidates(&self, read: Event) -> &[Link] {
        &self.links[read]
    }

    /// Total number of link literals.
    pub fn num_links(&self) -> usize {
        self.reads.iter().map(|&r| self.links[r].len()).sum()
    }

    /// The write `read` takes its value from under the valuation `value` (a model), if any.
    pub fn read_from(&self, read: Event, value: impl Fn(Lit) -> bool) -> Option<Event> {
        self.links[read]
            .iter()
            .find(|l| value(l.lit))
            .map(|l| l.write)
    }

    /// The same table keeping only the links `keep` accepts (e.g. those true in a model):
    /// the exact check needs no constraint for a link that is false.
    pub fn restrict(&self, keep: impl Fn(Lit) -> bool) -> LinkTable {
        let mut out = LinkTable {
            links: SecondaryMap::new(),
            reads: self.reads.clone(),
            size: Counters::default(),
        };
        for &r in &self.reads {
            out.links[r] = self.links[r]
                .iter()
                .copied()
                .filter(|l| keep(l.lit))
                .collect();
        }
        out
    }

    /// Variables and clauses ζ added.
    pub fn size(&self) -> Counters {
        self.size
    }
}

/// Encodes ζ for all reads of `eq` on `enc` (the φ encoder: guards and values are its
/// literals, and its true literal is `eq.true_lit`). `po` must be
/// [`ProgramOrder::unconditional`] of `eq` (it drives pruning).
pub fn encode_links(
    eq: &Equation,
    po: &ProgramOrder,
    enc: &mut Encoder,
) -> Result<LinkTable, EquationError> {
    assert_eq!(
        enc.tru(),
        eq.true_lit,
        "ζ goes on the encoder that built the equation"
    );
    eq.validate()?;
    let before = enc.counters();
    let writes = eq.writes_by_location();
    let mut table = LinkTable::default();
    for (r, rd) in eq.events.iter() {
        if !rd.is_read() {
            continue;
        }
        table.reads.push(r);
        let loc_writes = &writes[rd.location];
        let mut links = Vec::new();
        // Writes of the location that always happen before r: any write before one of them
        // is always overwritten before r reads.
        let mut always_before = BitSet::with_capacity(eq.events.len());
        for &w2 in loc_writes {
            if eq.events[w2].guard == eq.true_lit && po.po_before(w2, r) {
                always_before.insert(w2.index());
            }
        }
        if enc.const_value(rd.guard) != Some(false) {
            for &w in loc_writes {
                let wd = &eq.events[w];
                if wd.value.width() != rd.value.width() {
                    return Err(EquationError::WidthMismatch { read: r, write: w });
                }
                if enc.const_value(wd.guard) == Some(false) || po.po_before(r, w) {
                    continue;
                }
                if po.any_after(w, &always_before) {
                    continue;
                }
                let s = enc.new_lit();
                enc.assert_implies(s, rd.guard);
                enc.assert_implies(s, wd.guard);
                for (&rb, &wb) in rd.value.bits().iter().zip(wd.value.bits()) {
                    enc.add_clause(&[!s, !rb, wb]);
                    enc.add_clause(&[!s, rb, !wb]);
                }
                links.push(Link { write: w, lit: s });
            }
        }
        let mut some: Vec<Lit> = vec![!rd.guard];
        some.extend(links.iter().map(|l| l.lit));
        enc.add_clause(&some);
        let lits: Vec<Lit> = links.iter().map(|l| l.lit).collect();
        enc.at_most_one(&lits);
        table.links[r] = links;
    }
    table.size = enc.counters() - before;
    Ok(table)
}
