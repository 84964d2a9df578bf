//! Counter ghosts in the checker (see [`crate::prove::Counter`]): which steps change a
//! counter, and which certificates may use counters at all.
//!
//! Why the checker may assume the counting facts: the checker alone writes a counter, and it
//! writes it on every step it executes exactly as the counter's definition says — a move from
//! `l` to `l'` (a consecution's edge, the creator's move past a creation, another instance's
//! step, the end of an atomic section or a prefix of it that stops before a blocking
//! instruction) adds `[l' counted] - [l counted]`, a creation adds `[entry counted]` for the
//! new instance, initiation starts it at `[main's entry counted]`, and a finished instance
//! keeps the location it finished at (no update). So in every state of the program with
//! ghosts the counter is the number of instances (live, or finished at a counted location)
//! whose location is counted — the certificate cannot set it, since it is no ghost the
//! certificate's updates may assign. With fewer than [`MAX_INSTANCES`] instances (the model's
//! bound) that number fits the counter, and for any distinct instances at known locations:
//! the counter is at least the number of them at counted locations; at most the bound minus
//! the number of them at uncounted ones; and for nested sets, the larger counter exceeds the
//! smaller by at least the number of them in the difference. These are facts of every
//! reachable state, so assuming them in a check's pre-state loses no execution.

use std::collections::{HashMap, HashSet};

use cranelift_entity::EntityRef;

use crate::ir::{Callee, InstrId, InstrKind, VarId};
use crate::prove::{Certificate, Counter, TemplateId, Templates, MAX_INSTANCES};

/// Whether `c` counts an instance of `t` at `l`.
pub(super) fn counts(c: &Counter, t: TemplateId, l: InstrId) -> bool {
    c.set.contains(&(t, l))
}

/// The template a creation starts.
pub(super) fn created(ts: &Templates, kind: &InstrKind) -> Option<TemplateId> {
    match kind {
        InstrKind::ThreadCreate {
            entry: Callee::Direct(g),
            ..
        } => ts
            .templates
            .iter()
            .find(|(_, x)| x.entry == *g)
            .map(|(u, _)| u),
        _ => None,
    }
}

/// The counters a step of `u` through the instructions `instrs` (one instruction, or an
/// atomic section's) may change: some instruction and one of its successors differ in
/// whether they are counted, or a creation starts an instance whose entry is counted.
pub(super) fn step_counters(
    ts: &Templates,
    cert: &Certificate,
    u: TemplateId,
    instrs: &[InstrId],
) -> Vec<VarId> {
    let body = &ts.templates[u].body;
    cert.counters
        .iter()
        .filter(|c| {
            instrs.iter().any(|&i| {
                let here = counts(c, u, i);
                body.successors(i).iter().any(|&j| counts(c, u, j) != here)
                    || created(ts, &body.instrs[i].kind)
                        .is_some_and(|v| counts(c, v, InstrId::new(0)))
            })
        })
        .map(|c| c.var)
        .collect()
}

/// Refuses counters the argument above does not cover: a counter that is a program variable,
/// a ghost the certificate updates, a lock owner or a private variable (someone else would
/// write it), that is not an unsigned int, that appears twice, or that counts a location
/// that does not exist.
pub(super) fn well_formed(
    ts: &Templates,
    cert: &Certificate,
    mentioned: &HashSet<VarId>,
    private_of: &HashMap<VarId, Vec<TemplateId>>,
) -> Result<(), String> {
    let mut seen = HashSet::new();
    let owners: HashSet<VarId> = ts.mutex_owners.values().copied().collect();
    for c in &cert.counters {
        let v = ts
            .program
            .vars
            .get(c.var)
            .ok_or_else(|| format!("counter {:?} unknown", c.var))?;
        if !v.is_global()
            || v.thread_local
            || mentioned.contains(&c.var)
            || private_of.contains_key(&c.var)
            || owners.contains(&c.var)
            || cert.ghosts.contains(&c.var)
        {
            return Err(format!("counter {} is no fresh ghost", v.name));
        }
        if !seen.insert(c.var) {
            return Err(format!("counter {} given twice", v.name));
        }
        if *ts.program.types.get(v.ty)
            != (crate::ir::Type::Int {
                bits: 32,
                signed: false,
            })
        {
            return Err(format!("counter {} is not an unsigned int", v.name));
        }
        for &(t, l) in &c.set {
            if ts
                .templates
                .get(t)
                .is_none_or(|x| x.body.instrs.get(l).is_none())
            {
                return Err(format!("counter {} counts an unknown location", v.name));
            }
        }
    }
    Ok(())
}

/// The counting facts for distinct instances at `at`, as `(counter, at least, at most)` and
/// `(smaller, larger, difference at least)` for nested counters.
pub(super) struct CountingFacts {
    pub bounds: Vec<(VarId, u64, u64)>,
    pub nested: Vec<(VarId, VarId, u64)>,
}

/// See the module doc.
pub(super) fn counting_facts(cert: &Certificate, at: &[(TemplateId, InstrId)]) -> CountingFacts {
    let inside = |c: &Counter| at.iter().filter(|&&(t, l)| counts(c, t, l)).count() as u64;
    let mut out = CountingFacts {
        bounds: Vec::new(),
        nested: Vec::new(),
    };
    for c in &cert.counters {
        let n_in = inside(c);
        let n_out = at.len() as u64 - n_in;
        out.bounds.push((c.var, n_in, MAX_INSTANCES - n_out));
    }
    for (i, a) in cert.counters.iter().enumerate() {
        for (j, b) in cert.counters.iter().enumerate() {
            if i != j && a.set.is_subset(&b.set) {
                let k = at
                    .iter()
                    .filter(|&&(t, l)| counts(b, t, l) && !counts(a, t, l))
                    .count() as u64;
                out.nested.push((a.var, b.var, k));
            }
        }
    }
    out
}
