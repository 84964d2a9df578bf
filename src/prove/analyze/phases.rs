//! Phase ghosts: where the holder of a user-level lock is inside its critical section.
//!
//! A lock's key says whether it is free, held by me or by another instance, but not how far
//! the holder has got: with `count++; count--` under lock `a` and `count--; count++` under
//! lock `b`, `count == [a's holder is between its two writes] - [b's holder is between its
//! two writes]`, and an instance holding both locks sees `count == 0` only through that.
//! For such a lock `m` the analyser adds a ghost `phase_m` (zero initially) and ghost updates:
//! after the `j`-th *site* — an assignment to a shared variable at a location where the
//! executing instance must hold `m` — `phase_m := j`, and after every write that frees `m`,
//! `phase_m := 0`. The ghost becomes a key (a small flag, see [`super::keys`]), so the states
//! are partitioned by it and the shared variables get one interval per phase.
//!
//! Soundness needs nothing from the choice of sites: ghosts are written, never read by the
//! program, so every execution extends to one with ghosts (see the module doc of `prove`),
//! and the checker establishes every invariant that mentions them. The must-hold analysis
//! ([`must_hold`]) only decides where updates go (and so how precise the proof can be).
//! The updates are only tried when a certificate without them was rejected (see
//! [`crate::prove::run`]): they multiply the partitions.

use std::collections::HashMap;

use cranelift_entity::EntityRef;

use crate::ir::{InstrId, InstrKind, PlaceBase};
use crate::prove::{TemplateId, Templates};

use super::keys::{KeyKind, KeyVar, LockWrite, SMALL_MAX};

/// At most this many phase ghosts (each multiplies the partitions).
pub const MAX_PHASES: usize = 2;

/// The phase sites of one lock: its key index and, per site, `(template, location, value)`
/// (the writes that free the lock get value 0).
#[derive(Clone, Debug)]
pub struct Phases {
    pub lock: usize,
    pub updates: Vec<(TemplateId, InstrId, u8)>,
    /// The largest value.
    pub max: u8,
}

/// The locks worth a phase ghost (at least two sites, at most [`SMALL_MAX`]) and their
/// updates.
pub fn choose(
    ts: &Templates,
    keys: &[KeyVar],
    lock_writes: &HashMap<(TemplateId, InstrId), LockWrite>,
) -> Vec<Phases> {
    let prog = &ts.program;
    let key_vars: Vec<_> = keys.iter().map(|k| k.var).collect();
    let mut out = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        if !matches!(k.kind, KeyKind::Lock { .. }) {
            continue;
        }
        let mut updates = Vec::new();
        let mut n: u64 = 0;
        for (t, tpl) in ts.templates.iter() {
            let held = must_hold(ts, t, lock_writes);
            for (l, ins) in tpl.body.instrs.iter() {
                if let Some(w) = lock_writes.get(&(t, l)) {
                    if w.key == i && w.value == 0 {
                        updates.push((t, l, 0));
                    }
                    continue;
                }
                let InstrKind::Assign { dst, .. } = &ins.kind else {
                    continue;
                };
                let PlaceBase::Var(v) = dst.base else {
                    continue;
                };
                let d = &prog.vars[v];
                if held[l.index()] & (1 << i) != 0
                    && d.is_global()
                    && !d.thread_local
                    && !key_vars.contains(&v)
                {
                    n += 1;
                    updates.push((t, l, n.min(255) as u8));
                }
            }
        }
        if (2..=SMALL_MAX).contains(&n) {
            out.push(Phases {
                lock: i,
                updates,
                max: n as u8,
            });
        }
    }
    out
}

/// Per location of `t`, the set (bit `i` for key `i`) of locks an instance must hold there:
/// a forward must-analysis (intersection at joins) over the lock writes, nothing held at the
/// entry.
fn must_hold(
    ts: &Templates,
    t: TemplateId,
    lock_writes: &HashMap<(TemplateId, InstrId), LockWrite>,
) -> Vec<u64> {
    let body = &ts.templates[t].body;
    let n = body.instrs.len();
    let mut held: Vec<Option<u64>> = vec![None; n];
    if n == 0 {
        return Vec::new();
    }
    held[0] = Some(0);
    let mut work: std::collections::BTreeSet<usize> = [0].into();
    while let Some(i) = work.pop_first() {
        let l = InstrId::new(i);
        let mut h = held[i].expect("visited");
        if let Some(w) = lock_writes.get(&(t, l)) {
            if w.key < 64 {
                if w.value == 1 {
                    h |= 1 << w.key;
                } else {
                    h &= !(1 << w.key);
                }
            }
        }
        for s in body.successors(l) {
            let si = s.index();
            let new = match held[si] {
                None => h,
                Some(old) => old & h,
            };
            if held[si] != Some(new) {
                held[si] = Some(new);
                work.insert(si);
            }
        }
    }
    held.into_iter().map(|h| h.unwrap_or(0)).collect()
}

/// Phase values worth telling apart: `w` is merged into a smaller `v` when, wherever the
/// analysis has partitions for both (same location, same other keys), their environments
/// are equal — the states do not depend on the difference (`count++; count--` leaves the
/// same `count` as before the first write). Returns the renaming of every value of each
/// phase key, or `None` when nothing merges. Only precision depends on this: the analysis
/// is run again with the renamed updates, and the checker checks its result.
pub fn merges(
    states: &cranelift_entity::SecondaryMap<TemplateId, Vec<crate::prove::domain::state::State>>,
    keys: &[KeyVar],
    phase_keys: &[usize],
) -> Option<HashMap<usize, Vec<u8>>> {
    use crate::prove::domain::state::{Env, Key};
    let mut out = HashMap::new();
    let mut any = false;
    for &i in phase_keys {
        let max = keys[i].max;
        // Per value: (template, location, other keys) -> environment.
        let mut by_value: Vec<HashMap<(TemplateId, usize, Key), &Env>> =
            vec![HashMap::new(); usize::from(max) + 1];
        for (t, per) in states.iter() {
            for (l, s) in per.iter().enumerate() {
                for (k, e) in &s.parts {
                    let v = usize::from(k[i]);
                    if v < by_value.len() {
                        let mut rest = k.clone();
                        rest[i] = 0;
                        by_value[v].insert((t, l, rest), e);
                    }
                }
            }
        }
        let agree = |a: usize, b: usize| {
            by_value[a]
                .iter()
                .all(|(pos, e)| by_value[b].get(pos).is_none_or(|f| f == e))
        };
        let mut rename: Vec<u8> = (0..=max).collect();
        for w in 1..=usize::from(max) {
            let class = |v: usize, rename: &[u8]| -> Vec<usize> {
                (0..w).filter(|&x| usize::from(rename[x]) == v).collect()
            };
            for v in 0..w {
                if usize::from(rename[v]) != v {
                    continue;
                }
                if class(v, &rename).into_iter().all(|x| agree(x, w)) {
                    rename[w] = v as u8;
                    any = true;
                    break;
                }
            }
        }
        // Dense values: 0, 1, ... in order of first use.
        let mut dense: Vec<u8> = Vec::new();
        let mut seen: Vec<u8> = Vec::new();
        for &r in &rename {
            match seen.iter().position(|&s| s == r) {
                Some(p) => dense.push(p as u8),
                None => {
                    seen.push(r);
                    dense.push((seen.len() - 1) as u8);
                }
            }
        }
        out.insert(i, dense);
    }
    any.then_some(out)
}
