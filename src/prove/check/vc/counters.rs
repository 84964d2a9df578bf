//! Counter ghosts in the VC program: the counting facts assumed in a pre-state, and the
//! updates of every step (see `check::counters` for why this is sound).

use super::*;
use crate::prove::check::counters::{counting_facts, counts, created};

/// `c := c + 1` (or `- 1`).
/// `ty` is the counters' type (unsigned int: `well_formed` checks it).
fn add(b: &mut Branch, ty: TypeId, c: VarId, up: bool) {
    let op = if up { BinOp::Add } else { BinOp::Sub };
    let src = Expr {
        kind: ExprKind::Binary(
            op,
            Box::new(Expr::read(Place::var(c, ty))),
            Box::new(Expr::constant(1, ty)),
        ),
        ty,
    };
    b.emit(InstrKind::Assign {
        dst: Place::var(c, ty),
        src,
    });
}

/// An instance of `t` leaves `l`: every counter that counts it goes down.
pub(super) fn leave(b: &mut Branch, cert: &Certificate, ty: TypeId, t: TemplateId, l: InstrId) {
    for c in &cert.counters {
        if counts(c, t, l) {
            add(b, ty, c.var, false);
        }
    }
}

/// An instance of `t` arrives at `l`: every counter that counts it goes up.
pub(super) fn arrive(b: &mut Branch, cert: &Certificate, ty: TypeId, t: TemplateId, l: InstrId) {
    for c in &cert.counters {
        if counts(c, t, l) {
            add(b, ty, c.var, true);
        }
    }
}

impl Vc<'_> {
    fn counter_add(&self, b: &mut Branch, c: VarId, up: bool) {
        add(b, self.uint, c, up);
    }

    /// Assumes the counting facts for the distinct instances at `at`.
    pub(super) fn count_facts(&self, b: &mut Branch, at: &[(TemplateId, InstrId)]) {
        let facts = counting_facts(self.cert, at);
        for (c, lo, hi) in facts.bounds {
            let ty = self.prog.vars[c].ty;
            if lo > 0 {
                let f = self.cmp(BinOp::UGe, self.var(c), Expr::constant(lo, ty));
                b.emit(InstrKind::Assume(f));
            }
            let f = self.cmp(BinOp::ULe, self.var(c), Expr::constant(hi, ty));
            b.emit(InstrKind::Assume(f));
        }
        // After the bounds: `a + k` does not overflow (a <= MAX_INSTANCES, k <= 2).
        for (a, big, k) in facts.nested {
            let ty = self.prog.vars[a].ty;
            let sum = Expr {
                kind: ExprKind::Binary(
                    BinOp::Add,
                    Box::new(self.var(a)),
                    Box::new(Expr::constant(k, ty)),
                ),
                ty,
            };
            let f = self.cmp(BinOp::UGe, self.var(big), sum);
            b.emit(InstrKind::Assume(f));
        }
    }

    /// The counters as they start: one for main's entry where it is counted.
    pub(super) fn init_counters(&self, b: &mut Branch) {
        for c in &self.cert.counters {
            if counts(c, self.ts.main, InstrId::new(0)) {
                self.counter_add(b, c.var, true);
            }
        }
    }

    /// An instance of `t` moves from `from` to `to`.
    pub(super) fn move_counters(&self, b: &mut Branch, t: TemplateId, from: InstrId, to: InstrId) {
        for c in &self.cert.counters {
            match (counts(c, t, from), counts(c, t, to)) {
                (false, true) => self.counter_add(b, c.var, true),
                (true, false) => self.counter_add(b, c.var, false),
                _ => {}
            }
        }
    }

    /// Whether some counter tells `a` from `b` (both of `t`).
    pub(super) fn counters_differ(&self, t: TemplateId, a: InstrId, b: InstrId) -> bool {
        self.cert
            .counters
            .iter()
            .any(|c| counts(c, t, a) != counts(c, t, b))
    }

    /// A creation (`kind`, already renamed) starts an instance at its entry.
    pub(super) fn count_created(&self, b: &mut Branch, kind: &InstrKind) {
        let Some(v) = created(self.ts, kind) else {
            return;
        };
        for c in &self.cert.counters {
            if counts(c, v, InstrId::new(0)) {
                self.counter_add(b, c.var, true);
            }
        }
    }

    /// One step of `who` from `s` (outside atomic sections) to wherever it goes: a jump's
    /// successor by its condition (evaluated before the step, which changes nothing else);
    /// an instruction without successor finishes the instance where it is (no update).
    pub(super) fn step_counters(&self, b: &mut Branch, who: &Inst, s: InstrId) {
        let body = &self.ts.templates[who.t].body;
        let mut succ = body.successors(s);
        succ.dedup();
        match succ.as_slice() {
            [] => {}
            [to] => self.move_counters(b, who.t, s, *to),
            _ => {
                let InstrKind::Goto {
                    target,
                    cond: Some(c),
                    ..
                } = who.ren.instr(&body.instrs[s].kind)
                else {
                    unreachable!("only a conditional jump has two successors")
                };
                let next = InstrId::new(s.index() + 1);
                if !self.counters_differ(who.t, target, next) {
                    self.move_counters(b, who.t, s, next);
                    return;
                }
                let to_target = b.goto(Some(c));
                self.move_counters(b, who.t, s, next);
                let to_end = b.goto(None);
                let here = b.here();
                b.patch(to_target, here);
                self.move_counters(b, who.t, s, target);
                let end = b.here();
                b.patch(to_end, end);
                b.emit(InstrKind::Skip);
            }
        }
    }
}
