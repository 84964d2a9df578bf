//! Private keys: partitions by the value of a thread's own small-valued variables.
//!
//! A join forgets how facts go together: after `r = push()`, where `push` returns 1 only once
//! it has made `top` non-zero, the state `r ∈ [0, 1], top ∈ [0, 640]` no longer says that
//! `r == 1` implies `top != 0`, which the assertion `!r || top != 0` needs. A *private key*
//! keeps the partitions apart: a private integer variable whose every write stores a constant
//! or a copy of another private key (so it only ever holds one of finitely many constants,
//! [`PrivateKeys::values`]) adds one byte to the partition key — the index of its value when
//! the partition's environment knows it exactly, or [`UNKNOWN`].
//!
//! The byte is a *tag*: the environment still holds the variable's value (a singleton when
//! the tag is known), so reading it, refining it by a branch and emitting its facts work as
//! for any variable, and [`tag_of`] recomputes the tag after every write from the value
//! written. Soundness: a state's concretisation is the union over its partitions of the
//! environments' concretisations; the tag only decides which partition a disjunct joins, so
//! any tag is sound, and the facts emitted are those of the environments. Another instance
//! neither reads nor writes this instance's private variables: the interference ignores the
//! tags when it pairs partitions ([`super::fixpoint::compatible`]) and keeps the interrupted
//! instance's tags ([`super::fixpoint::translate`]); a created thread starts with every tag
//! [`UNKNOWN`]. The number of partitions stays finite (finitely many tags), so widening per
//! partition still terminates.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{Expr, ExprKind, InstrKind, PlaceBase, VarId};
use crate::prove::domain::state::{Key, Val};
use crate::prove::Templates;

use super::ctx::{scalar_of, Scalar};
use super::pointsto::{PointsTo, Written};

/// The tag of a private key whose value the partition does not know exactly.
pub const UNKNOWN: u8 = u8::MAX;

/// At most this many private keys (the partitions multiply by their values).
pub const MAX_PRIVATE: usize = 6;
/// At most this many values per private key.
pub const MAX_VALUES: usize = 4;

/// The private keys of a program: their positions in a [`Key`] follow the global keys.
#[derive(Clone, Debug, Default)]
pub struct PrivateKeys {
    /// Index in a key of the first private key (the number of global keys).
    pub base: usize,
    pub vars: Vec<VarId>,
    /// Per private key, the constants it may hold (sorted).
    pub values: Vec<Vec<i128>>,
    index: HashMap<VarId, usize>,
}

impl PrivateKeys {
    /// No private keys (after `base` global keys).
    pub fn none(base: usize) -> PrivateKeys {
        PrivateKeys {
            base,
            ..PrivateKeys::default()
        }
    }
    /// The key position of `v`, when it is a private key.
    pub fn position(&self, v: VarId) -> Option<usize> {
        self.index.get(&v).map(|j| self.base + j)
    }
    /// Whether key position `i` is a private key's.
    pub fn is_private(&self, i: usize) -> bool {
        i >= self.base
    }
    /// `key` with every private tag [`UNKNOWN`] (a created thread's entry).
    pub fn forget(&self, key: &Key) -> Key {
        let mut k = key.clone();
        for b in k.iter_mut().skip(self.base) {
            *b = UNKNOWN;
        }
        k
    }
    /// Appends the initial tags (all [`UNKNOWN`]) to a key of the global keys.
    pub fn extend(&self, key: &mut Key) {
        key.extend(std::iter::repeat_n(UNKNOWN, self.vars.len()));
    }
    /// The tag of private key `j` holding `val` (`None`: any value).
    pub fn tag_of(&self, j: usize, val: Option<&Val>) -> u8 {
        match val {
            Some(Val::Int(i)) if i.lo == i.hi => self.values[j]
                .iter()
                .position(|&c| c == i.lo)
                .map_or(UNKNOWN, |p| p as u8),
            _ => UNKNOWN,
        }
    }

