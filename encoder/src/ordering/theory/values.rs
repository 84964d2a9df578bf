//! ζ's value equalities inside the search: `s(r,w) ⇒ value(r) = value(w)` for the bit pairs
//! that [`crate::ValueEquality::Theory`] left out of the clauses (not both constant, not of
//! one variable).
//!
//! The theory observes the non-constant bits of those pairs. Whenever a link is true and one
//! bit of a pair is assigned (a constant always is), the other is implied with the reason
//! `{s, that bit}` (`{s}` for a constant); when both are assigned and differ, the conflict
//! clause is `¬s ∨ ¬a ∨ ¬b` over their current values (without the constant's literal). These
//! are exactly the clauses `¬s ∨ ¬rb ∨ wb` and `¬s ∨ rb ∨ ¬wb` that ζ would have added
//! (simplified by the constant), so every conflict and reason is implied by ζ (soundness), and
//! only the links the search makes true ever cost anything (the gain: the clauses of all other
//! candidate pairs are never built). The theory does not derive `¬s` from two differing bits
//! (that would need watching every candidate link): a weaker propagation, not a weaker check.
//!
//! Exactness on a full assignment: of a true link `s` and the two bits of a pair, the one the
//! theory processes last sees the other two assigned (values are known from the moment the
//! solver reports them), so a difference is a conflict then. An implication that is dropped
//! (a later conflict in the same pass) is therefore never needed for exactness. The engine
//! still compares every linked read's value with its write's on the model before FALSE
//! ([`OrderTheory::values_hold`]).

use super::{OrderTheory, Role};
use crate::equation::{Equation, Event};
use crate::links::{theory_bit, LinkTable};
use cranelift_entity::EntityRef;
use solver_glue::Lit;

/// The value bits of every read and write event, when the theory enforces value equalities.
pub(super) struct ValueBits {
    /// Per event (by index): its value bits (empty for events that are not accesses).
    bits: Vec<Vec<Lit>>,
    tru: Lit,
}

impl ValueBits {
    /// The bits of `eq`'s accesses and the roles of the bits of `links` whose equality is the
    /// theory's: `ReadBit(r, i)` / `WriteBit(w, i)` on both literals of each such bit.
    pub(super) fn new(eq: &Equation, links: &LinkTable) -> (ValueBits, Vec<(usize, Role)>) {
        let tru = eq.true_lit;
        let mut bits = vec![Vec::new(); eq.events.len()];
        for (e, d) in eq.events.iter() {
            if d.is_read() || d.is_write() {
                bits[e.index()] = d.value.bits().to_vec();
            }
        }
        // Per event, which of its bits take part in some lazy pair.
        let mut marked: Vec<Vec<bool>> = vec![Vec::new(); eq.events.len()];
        let mut roles = Vec::new();
        let mut mark = |e: usize, i: usize, read: bool, roles: &mut Vec<(usize, Role)>| {
            let m = &mut marked[e];
            if m.is_empty() {
                m.resize(bits[e].len(), false);
            }
            if !m[i] {
                m[i] = true;
                let b = bits[e][i];
                let role = if read {
                    Role::ReadBit(e as u32, i as u32)
                } else {
                    Role::WriteBit(e as u32, i as u32)
                };
                roles.push((b.code(), role));
                roles.push(((!b).code(), role));
            }
        };
        for &r in links.reads() {
            for l in links.candidates(r) {
                let (rbits, wbits) = (&bits[r.index()], &bits[l.write.index()]);
                let lazy: Vec<usize> = (0..rbits.len())
                    .filter(|&i| theory_bit(rbits[i], wbits[i], tru) > 0)
                    .collect();
                for i in lazy {
                    // A constant bit is never assigned: it needs no role.
                    if rbits[i].var() != tru.var() {
                        mark(r.index(), i, true, &mut roles);
                    }
                    if wbits[i].var() != tru.var() {
                        mark(l.write.index(), i, false, &mut roles);
                    }
                }
            }
        }
        (ValueBits { bits, tru }, roles)
    }
}

impl OrderTheory {
    /// The current value of `l` (`None`: unassigned), `tru` being the constant true.
    fn current(&self, l: Lit, tru: Lit) -> Option<bool> {
        if l.var() == tru.var() {
            return Some(l == tru);
        }
        match self.on_trail.get(l.var().index()).copied().unwrap_or(0) {
            0 => None,
            p => Some((p == 1) == l.is_positive()),
        }
    }

    /// Link `k` became true: every pair of its bits.
    pub(super) fn link_values(&mut self, k: u32) -> Result<(), Vec<Lit>> {
        let Some(vb) = &self.values else {
            return Ok(());
        };
        let l = self.links[k as usize];
        let n = vb.bits[l.read as usize].len();
        for i in 0..n {
            self.equal_bits(k, i)?;
        }
        Ok(())
    }

