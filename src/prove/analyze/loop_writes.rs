//! Which private variables a loop may change: the ones widening at its head must bound.
//!
//! Widening at a loop head makes every variable that grew jump to the next threshold. For a
//! variable the loop never writes that is needless and harmful: its value at the head is the
//! join of what enters the loop (the back edge brings back the head's own value, at most
//! refined by guards), so once widened past the entry values it stays there — the descending
//! iterations join the widened back-edge value in again. (Seen on the CAS stack: the slot
//! `newTop <= 63` enters the CAS retry loop, was widened to 64 at its head while the allocator
//! still grew, and `memory[newTop + 1]` then looked out of bounds.)
//!
//! So [`super::fixpoint`] joins such variables exactly at the head. Termination: a private
//! variable not written in the loop changes between two visits of the head only by values
//! coming in from outside the loop (the entry edges) — no other instance writes it, and no
//! instruction of the loop does — and the back edge contributes only refinements of values
//! already at the head, by the loop's finitely many guards; so its value at the head climbs
//! only as far as the entry values do, which the enclosing loop's head (or the thread's entry)
//! widens. Should that argument fail, the fixpoint's round limit gives up: never an unsound
//! state, and the checker re-establishes every fact in any case.

use std::collections::HashSet;

use cranelift_entity::EntityRef;

use crate::ir::{Body, InstrId, InstrKind, PlaceBase, VarId};

use super::pointsto::{PointsTo, Written};

/// Per loop head of a body, the variables the loop may write (`None`: it may write anything,
/// through a pointer or an instruction this pass does not follow).
#[derive(Clone, Default)]
pub struct LoopWrites {
    heads: Vec<(InstrId, Option<HashSet<VarId>>)>,
}

impl LoopWrites {
    /// `pts`: the program's flow-insensitive points-to sets, for writes through pointers.
    pub fn of(body: &Body, pts: &PointsTo) -> LoopWrites {
        let n = body.instrs.len();
        let mut preds: Vec<Vec<InstrId>> = vec![Vec::new(); n];
        for i in body.instrs.keys() {
            for s in body.successors(i) {
                preds[s.index()].push(i);
            }
        }
        let mut heads = Vec::new();
        for lp in body.loops.values() {
            // The natural loop: the head and every location that reaches the back edge
            // without passing through the head.
            let mut seen = vec![false; n];
            seen[lp.head.index()] = true;
            let mut work = vec![lp.back_edge];
            while let Some(i) = work.pop() {
                if std::mem::replace(&mut seen[i.index()], true) {
                    continue;
                }
                work.extend(preds[i.index()].iter().copied());
            }
            let mut written = Some(HashSet::new());
            for (i, ins) in body.instrs.iter() {
                if !seen[i.index()] {
                    continue;
                }
                match writes(&ins.kind, pts) {
                    Writes::Nothing => {}
                    Writes::Vars(vs) => {
                        if let Some(w) = written.as_mut() {
                            w.extend(vs);
                        }
                    }
                    Writes::Anything => written = None,
                }
            }
            heads.push((lp.head, written));
        }
        LoopWrites { heads }
    }

    /// Whether `v` keeps its value through every loop whose head is `l` (false when `l` heads
    /// no loop).
    pub fn unwritten_at(&self, l: InstrId, v: VarId) -> bool {
        let mut any = false;
        for (h, w) in &self.heads {
            if *h != l {
                continue;
            }
            any = true;
            match w {
                Some(w) if !w.contains(&v) => {}
                _ => return false,
            }
        }
        any
    }
}

enum Writes {
    Nothing,
    Vars(Vec<VarId>),
    Anything,
}

fn writes(k: &InstrKind, pts: &PointsTo) -> Writes {
    match k {
        InstrKind::Skip
        | InstrKind::Goto { .. }
        | InstrKind::Assume(_)
        | InstrKind::Assert { .. }
        | InstrKind::AtomicBegin
        | InstrKind::AtomicEnd
        | InstrKind::Fence(_)
        | InstrKind::Approximate(_)
        | InstrKind::Return(_)
        | InstrKind::Halt
        | InstrKind::ThreadExit(_) => Writes::Nothing,
        InstrKind::Decl(v) => Writes::Vars(vec![*v]),
        InstrKind::Assign { dst, .. }
        | InstrKind::Nondet { dst }
        | InstrKind::ThreadSelf { dst } => match &dst.base {
            PlaceBase::Var(v) => Writes::Vars(vec![*v]),
            PlaceBase::Deref(_) => match pts.written(dst) {
                Written::Must(v) => Writes::Vars(vec![v]),
                Written::May(vs) => Writes::Vars(vs.into_iter().collect()),
                Written::Any => Writes::Anything,
            },
        },
        _ => Writes::Anything,
    }
}

impl LoopWrites {
    /// `widened` (a widening of `joined` at `l`) with every private variable the loops headed
    /// at `l` do not write set back to its value in `joined` (see the module doc).
    pub fn unwiden(
        &self,
        cx: &super::ctx::Ctx,
        l: InstrId,
        widened: &mut crate::prove::domain::state::State,
        joined: &crate::prove::domain::state::State,
    ) {
        for (k, w) in widened.parts.iter_mut() {
            let Some(j) = joined.parts.get(k) else {
                continue;
            };
            for (v, val) in j.iter() {
                if !cx.is_shared(v) && self.unwritten_at(l, v) {
                    w.set(v, Some(val.clone()), cx.range(v));
                }
            }
        }
    }
}
