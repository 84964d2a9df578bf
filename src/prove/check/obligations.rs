//! Which checks a certificate needs: the obligations, the may-happen-in-parallel rule for
//! `main`, atomic sections and what a step writes (the stability checks a step cannot affect
//! are left out).

use std::collections::HashSet;

use cranelift_entity::EntityRef;

use super::{invariant, Kind, Obligation};
use crate::ir::{Callee, InstrId, InstrKind, Place, PlaceBase, VarId};
use crate::prove::{Certificate, Fact, Instances, Invariant, TemplateId, Templates};

/// Whether main's location can run while other threads exist: reachable from the successor of
/// a creation in main's template. The others need no stability check and interfere with
/// nobody (the proof system's MHP rule).
pub(super) fn main_mhp(ts: &Templates) -> Vec<bool> {
    let body = &ts.templates[ts.main].body;
    let mut seen = vec![false; body.instrs.len()];
    let mut work: Vec<InstrId> = Vec::new();
    for (i, ins) in body.instrs.iter() {
        if matches!(ins.kind, InstrKind::ThreadCreate { .. }) {
            work.extend(body.successors(i));
        }
    }
    while let Some(i) = work.pop() {
        if std::mem::replace(&mut seen[i.index()], true) {
            continue;
        }
        work.extend(body.successors(i));
    }
    seen
}

/// The instructions of the atomic section that starts at `s` (an `AtomicBegin` at depth 0):
/// `s` and every location reachable from it through locations of positive depth.
pub(super) fn section(ts: &Templates, u: TemplateId, s: InstrId) -> Vec<InstrId> {
    let t = &ts.templates[u];
    let mut seen: HashSet<InstrId> = HashSet::new();
    let mut work = vec![s];
    seen.insert(s);
    while let Some(i) = work.pop() {
        for j in t.body.successors(i) {
            if t.atomic_depth[j] > 0 && seen.insert(j) {
                work.push(j);
            }
        }
    }
    let mut out: Vec<InstrId> = seen.into_iter().collect();
    out.sort();
    out
}

/// The variables a step may write, outside the executing instance's private ones; `None`
/// when it writes through a pointer (anything).
pub(super) fn step_writes(
    ts: &Templates,
    cert: &Certificate,
    u: TemplateId,
    s: InstrId,
) -> Option<HashSet<VarId>> {
    let t = &ts.templates[u];
    let instrs = if matches!(t.body.instrs[s].kind, InstrKind::AtomicBegin) {
        section(ts, u, s)
    } else {
        vec![s]
    };
    let private: HashSet<VarId> = t.locals.iter().copied().collect();
    let mut out = HashSet::new();
    for i in instrs {
        let kind = &t.body.instrs[i].kind;
        // The variable a place writes, or `None` for a write through a pointer.
        let place = |p: &Place| match p.base {
            PlaceBase::Var(v) => Some(v),
            PlaceBase::Deref(_) => None,
        };
        let written: Option<Vec<VarId>> = match kind {
            InstrKind::Decl(v) => Some(vec![*v]),
            InstrKind::Assign { dst, .. }
            | InstrKind::Nondet { dst }
            | InstrKind::ThreadSelf { dst }
            | InstrKind::ThreadCreate { handle: dst, .. }
            | InstrKind::Alloc { dst: Some(dst), .. } => place(dst).map(|v| vec![v]),
            InstrKind::MutexTryLock { dst, .. } => {
                let mut w: Vec<VarId> = ts.mutex_owners.values().copied().collect();
                match dst.as_ref().map(place) {
                    Some(None) => None,
                    Some(Some(v)) => {
                        w.push(v);
                        Some(w)
                    }
                    None => Some(w),
                }
            }
            InstrKind::MutexInit(_)
            | InstrKind::MutexLock(_)
            | InstrKind::MutexUnlock(_)
            | InstrKind::CondWait { .. } => Some(ts.mutex_owners.values().copied().collect()),
            InstrKind::Memset { .. }
            | InstrKind::Memcpy { .. }
            | InstrKind::ThreadJoin {
                retval: Some(_), ..
            }
            | InstrKind::Call { .. } => None,
            _ => Some(vec![]),
        };
        out.extend(written?);
        for up in &cert.updates {
            if up.template == u && up.at == i {
                out.insert(up.ghost);
            }
        }
    }
    out.retain(|v| !private.contains(v));
    Some(out)
}

