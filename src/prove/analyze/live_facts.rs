//! Facts only about live variables: a certificate's invariant at a location says nothing
//! about a private variable of the instance that is *dead* there (written before it is read
//! on every path from the location, or never read again), and no fact appears twice.
//!
//! Why: the analyser's states keep every variable they have seen, so the invariants of a
//! template whose calls are inlined (43_NetBSD_sysmon_power: every `__VERIFIER_nondet_int()`
//! result and inlined return value a temporary) carry facts about many temporaries long
//! after their last read. Every such fact is assumed and asserted again by each check that
//! establishes the invariant, and locations whose invariants differ only in dead facts are
//! checked apart (the checker's stability checks are per distinct invariant).
//!
//! How: per template, backward may-liveness over the inlined body ([`Liveness`]). A fact
//! that reads a dead variable is weakened by replacing each *atom* that reads one with
//! `true`, where atoms are the operands of the `&&`/`||` tree the fact is built of (the
//! emitter's and the path facts' shape: a disjunction of conjunctions). A `&&`/`||` tree is
//! monotone in its operands, so the result is implied by the original fact: every
//! invariant becomes weaker, never stronger. A points-to fact of a dead pointer is dropped.
//!
//! Nothing here is trusted: the weakened certificate goes to the checker like any other.
//! It is also meant to keep passing: a dead variable is not read by the step at the
//! location (the step's reads are live before it) and its value there reaches no later read,
//! so no check of a later location needs the fact. Kept as live everywhere, since their
//! reads are not seen syntactically: the ghost `self` (lock-owner facts compare with it),
//! and every variable whose address is taken anywhere (it may be read through a pointer).
//! Globals are never touched: other instances read them.

use std::collections::HashSet;

use cranelift_entity::SecondaryMap;

use crate::ir::liveness::Liveness;
use crate::ir::{BinOp, Expr, ExprKind, InstrId, PlaceBase, VarId};
use crate::prove::{Fact, Invariant, TemplateId, Templates};

/// Weakens every invariant of `invariants` to its live variables (see the module doc).
pub fn restrict(
    ts: &Templates,
    invariants: &mut SecondaryMap<TemplateId, SecondaryMap<InstrId, Invariant>>,
) {
    let addressed = addressed(ts);
    for (t, tpl) in ts.templates.iter() {
        let live = Liveness::of(&tpl.body);
        let candidates: Vec<VarId> = tpl
            .locals
            .iter()
            .copied()
            .filter(|&v| v != tpl.self_id && !addressed.contains(&v))
            .collect();
        for (l, inv) in invariants[t].iter_mut() {
            if inv.unreachable {
                continue;
            }
            let Some(live_in) = live.live_in(l) else {
                continue;
            };
            let dead: HashSet<VarId> = candidates
                .iter()
                .copied()
                .filter(|v| !live_in.contains(v))
                .collect();
            weaken(inv, &dead);
        }
    }
}

/// Every variable whose address some template's code or the program's initialisers take
/// (pointer facts about it aside, which are facts about the pointer).
fn addressed(ts: &Templates) -> HashSet<VarId> {
    let mut out: HashSet<VarId> = ts
        .program
        .vars
        .iter()
        .filter(|(_, d)| d.address_taken)
        .map(|(v, _)| v)
        .collect();
    let mut take = |e: &Expr| {
        if let ExprKind::AddrOf(p) = &e.kind {
            if let PlaceBase::Var(v) = p.base {
                out.insert(v);
            }
        }
    };
    for tpl in ts.templates.values() {
        for ins in tpl.body.instrs.values() {
            ins.kind.walk_exprs(&mut |e| e.walk(&mut take));
        }
    }
    out
}

