//! Ranges of the inputs a function bounds on entry (`x = nondet; assume(lo <= x && x <= hi)`),
//! and the ranges of integer expressions over them: enough to prove an index inside its
//! array without a general value analysis ([`crate::ir::faint`] uses it).
//!
//! Why the range holds: the assumption sits in the straight-line start of the body (no jump
//! before it, and no jump anywhere lands at or before it), so every path to a later
//! instruction passes it, and executions where it fails are discarded; the variable is a
//! thread-private local no later instruction writes, so its value there is the one the
//! assumption constrained.

use std::collections::HashMap;

use cranelift_entity::EntityRef;

use crate::ir::{BinOp, Body, Expr, ExprKind, InstrId, InstrKind, PlaceBase, Program, VarId};

/// A closed interval of signed values.
pub type Range = (i128, i128);

/// The input ranges of one body, each valid after an instruction.
#[derive(Debug, Default)]
pub struct InputRanges {
    ranges: HashMap<VarId, (InstrId, Range)>,
}

impl InputRanges {
    /// The ranges the straight-line start of `body` assumes for the locals `private` accepts.
    pub fn of(body: &Body, private: impl Fn(VarId) -> bool) -> InputRanges {
        let n = body.instrs.len();
        // The straight-line start: up to the first jump, cut before the first jump target.
        let mut start = n;
        for (i, ins) in body.instrs.iter() {
            if let InstrKind::Goto { target, .. } = &ins.kind {
                start = start.min(i.index()).min(target.index());
            }
        }
        // Per variable: the first and the last assumption giving the bound, and the bound.
        let mut lower: HashMap<VarId, (usize, usize, i128)> = HashMap::new();
        let mut upper: HashMap<VarId, (usize, usize, i128)> = HashMap::new();
        for i in 0..start {
            let InstrKind::Assume(cond) = &body.instrs[InstrId::new(i)].kind else {
                continue;
            };
            let mut conj = Vec::new();
            conjuncts(cond, &mut conj);
            for c in conj {
                let Some((v, lo, hi)) = bound(c) else {
                    continue;
                };
                if !private(v) {
                    continue;
                }
                if let Some(lo) = lo {
                    let e = lower.entry(v).or_insert((i, i, lo));
                    *e = (e.0, i, e.2.max(lo));
                }
                if let Some(hi) = hi {
                    let e = upper.entry(v).or_insert((i, i, hi));
                    *e = (e.0, i, e.2.min(hi));
                }
            }
        }
        // The last write of each variable.
        let mut last_write: HashMap<VarId, usize> = HashMap::new();
        for (i, ins) in body.instrs.iter() {
            let d = match &ins.kind {
                InstrKind::Decl(v) => Some(*v),
                k => match k.dst().map(|p| &p.base) {
                    Some(PlaceBase::Var(v)) => Some(*v),
                    _ => None,
                },
            };
            if let Some(v) = d {
                last_write.insert(v, i.index());
            }
        }
        let mut ranges = HashMap::new();
        for (v, (lf, ll, lo)) in lower {
            let Some(&(uf, ul, hi)) = upper.get(&v) else {
                continue;
            };
            // Every write before every assumption used.
            if last_write.get(&v).is_some_and(|&w| w >= lf.min(uf)) {
                continue;
            }
            ranges.insert(v, (InstrId::new(ll.max(ul)), (lo, hi)));
        }
        InputRanges { ranges }
    }

    /// The range of `v` at instruction `at`, if known there.
    pub fn var_at(&self, v: VarId, at: InstrId) -> Option<Range> {
        self.ranges
            .get(&v)
            .filter(|(after, _)| *after < at)
            .map(|(_, r)| *r)
    }