    /// Chooses the private keys of `tpls` (global keys before them: `base`).
    pub fn choose(tpls: &Templates, base: usize) -> PrivateKeys {
        let prog = &tpls.program;
        let pts = PointsTo::of(tpls);
        let mut private: BTreeSet<VarId> = BTreeSet::new();
        for t in tpls.templates.values() {
            private.extend(t.locals.iter().copied().filter(|v| *v != t.self_id));
        }
        // Per candidate: constants assigned, candidates copied; `None` once disqualified.
        let mut cands: HashMap<VarId, Option<Cand>> = private
            .iter()
            .filter(|&&v| matches!(scalar_of(prog, prog.vars[v].ty), Scalar::Int(_)))
            .map(|&v| (v, Some((BTreeSet::new(), Vec::new()))))
            .collect();
        for t in tpls.templates.values() {
            for ins in t.body.instrs.values() {
                let Some(dst) = ins.kind.dst() else {
                    continue;
                };
                let (must, vs) = match pts.written(dst) {
                    Written::Must(v) => (true, vec![v]),
                    Written::May(vs) => (false, vs),
                    Written::Any => {
                        // Anything may be written: no private keys at all.
                        return PrivateKeys {
                            base,
                            ..PrivateKeys::default()
                        };
                    }
                };
                for v in vs {
                    let Some(slot) = cands.get_mut(&v) else {
                        continue;
                    };
                    let Some((consts, copies)) = slot.as_mut() else {
                        continue;
                    };
                    let ok = must
                        && dst.projs.is_empty()
                        && match &ins.kind {
                            InstrKind::Assign { src, .. } => match source(prog, src) {
                                Some(Source::Const(c)) => {
                                    consts.insert(c);
                                    true
                                }
                                Some(Source::Copy(w)) => {
                                    copies.push(w);
                                    true
                                }
                                None => false,
                            },
                            _ => false,
                        };
                    if !ok {
                        *slot = None;
                    }
                }
            }
        }
        // Copies of a non-candidate disqualify; then the values close over copies.
        loop {
            let bad: Vec<VarId> = cands
                .iter()
                .filter(|(_, c)| {
                    c.as_ref().is_some_and(|(_, copies)| {
                        copies
                            .iter()
                            .any(|w| !cands.get(w).is_some_and(|x| x.is_some()))
                    })
                })
                .map(|(v, _)| *v)
                .collect();
            if bad.is_empty() {
                break;
            }
            for v in bad {
                cands.insert(v, None);
            }
        }
        let mut vals: HashMap<VarId, BTreeSet<i128>> = cands
            .iter()
            .filter_map(|(v, c)| c.as_ref().map(|(consts, _)| (*v, consts.clone())))
            .collect();
        loop {
            let mut changed = false;
            for (v, c) in &cands {
                let Some((_, copies)) = c else { continue };
                for w in copies {
                    let add: Vec<i128> = vals[w].iter().copied().collect();
                    let mine = vals.get_mut(v).expect("candidates have values");
                    for x in add {
                        changed |= mine.insert(x);
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut chosen: Vec<(VarId, Vec<i128>)> = vals
            .into_iter()
            .filter(|(_, s)| s.len() >= 2 && s.len() <= MAX_VALUES)
            .map(|(v, s)| (v, s.into_iter().collect()))
            .collect();
        chosen.sort();
        chosen.truncate(MAX_PRIVATE);
        let mut pk = PrivateKeys {
            base,
            ..PrivateKeys::default()
        };
        for (j, (v, values)) in chosen.into_iter().enumerate() {
            pk.index.insert(v, j);
            pk.vars.push(v);
            pk.values.push(values);
        }
        pk
    }
}

/// A candidate's constants assigned and candidates copied.
type Cand = (BTreeSet<i128>, Vec<VarId>);

enum Source {
    Const(i128),
    Copy(VarId),
}

/// A constant (of an integer type) or a plain read of a whole variable, maybe under integer
/// casts that keep the small values these hold.
fn source(prog: &crate::ir::Program, e: &Expr) -> Option<Source> {
    match &e.kind {
        ExprKind::Const(c) => match scalar_of(prog, e.ty) {
            Scalar::Int(r) => Some(Source::Const(r.of_const(*c))),
            _ => None,
        },
        ExprKind::Read(p) if p.projs.is_empty() => match p.base {
            PlaceBase::Var(v) => Some(Source::Copy(v)),
            PlaceBase::Deref(_) => None,
        },
        ExprKind::Cast(a) if matches!(scalar_of(prog, e.ty), Scalar::Int(_)) => {
            // A cast keeps the value only when it fits; the values here are small
            // constants, checked against the destination when the tag is computed.
            source(prog, a)
        }
        _ => None,
    }
}