    /// Bit `i` of read `r` was assigned: its pair under the read's true link, if any.
    pub(super) fn read_bit(&mut self, r: u32, i: u32) -> Result<(), Vec<Lit>> {
        match self.linked[r as usize] {
            u32::MAX => Ok(()),
            k => self.equal_bits(k, i as usize),
        }
    }

    /// Bit `i` of write `w` was assigned: its pairs under the true links that read from `w`.
    pub(super) fn write_bit(&mut self, w: u32, i: u32) -> Result<(), Vec<Lit>> {
        for j in 0..self.readers[w as usize].len() {
            let k = self.readers[w as usize][j];
            self.equal_bits(k, i as usize)?;
        }
        Ok(())
    }

    /// Enforces bit `i` of true link `k`: implies the unassigned side from the assigned one,
    /// or fails with `¬s ∨ ¬a ∨ ¬b` when both are assigned and differ.
    fn equal_bits(&mut self, k: u32, i: usize) -> Result<(), Vec<Lit>> {
        let Some(vb) = &self.values else {
            return Ok(());
        };
        let l = self.links[k as usize];
        let (rb, wb, tru) = (
            vb.bits[l.read as usize][i],
            vb.bits[l.write as usize][i],
            vb.tru,
        );
        if theory_bit(rb, wb, tru) == 0 {
            return Ok(());
        }
        // The literal of `x` that is true when `x` has value `v`; none for a constant.
        let now = |x: Lit, v: bool| (x.var() != tru.var()).then_some(if v { x } else { !x });
        match (self.current(rb, tru), self.current(wb, tru)) {
            (Some(a), Some(b)) if a != b => {
                let mut clause: Vec<Lit> = [Some(l.lit), now(rb, a), now(wb, b)]
                    .into_iter()
                    .flatten()
                    .map(|x| !x)
                    .collect();
                clause.sort_unstable();
                Err(clause)
            }
            (Some(a), None) => {
                let lit = now(wb, a).expect("an unassigned bit is no constant");
                self.imply_value(lit, &[Some(l.lit), now(rb, a)])
            }
            (None, Some(b)) => {
                let lit = now(rb, b).expect("an unassigned bit is no constant");
                self.imply_value(lit, &[Some(l.lit), now(wb, b)])
            }
            _ => Ok(()),
        }
    }

    /// Queues `lit` (unassigned now) as implied by `reason` (true now). Two opposite
    /// implications of one variable in one pass are a conflict over both reasons.
    fn imply_value(&mut self, lit: Lit, reason: &[Option<Lit>]) -> Result<(), Vec<Lit>> {
        let reason: Vec<Lit> = reason.iter().flatten().copied().collect();
        let v = lit.var().index();
        if v >= self.pending_mark.len() {
            self.pending_mark.resize(v + 1, 0);
        }
        let pol = if lit.is_positive() { 1 } else { 2 };
        match self.pending_mark[v] {
            0 => {}
            p if p == pol => return Ok(()),
            _ => {
                let mut clause: Vec<Lit> = self.implied_reason[v]
                    .iter()
                    .chain(&reason)
                    .map(|&l| !l)
                    .collect();
                clause.sort_unstable();
                clause.dedup();
                return Err(clause);
            }
        }
        self.pending_mark[v] = pol;
        if v >= self.implied_reason.len() {
            self.implied_reason.resize(v + 1, Vec::new());
        }
        self.stats.reason_literals += reason.len() as u64;
        if let Some(r) = &mut self.recorded {
            let mut clause: Vec<Lit> = reason.iter().map(|&x| !x).collect();
            clause.push(lit);
            r.push(clause);
        }
        self.implied_reason[v] = reason;
        self.pending.push(lit);
        Ok(())
    }

    /// The value implications queued in this pass, the queue emptied.
    pub(super) fn take_pending(&mut self) -> Vec<Lit> {
        for l in &self.pending {
            self.pending_mark[l.var().index()] = 0;
        }
        std::mem::take(&mut self.pending)
    }

    /// Whether every read of the model `value` takes its write's value, bit for bit (the
    /// check before a FALSE when the value equalities are the theory's).
    pub(super) fn values_hold(
        &self,
        eq: &Equation,
        value: &dyn Fn(Lit) -> bool,
    ) -> Result<(), String> {
        for l in &self.links {
            if !value(l.lit) {
                continue;
            }
            let (r, w) = (Event::new(l.read as usize), Event::new(l.write as usize));
            let (rd, wd) = (&eq.events[r], &eq.events[w]);
            let differ = rd
                .value
                .bits()
                .iter()
                .zip(wd.value.bits())
                .any(|(&a, &b)| value(a) != value(b));
            if differ {
                return Err(format!(
                    "read {} does not take the value of its write {} in the model",
                    l.read, l.write
                ));
            }
        }
        Ok(())
    }
}
