//! Links implied false by the current event order graph: a link whose read-from edge, or
//! whose from-read edge (the paper's rule 2 seen from the link), would close a cycle is set
//! false with the path that closes the cycle as its reason (true literals), so the solver
//! learns it without waiting for the conflict.
//!
//! Soundness: the reason is a set of true literals whose edges form a path; with the link's
//! own edge it would be a cycle, which no execution has, so the clause `¬reason ∨ ¬link` is
//! implied by the theory's constraints (the same argument as for a conflict in
//! [`super`]). The search is bounded by a work budget per pass: fewer implications cost
//! conflicts later, never soundness.

use super::{OrderTheory, PROPAGATION_BUDGET};
use solver_glue::Lit;

impl OrderTheory {
    /// Links of executed reads that are not yet assigned and whose read-from or from-read edge
    /// would close a cycle: their negations, each with its reason recorded. A read-from edge
    /// w → r closes one when r ⇝ w; a from-read edge r → w2 (w2 executed, w known to come
    /// before w2) when w2 ⇝ r. Both are found by one forward and one backward search from r,
    /// bounded by the topological positions of the writes concerned and by a work budget.
    pub(super) fn implied_links(&mut self) -> Vec<Lit> {
        let mut out = Vec::new();
        let mut budget = PROPAGATION_BUDGET;
        // Scratch reused across reads and passes (this runs at every propagation fixpoint).
        let mut open = std::mem::take(&mut self.open_scratch);
        let mut blocked = std::mem::take(&mut self.blocked_scratch);
        let mut closing = std::mem::take(&mut self.closing_scratch);
        for i in 0..self.executed.len() {
            if budget == 0 {
                break;
            }
            let r = self.executed[i];
            if self.linked[r as usize] != u32::MAX {
                continue;
            }
            let (lo, hi) = self.read_links[r as usize];
            open.clear();
            open.extend((lo..hi).filter(|&k| !self.assigned(self.links[k as usize].lit)));
            if open.len() < 2 {
                // One candidate left: ζ's clauses decide it.
                continue;
            }
            let cr = self.clock[r as usize];
            let pr = self.dag.position(cr);
            // Read-from edges w → r with r ⇝ w.
            let hi_pos = open
                .iter()
                .map(|&k| {
                    self.dag
                        .position(self.clock[self.links[k as usize].write as usize])
                })
                .max()
                .unwrap_or(0);
            blocked.clear();
            blocked.resize(open.len(), false);
            if hi_pos > pr {
                let visits = self.dag.search(cr, true, hi_pos, budget);
                budget = visits.map_or(0, |v| budget - v);
                if visits.is_some() {
                    for (j, &k) in open.iter().enumerate() {
                        let l = self.links[k as usize];
                        let cw = self.clock[l.write as usize];
                        if cw != cr && self.dag.reached(cw) {
                            let mut reason = Vec::new();
                            self.dag.path_reasons(cw, &mut reason);
                            blocked[j] = true;
                            self.imply(!l.lit, reason, &mut out);
                        }
                    }
                }
            }
            // From-read edges r → w2 with w2 ⇝ r.
            let li = self.read_loc[r as usize] as usize;
            let lo_pos = self.loc_writes[li]
                .iter()
                .filter(|&&w| self.active[w as usize])
                .map(|&w| self.dag.position(self.clock[w as usize]))
                .min()
                .unwrap_or(u32::MAX);
            if lo_pos > pr || budget == 0 {
                continue;
            }
            match self.dag.search(cr, false, lo_pos, budget) {
                Some(v) => budget -= v,
                None => {
                    budget = 0;
                    continue;
                }
            }
            // The executed writes w2 with w2 ⇝ r, in the location's order: the same for every
            // link of r, so found once (the order keeps the first w2 each link picks).
            closing.clear();
            closing.extend(self.loc_writes[li].iter().copied().filter(|&w2| {
                let c2 = self.clock[w2 as usize];
                self.active[w2 as usize]
                    && if c2 == cr {
                        self.pos[w2 as usize] < self.pos[r as usize]
                    } else {
                        self.dag.reached(c2)
                    }
            }));
            if closing.is_empty() {
                continue;
            }
            for (j, &k) in open.iter().enumerate() {
                if blocked[j] {
                    continue;
                }
                let l = self.links[k as usize];
                let Some(&w2) = closing
                    .iter()
                    .find(|&&w2| w2 != l.write && self.before(l.write, w2))
                else {
                    continue;
                };
                let c2 = self.clock[w2 as usize];
                let mut reason = Vec::new();
                if c2 != cr {
                    self.dag.path_reasons(c2, &mut reason);
                }
                reason.extend(self.order_lit(l.write, w2));
                reason.extend(self.guard[w2 as usize]);
                self.imply(!l.lit, reason, &mut out);
            }
        }
        self.open_scratch = open;
        self.blocked_scratch = blocked;
        self.closing_scratch = closing;
        out
    }

    /// Records `lit` as implied by `reason` (true literals), once.
    fn imply(&mut self, lit: Lit, mut reason: Vec<Lit>, out: &mut Vec<Lit>) {
        let v = lit.var().index();
        if self.assigned(lit) || out.contains(&lit) {
            return;
        }
        reason.sort_unstable();
        reason.dedup();
        self.stats.reason_literals += reason.len() as u64;
        if let Some(r) = &mut self.recorded {
            let mut clause: Vec<Lit> = reason.iter().map(|&l| !l).collect();
            clause.push(lit);
            r.push(clause);
        }
        if v >= self.implied_reason.len() {
            self.implied_reason.resize(v + 1, Vec::new());
        }
        self.implied_reason[v] = reason;
        out.push(lit);
    }
}
