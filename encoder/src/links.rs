//! ζ: every executed read takes its value from exactly one write of its location.
//!
//! For each read r and each candidate write w of its location there is one link literal
//! `s(r,w)` ("r reads from w") with
//! * `s ⇒ guard(r) ∧ guard(w)` and `s ⇒ value(r) = value(w)`,
//! * `guard(r) ⇒ ∨_w s(r,w)` and at most one `s(r,w)` per read.
//!
//! Candidates are pruned only where no execution can use them:
//! * a write after r in (unconditional) program order;
//! * a write w with a write w' of the same location such that w ≺ w' ≺ r, where w' is
//!   unconditional or has r's guard: whenever r executes, w' executes between w and r and
//!   overwrites w (if w executes at all; if r does not execute, its links are false anyway);
//! * `in_own_block`: a write of another thread when such a w' (executed whenever r is) lies
//!   in r's own atomic block. An atomic block runs without interruption in every execution the
//!   encodings admit (the schedule and the ordering theory make it one node), so no event of
//!   another thread falls between w' and r: a write of another thread comes before w' (and is
//!   overwritten by it) or after r. This is the read of a location a block has just written
//!   (`x--; if (x == 0)` inside `__VERIFIER_atomic_begin/end`), which otherwise keeps a link
//!   to every write of the location in the program.
//!
//! The value equalities are the bulk of ζ (two clauses per bit of every candidate pair: tens of
//! millions of clauses and gigabytes on the largest tasks). With [`ValueEquality::Theory`] the
//! equalities of bit pairs that are not both constant and not of one variable are left to the
//! ordering theory, which enforces `s ⇒ value(r) = value(w)` on them inside the search
//! (`ordering::theory::values`): the same constraint, created only for the links the search
//! makes true. Pairs of two constants or of one variable keep their (unit or no) clauses.

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

/// Where ζ's value equalities `s(r,w) ⇒ value(r) = value(w)` go.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueEquality {
    /// Two clauses per bit, on the solver (what every engine can use).
    Clauses,
    /// Those with a non-constant bit are left to the ordering theory (see the module documentation):
    /// only for a solver with an [`crate::OrderTheory`] connected, which must then be built
    /// from this table.
    Theory,
    /// [`ValueEquality::Theory`] when the clauses left to the theory would be more than this
    /// many, else [`ValueEquality::Clauses`].
    TheoryAbove(u64),
}

/// The link literals of every read.
#[derive(Clone, Debug, Default)]
pub struct LinkTable {
    links: SecondaryMap<Event, Vec<Link>>,
    reads: Vec<Event>,
    size: Counters,
    /// The value equalities of [`theory_bit`] pairs are the theory's to enforce.
    values_in_theory: bool,
    /// The clauses those equalities are (added or left to the theory).
    value_clauses: u64,
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
            values_in_theory: self.values_in_theory,
            ..LinkTable::default()
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

    /// Whether the value equalities with a non-constant bit were left to the ordering theory
    /// ([`ValueEquality::Theory`]).
    pub fn values_in_theory(&self) -> bool {
        self.values_in_theory
    }

    /// The value clauses of ζ that [`ValueEquality::Theory`] leaves to the theory: added to the
    /// solver, or (when [`LinkTable::values_in_theory`]) the ones the theory stands for.
    pub fn value_clauses(&self) -> u64 {
        self.value_clauses
    }
}

/// How many clauses the equality of read bit `rb` and write bit `wb` under a link takes when
/// [`ValueEquality::Theory`] leaves it to the ordering theory: 2 for two non-constant bits of
/// different variables, 1 for one constant and one non-constant bit, 0 (the clauses stay: none
/// or a unit) for two constants or one variable.
pub(crate) fn theory_bit(rb: Lit, wb: Lit, tru: Lit) -> u64 {
    let (rc, wc) = (rb.var() == tru.var(), wb.var() == tru.var());
    if rb.var() == wb.var() || (rc && wc) {
        0
    } else if rc || wc {
        1
    } else {
        2
    }
}

/// Encodes ζ for all reads of `eq` on `enc` (the φ encoder: guards and values are its
/// literals, and its true literal is `eq.true_lit`), with every value equality as clauses.
/// `po` must be [`ProgramOrder::unconditional`] of `eq` (it drives pruning).
pub fn encode_links(
    eq: &Equation,
    po: &ProgramOrder,
    enc: &mut Encoder,
) -> Result<LinkTable, EquationError> {
    encode_links_with(eq, po, enc, ValueEquality::Clauses)
}