/// The variables an invariant reads.
pub(super) fn reads(inv: &Invariant) -> HashSet<VarId> {
    let mut out = Vec::new();
    for f in &inv.facts {
        match f {
            Fact::Holds(e) => crate::prove::rename::expr_vars(e, &mut out),
            Fact::PointsTo { var, .. } => out.push(*var),
        }
    }
    out.into_iter().collect()
}

/// Every check of the certificate, and how many stability checks were left out because the
/// step writes nothing the invariant reads (see the module doc of `check`).
pub(super) fn obligations(ts: &Templates, cert: &Certificate) -> (Vec<Obligation>, usize) {
    let mhp = main_mhp(ts);
    let live = |t: TemplateId, l: InstrId| !invariant(cert, t, l).unreachable;
    let concurrent = |t: TemplateId, l: InstrId| t != ts.main || mhp[l.index()];
    let mut out = vec![Obligation {
        kind: Kind::Initiation,
        template: ts.main,
        at: InstrId::new(0),
        to: None,
        other: None,
    }];
    for (t, tpl) in ts.templates.iter() {
        for (l, ins) in tpl.body.instrs.iter() {
            if !live(t, l) {
                continue;
            }
            let mut succ = tpl.body.successors(l);
            succ.dedup();
            for to in succ {
                out.push(Obligation {
                    kind: Kind::Consecution,
                    template: t,
                    at: l,
                    to: Some(to),
                    other: None,
                });
            }
            match &ins.kind {
                InstrKind::ThreadCreate {
                    entry: Callee::Direct(g),
                    ..
                } => {
                    if let Some((u, _)) = ts.templates.iter().find(|(_, x)| x.entry == *g) {
                        out.push(Obligation {
                            kind: Kind::Creation,
                            template: u,
                            at: InstrId::new(0),
                            to: None,
                            other: Some((t, l)),
                        });
                    }
                }
                InstrKind::Assert { .. } => out.push(Obligation {
                    kind: Kind::Safety,
                    template: t,
                    at: l,
                    to: None,
                    other: None,
                }),
                _ => {}
            }
        }
    }
    // Stability: the steps first (each computed once), then every pair.
    let mut steps: Vec<(TemplateId, InstrId, Option<HashSet<VarId>>)> = Vec::new();
    for (u, tpl) in ts.templates.iter() {
        for s in tpl.body.instrs.keys() {
            if tpl.atomic_depth[s] == 0 && live(u, s) && concurrent(u, s) {
                let w = step_writes(ts, cert, u, s);
                if w.as_ref().is_some_and(|w| w.is_empty()) {
                    continue;
                }
                steps.push((u, s, w));
            }
        }
    }
    let mut skipped = 0;
    for (t, tpl) in ts.templates.iter() {
        for l in tpl.body.instrs.keys() {
            let inv = invariant(cert, t, l);
            if tpl.atomic_depth[l] > 0
                || inv.unreachable
                || inv.facts.is_empty()
                || !concurrent(t, l)
            {
                continue;
            }
            let r = reads(inv);
            for (u, s, w) in &steps {
                if *u == t && tpl.instances == Instances::One {
                    continue;
                }
                if w.as_ref().is_some_and(|w| w.is_disjoint(&r)) {
                    skipped += 1;
                    continue;
                }
                out.push(Obligation {
                    kind: Kind::Stability,
                    template: t,
                    at: l,
                    to: None,
                    other: Some((*u, *s)),
                });
            }
        }
    }
    (out, skipped)
}
