//! Which variables of a function body are live at each instruction (may be read before being
//! written on some path from there). The spin reduction (symbolic execution and the
//! interpreter) compares only these at a loop head: a dead variable's value cannot influence
//! the thread's future.

use std::collections::HashSet;

use cranelift_entity::EntityRef;

use crate::ir::{Body, ExprKind, InstrId, InstrKind, Place, PlaceBase, VarId};

/// Live-in sets of every instruction of one body.
#[derive(Debug)]
pub struct Liveness {
    live_in: Vec<HashSet<VarId>>,
}

impl Liveness {
    /// Backward may-liveness to a fixed point. A write to a whole variable kills it; a write
    /// to part of one (a field, an element) does not, since the rest of the old value stays.
    pub fn of(body: &Body) -> Liveness {
        let n = body.instrs.len();
        let mut uses = Vec::with_capacity(n);
        let mut kills = Vec::with_capacity(n);
        for (_, ins) in body.instrs.iter() {
            let mut u = HashSet::new();
            ins.kind.walk_exprs(&mut |e| {
                if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &e.kind {
                    if let PlaceBase::Var(v) = p.base {
                        u.insert(v);
                    }
                }
            });
            let mut k = HashSet::new();
            let mut dst = |p: &Place| {
                if let PlaceBase::Var(v) = p.base {
                    if p.projs.is_empty() {
                        k.insert(v);
                    } else {
                        u.insert(v);
                    }
                }
            };
            match &ins.kind {
                InstrKind::Decl(v) => {
                    k.insert(*v);
                }
                InstrKind::Assign { dst: d, .. }
                | InstrKind::Nondet { dst: d }
                | InstrKind::ThreadSelf { dst: d }
                | InstrKind::ThreadCreate { handle: d, .. } => dst(d),
                InstrKind::Call { dst: Some(d), .. }
                | InstrKind::Alloc { dst: Some(d), .. }
                | InstrKind::MutexTryLock { dst: Some(d), .. } => dst(d),
                _ => {}
            }
            uses.push(u);
            kills.push(k);
        }
        let mut live_in: Vec<HashSet<VarId>> = vec![HashSet::new(); n];
        let mut changed = true;
        while changed {
            changed = false;
            for i in (0..n).rev() {
                let mut set: HashSet<VarId> = HashSet::new();
                for s in body.successors(InstrId::new(i)) {
                    set.extend(live_in[s.index()].iter().copied());
                }
                set.retain(|v| !kills[i].contains(v));
                set.extend(uses[i].iter().copied());
                if set.len() != live_in[i].len() {
                    live_in[i] = set;
                    changed = true;
                }
            }
        }
        Liveness { live_in }
    }

    /// The variables live on entry to `i` (none past the end of the body).
    pub fn live_in(&self, i: InstrId) -> Option<&HashSet<VarId>> {
        self.live_in.get(i.index())
    }
}