    /// The range of the integer expression `e` at instruction `at`, when every value it may
    /// take is known to lie in it (no wrap-around: an operation whose exact result could
    /// leave its type's range gives none).
    pub fn expr_at(&self, prog: &Program, e: &Expr, at: InstrId) -> Option<Range> {
        let types = &prog.types;
        if !types.is_integer(e.ty) {
            return None;
        }
        let bits = types.bits(e.ty).min(64);
        let (tmin, tmax): Range = if types.is_signed(e.ty) {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        let r = match &e.kind {
            ExprKind::Const(c) => {
                let v = if types.is_signed(e.ty) {
                    *c as i64 as i128
                } else {
                    *c as i128
                };
                (v, v)
            }
            ExprKind::Read(p) => match p.base {
                PlaceBase::Var(v) if p.projs.is_empty() => self.var_at(v, at)?,
                _ => return None,
            },
            ExprKind::Cast(a) => self.expr_at(prog, a, at)?,
            ExprKind::Binary(op, a, b) => {
                let x = self.expr_at(prog, a, at);
                let y = self.expr_at(prog, b, at);
                match op {
                    BinOp::Add => {
                        let (x, y) = (x?, y?);
                        (x.0 + y.0, x.1 + y.1)
                    }
                    BinOp::Sub => {
                        let (x, y) = (x?, y?);
                        (x.0 - y.1, x.1 - y.0)
                    }
                    BinOp::Mul => {
                        let (x, y) = (x?, y?);
                        let p = [x.0 * y.0, x.0 * y.1, x.1 * y.0, x.1 * y.1];
                        (*p.iter().min()?, *p.iter().max()?)
                    }
                    BinOp::SRem => {
                        let (x, c) = (x?, y?);
                        if c.0 != c.1 || c.0 <= 0 {
                            return None;
                        }
                        let m = c.0 - 1;
                        if x.0 >= 0 {
                            (0, x.1.min(m))
                        } else {
                            (-m, m)
                        }
                    }
                    BinOp::URem => {
                        let c = b.as_const().filter(|&c| c > 0)? as i128;
                        (0, c - 1)
                    }
                    BinOp::BitAnd => match (x, y) {
                        (Some(x), Some(y)) if x.0 >= 0 && y.0 >= 0 => (0, x.1.min(y.1)),
                        (Some(m), _) | (_, Some(m)) if m.0 >= 0 => (0, m.1),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            _ => return None,
        };
        (r.0 >= tmin && r.1 <= tmax).then_some(r)
    }
}

/// The operands of a tree of `&&`.
fn conjuncts<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::LogAnd, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// `x op c` (or `c op x`) for a signed comparison: the variable and the bounds it gives.
fn bound(e: &Expr) -> Option<(VarId, Option<i128>, Option<i128>)> {
    let ExprKind::Binary(op, a, b) = &e.kind else {
        return None;
    };
    let var = |e: &Expr| match &e.kind {
        ExprKind::Read(p) if p.projs.is_empty() => match p.base {
            PlaceBase::Var(v) => Some(v),
            PlaceBase::Deref(_) => None,
        },
        _ => None,
    };
    let (v, c, op) = match (var(a), b.as_const(), var(b), a.as_const()) {
        (Some(v), Some(c), _, _) => (v, c as i64 as i128, *op),
        (_, _, Some(v), Some(c)) => (v, c as i64 as i128, flip(*op)?),
        _ => return None,
    };
    match op {
        BinOp::SGe => Some((v, Some(c), None)),
        BinOp::SGt => Some((v, Some(c + 1), None)),
        BinOp::SLe => Some((v, None, Some(c))),
        BinOp::SLt => Some((v, None, Some(c - 1))),
        BinOp::Eq => Some((v, Some(c), Some(c))),
        _ => None,
    }
}

/// The comparison with its operands swapped.
fn flip(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::SGe => BinOp::SLe,
        BinOp::SGt => BinOp::SLt,
        BinOp::SLe => BinOp::SGe,
        BinOp::SLt => BinOp::SGt,
        BinOp::Eq => BinOp::Eq,
        _ => return None,
    })
}