/// Drops from `inv` what it says about `dead`, and repeated facts.
fn weaken(inv: &mut Invariant, dead: &HashSet<VarId>) {
    let mut out: Vec<Fact> = Vec::with_capacity(inv.facts.len());
    for f in inv.facts.drain(..) {
        let kept = match f {
            Fact::PointsTo { var, .. } if dead.contains(&var) => None,
            Fact::PointsTo { .. } => Some(f),
            Fact::Holds(e) if dead.is_empty() => Some(Fact::Holds(e)),
            Fact::Holds(e) => project(e, dead).map(Fact::Holds),
        };
        if let Some(f) = kept {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    inv.facts = out;
}

/// `e` with every atom that reads a variable of `dead` replaced by `true`, simplified;
/// `None` when that leaves `true`.
fn project(e: Expr, dead: &HashSet<VarId>) -> Option<Expr> {
    match e.kind {
        ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
            let ty = e.ty;
            match (project(*a, dead), project(*b, dead), op) {
                (Some(a), Some(b), _) => Some(Expr {
                    kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    ty,
                }),
                (Some(x), None, BinOp::LogAnd) | (None, Some(x), BinOp::LogAnd) => Some(x),
                _ => None,
            }
        }
        _ => {
            let mut reads_dead = false;
            e.walk(&mut |x| {
                if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &x.kind {
                    if let PlaceBase::Var(v) = p.base {
                        reads_dead |= dead.contains(&v);
                    }
                }
            });
            (!reads_dead).then_some(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::load_source;
    use crate::ir::{DataModel, Place, Program};

    fn prog() -> Program {
        load_source("int x; int g; int main() { return 0; }", DataModel::Lp64)
            .expect("test program loads")
    }

    fn read(prog: &Program, name: &str) -> (VarId, Expr) {
        let v = prog.var_by_name(name).expect("declared");
        (v, Expr::read(Place::var(v, prog.vars[v].ty)))
    }

    fn eq(prog: &Program, a: Expr, c: u64) -> Expr {
        let ty = a.ty;
        bin(prog, BinOp::Eq, a, Expr::constant(c, ty))
    }

    fn bin(prog: &Program, op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty: prog
                .types
                .find(&crate::ir::Type::Int {
                    bits: 32,
                    signed: true,
                })
                .unwrap(),
        }
    }

    #[test]
    fn dead_atoms_become_true_and_the_rest_stays() {
        let prog = prog();
        let (x, xe) = read(&prog, "x");
        let (_, ge) = read(&prog, "g");
        let dead: HashSet<VarId> = [x].into();
        // (x == 0 && g == 0) || (x == 1 && g == 1)  ~>  g == 0 || g == 1
        let c0 = bin(
            &prog,
            BinOp::LogAnd,
            eq(&prog, xe.clone(), 0),
            eq(&prog, ge.clone(), 0),
        );
        let c1 = bin(
            &prog,
            BinOp::LogAnd,
            eq(&prog, xe.clone(), 1),
            eq(&prog, ge.clone(), 1),
        );
        let d = bin(&prog, BinOp::LogOr, c0, c1);
        let want = bin(
            &prog,
            BinOp::LogOr,
            eq(&prog, ge.clone(), 0),
            eq(&prog, ge.clone(), 1),
        );
        assert_eq!(project(d, &dead), Some(want));
        // x == 0 || g == 0  ~>  true (dropped)
        let weak = bin(
            &prog,
            BinOp::LogOr,
            eq(&prog, xe.clone(), 0),
            eq(&prog, ge.clone(), 0),
        );
        assert_eq!(project(weak, &dead), None);
        // g == 0 is untouched; a fact on x alone goes.
        assert_eq!(
            project(eq(&prog, ge.clone(), 0), &dead),
            Some(eq(&prog, ge, 0))
        );
        assert_eq!(project(eq(&prog, xe, 0), &dead), None);
    }

    #[test]
    fn repeated_facts_are_kept_once_and_dead_pointers_go() {
        let prog = prog();
        let (x, _) = read(&prog, "x");
        let (_, ge) = read(&prog, "g");
        let f = Fact::Holds(eq(&prog, ge, 3));
        let p = Fact::PointsTo {
            var: x,
            targets: vec![crate::prove::PtrTarget::Null],
        };
        let mut inv = Invariant {
            unreachable: false,
            facts: vec![f.clone(), p.clone(), f.clone()],
        };
        weaken(&mut inv, &HashSet::new());
        assert_eq!(inv.facts, vec![f.clone(), p]);
        weaken(&mut inv, &[x].into());
        assert_eq!(inv.facts, vec![f]);
    }
}