/// [`encode_links`] with the value equalities where `values` says.
pub fn encode_links_with(
    eq: &Equation,
    po: &ProgramOrder,
    enc: &mut Encoder,
    values: ValueEquality,
) -> Result<LinkTable, EquationError> {
    assert_eq!(
        enc.tru(),
        eq.true_lit,
        "ζ goes on the encoder that built the equation"
    );
    eq.validate()?;
    let before = enc.counters();
    let writes = eq.writes_by_location();
    let tru = eq.true_lit;
    // The candidate writes of every read first: the size of the value equalities decides
    // where they go.
    let mut candidates: Vec<(Event, Vec<Event>)> = Vec::new();
    let mut value_clauses = 0u64;
    for (r, rd) in eq.events.iter() {
        if !rd.is_read() {
            continue;
        }
        let loc_writes = &writes[rd.location];
        let mut cands = Vec::new();
        // Writes of the location that happen before r whenever r happens (unconditional, or
        // under r's own guard): any write before one of them is always overwritten before r
        // reads.
        let mut always_before = BitSet::with_capacity(eq.events.len());
        // Whether such a write lies in r's own atomic block (see `in_own_block`).
        let mut block_write = false;
        for &w2 in loc_writes {
            let wd2 = &eq.events[w2];
            if (wd2.guard == eq.true_lit || wd2.guard == rd.guard) && po.po_before(w2, r) {
                always_before.insert(w2.index());
                block_write |= rd.atomic.is_some() && wd2.atomic == rd.atomic;
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
                if block_write && wd.thread != rd.thread {
                    continue; // `in_own_block`
                }
                value_clauses += rd
                    .value
                    .bits()
                    .iter()
                    .zip(wd.value.bits())
                    .map(|(&rb, &wb)| theory_bit(rb, wb, tru))
                    .sum::<u64>();
                cands.push(w);
            }
        }
        candidates.push((r, cands));
    }
    let in_theory = match values {
        ValueEquality::Clauses => false,
        ValueEquality::Theory => true,
        ValueEquality::TheoryAbove(limit) => value_clauses > limit,
    };
    let mut table = LinkTable {
        values_in_theory: in_theory,
        value_clauses,
        ..LinkTable::default()
    };
    for (r, cands) in candidates {
        let rd = &eq.events[r];
        table.reads.push(r);
        let mut links = Vec::with_capacity(cands.len());
        let mut shared = SharedValues::of(eq, &cands);
        // The same bit pairs are left to the theory with and without a shared value: the
        // literals made do not depend on where the equalities go (the clause check replays
        // ζ in clause mode and needs the engine's numbering).
        let skip = |rb: Lit, wb: Lit| in_theory && theory_bit(rb, wb, tru) > 0;
        for w in cands {
            let wd = &eq.events[w];
            let s = enc.new_lit();
            enc.assert_implies(s, rd.guard);
            enc.assert_implies(s, wd.guard);
            if let Some((a, fresh)) = shared.literal(wd.value.bits(), enc) {
                // `s ⇒ a`, and `a ⇒ value(r) = value(w)` once per value (see `SharedValues`).
                enc.assert_implies(s, a);
                if fresh {
                    equal_bits(enc, a, rd.value.bits(), wd.value.bits(), &skip);
                }
                links.push(Link { write: w, lit: s });
                continue;
            }
            equal_bits(enc, s, rd.value.bits(), wd.value.bits(), &skip);
            links.push(Link { write: w, lit: s });
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

/// Adds `s ⇒ rb = wb` for every bit pair of `read` and `write` that `skip` does not leave out.
fn equal_bits(
    enc: &mut Encoder,
    s: Lit,
    read: &[Lit],
    write: &[Lit],
    skip: &dyn Fn(Lit, Lit) -> bool,
) {
    for (&rb, &wb) in read.iter().zip(write) {
        if skip(rb, wb) {
            continue;
        }
        enc.add_clause(&[!s, !rb, wb]);
        enc.add_clause(&[!s, rb, !wb]);
    }
}

/// The values that two or more candidate writes of one read write (the same bit literals,
/// e.g. the constant 0 of `location[i] = NULL` under each index a symbolic `i` may take), each
/// with one literal `a` made when first needed: every link `s` to such a write gets `s ⇒ a`
/// and the value equality is added once, as `a ⇒ value(r) = value`.
///
/// Sound and complete: the clauses imply the original `s ⇒ value(r) = value(w)` (through `a`),
/// so every model of the new clauses satisfies the old ones; and every model of the old
/// clauses extends to the new ones by `a := ∨ s` over the links of that value (if one holds,
/// the read has that value). `a` occurs in no other clause, so the models agree on every other
/// variable: the verdicts, traces and theory clauses are the same. For elimination_backoff_stack
/// (43 of the 57 writes of each `location` cell write 0) this halves ζ.
struct SharedValues {
    by_value: hashbrown::HashMap<Vec<Lit>, Option<Lit>>,
}

impl SharedValues {
    /// The values written by at least two of `cands`.
    fn of(eq: &Equation, cands: &[Event]) -> SharedValues {
        let mut count: hashbrown::HashMap<&[Lit], u32> = hashbrown::HashMap::new();
        for &w in cands {
            *count.entry(eq.events[w].value.bits()).or_default() += 1;
        }
        SharedValues {
            by_value: count
                .into_iter()
                .filter(|&(_, n)| n >= 2)
                .map(|(bits, _)| (bits.to_vec(), None))
                .collect(),
        }
    }

    /// The literal of value `bits` and whether it was just made (its equality still to be
    /// added), or `None` when no other candidate writes it.
    fn literal(&mut self, bits: &[Lit], enc: &mut Encoder) -> Option<(Lit, bool)> {
        let slot = self.by_value.get_mut(bits)?;
        match *slot {
            Some(a) => Some((a, false)),
            None => {
                let a = enc.new_lit();
                *slot = Some(a);
                Some((a, true))
            }
        }
    }
}
