//! What the analysis knows about the program before it starts: the kind of every variable
//! (tracked integer with its range, tracked pointer, or untracked aggregate), which variables
//! are shared, the key variables, and the widening thresholds.

use std::collections::HashMap;

use cranelift_entity::SecondaryMap;

use crate::ir::{Expr, ExprKind, InstrId, PlaceBase, Program, Type, TypeId, VarId};
use crate::prove::domain::itv::Range;
use crate::prove::{TemplateId, Templates};

use super::keys::{KeyVar, LockWrite};

/// How the domain represents a variable.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Scalar {
    Int(Range),
    Ptr,
    /// Aggregates, floats: not tracked (any value).
    #[default]
    Other,
}

pub struct Ctx<'a> {
    pub tpls: &'a Templates,
    pub prog: &'a Program,
    scalar: SecondaryMap<VarId, Scalar>,
    /// Globals (not thread-local): one object for all instances.
    shared: SecondaryMap<VarId, bool>,
    pub keys: Vec<KeyVar>,
    pub key_of: HashMap<VarId, usize>,
    /// Writes of lock words: `(template, location)` to the lock's key index and value.
    pub lock_writes: HashMap<(TemplateId, InstrId), LockWrite>,
    /// Sorted widening thresholds: the program's constants and their neighbours.
    pub thresholds: Vec<i128>,
    /// The `int` type (results of comparisons in facts).
    pub int_ty: TypeId,
    mentioned: SecondaryMap<VarId, bool>,
    /// Test-only sabotage: `+` adds one more than the program does.
    pub add_off_by_one: bool,
    /// The private keys (set by the analyser after the global keys are known).
    pub private: super::private_keys::PrivateKeys,
    /// Sabotage (tests only): see [`super::Sabotage::skew_small_copies`].
    pub skew_small_copies: bool,
    /// Phase ghost updates after an instruction: key index and value (see [`super::phases`]).
    pub phase_updates: HashMap<(TemplateId, InstrId), Vec<(usize, u8)>>,
}

impl<'a> Ctx<'a> {
    /// `ghosts`: the owner ghosts, which the domain tracks through the keys only.
    pub fn new(
        tpls: &'a Templates,
        keys: Vec<KeyVar>,
        lock_writes: HashMap<(TemplateId, InstrId), LockWrite>,
        int_ty: TypeId,
        ghosts: &[VarId],
    ) -> Ctx<'a> {
        let prog = &tpls.program;
        let mut scalar = SecondaryMap::new();
        let mut shared = SecondaryMap::new();
        for (v, d) in prog.vars.iter() {
            scalar[v] = scalar_of(prog, d.ty);
            shared[v] = d.is_global() && !d.thread_local;
        }
        let mut mentioned = SecondaryMap::new();
        for t in tpls.templates.values() {
            scalar[t.self_id] = Scalar::Other;
            for ins in t.body.instrs.values() {
                ins.kind.walk_exprs(&mut |e| {
                    e.walk(&mut |x| {
                        if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &x.kind {
                            if let PlaceBase::Var(v) = p.base {
                                mentioned[v] = true;
                            }
                        }
                    })
                });
                if let Some(p) = ins.kind.dst() {
                    if let PlaceBase::Var(v) = p.base {
                        mentioned[v] = true;
                    }
                }
            }
        }
        for &g in ghosts {
            scalar[g] = Scalar::Other;
        }
        let key_of = keys.iter().enumerate().map(|(i, k)| (k.var, i)).collect();
        let thresholds = thresholds(tpls);
        Ctx {
            tpls,
            prog,
            scalar,
            shared,
            keys,
            key_of,
            lock_writes,
            thresholds,
            int_ty,
            mentioned,
            add_off_by_one: false,
            private: Default::default(),
            skew_small_copies: false,
            phase_updates: HashMap::new(),
        }
    }
    /// Whether some template reads, writes or takes the address of `v` directly (facts
    /// about the others are true but useless to the checker).
    pub fn mentioned(&self, v: VarId) -> bool {
        self.mentioned.get(v).copied().unwrap_or(false)
    }
    pub fn scalar(&self, v: VarId) -> Scalar {
        self.scalar.get(v).copied().unwrap_or_default()
    }
    pub fn range(&self, v: VarId) -> Option<Range> {
        match self.scalar(v) {
            Scalar::Int(r) => Some(r),
            _ => None,
        }
    }
    pub fn ty_scalar(&self, t: TypeId) -> Scalar {
        scalar_of(self.prog, t)
    }
    pub fn is_shared(&self, v: VarId) -> bool {
        self.shared.get(v).copied().unwrap_or(false)
    }
    pub fn key_index(&self, v: VarId) -> Option<usize> {
        self.key_of.get(&v).copied()
    }
    /// `file:line` of a template location, for messages.
    pub fn at(&self, t: TemplateId, l: InstrId) -> String {
        let body = &self.tpls.templates[t].body;
        self.prog.loc_str(body.instrs[l].loc)
    }
}

pub fn scalar_of(prog: &Program, t: TypeId) -> Scalar {
    match prog.types.get(t) {
        Type::Int { bits, signed } => Scalar::Int(Range::int(*bits as u32, *signed)),
        Type::Bool => Scalar::Int(Range::bool_()),
        Type::Pointer(_) => Scalar::Ptr,
        _ => Scalar::Other,
    }
}

/// The integer constants of the templates, each with its neighbours `c - 1`, `c + 1` and
/// `c + 2` (a guard `x + 1 <= c` followed by `x += 2` stabilises at `c + 1`), sorted. Any
/// finite set is sound for widening; these make the common loop bounds exact.
fn thresholds(tpls: &Templates) -> Vec<i128> {
    let prog = &tpls.program;
    let mut out = vec![-1, 0, 1, 2];
    let mut add = |e: &Expr| {
        if let ExprKind::Const(c) = e.kind {
            if let Scalar::Int(r) = scalar_of(prog, e.ty) {
                let v = r.of_const(c);
                out.extend([v - 1, v, v + 1, v + 2]);
            }
        }
    };
    for t in tpls.templates.values() {
        for ins in t.body.instrs.values() {
            ins.kind.walk_exprs(&mut |e| e.walk(&mut add));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
