//! The state of one symbolic path: its guard, the values of thread-private variables, and the
//! atomic section it is in; and how two paths are merged where control flow joins.

use std::collections::BTreeMap;

use encoder::{AtomicBlock, BitVec, Encoder};
use solver_glue::Lit;

use super::memory::ObjId;
use crate::ir::VarId;

/// The value of a variable or expression: a scalar, or the scalar leaves of an aggregate
/// (byte offset → value), in offset order.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Scalar(BitVec),
    Agg(Vec<(u64, BitVec)>),
}

impl Val {
    pub fn scalar(&self) -> Option<&BitVec> {
        match self {
            Val::Scalar(b) => Some(b),
            Val::Agg(_) => None,
        }
    }

    /// The leaves as (offset, value), a scalar being the one leaf at 0.
    pub fn leaves(&self) -> Vec<(u64, BitVec)> {
        match self {
            Val::Scalar(b) => vec![(0, b.clone())],
            Val::Agg(v) => v.clone(),
        }
    }

    pub fn from_leaves(mut leaves: Vec<(u64, BitVec)>, aggregate: bool) -> Val {
        if !aggregate && leaves.len() == 1 {
            Val::Scalar(leaves.pop().expect("one leaf").1)
        } else {
            Val::Agg(leaves)
        }
    }

    /// `if c then a else b`, leaf by leaf (both have the same shape).
    pub fn ite(enc: &mut Encoder, c: Lit, a: &Val, b: &Val) -> Val {
        match (a, b) {
            (Val::Scalar(x), Val::Scalar(y)) => Val::Scalar(enc.bv_ite(c, x, y)),
            _ => {
                let (la, lb) = (a.leaves(), b.leaves());
                debug_assert_eq!(la.len(), lb.len());
                Val::Agg(
                    la.iter()
                        .zip(lb.iter())
                        .map(|((o, x), (_, y))| (*o, enc.bv_ite(c, x, y)))
                        .collect(),
                )
            }
        }
    }
}

/// A thread-private variable instance: the call frame it belongs to and the variable.
pub type VarKey = (u32, VarId);

/// Frame number used for a thread's instances of thread-local globals.
pub const THREAD_FRAME: u32 = 0;

#[derive(Clone, Debug)]
pub struct State {
    /// The path condition: the path is executed iff this holds.
    pub guard: Lit,
    pub vars: BTreeMap<VarKey, Val>,
    /// Cells of objects private to this thread (only it ever accesses them): kept on the path
    /// like variables instead of becoming events.
    pub mem: BTreeMap<(ObjId, u64), BitVec>,
    /// The atomic section the path is in and its nesting depth.
    pub atomic: Option<(AtomicBlock, u32)>,
}

impl State {
    pub fn new(guard: Lit) -> State {
        State {
            guard,
            vars: BTreeMap::new(),
            mem: BTreeMap::new(),
            atomic: None,
        }
    }

    /// The atomic block the path is in, if any.
    pub fn block(&self) -> Option<AtomicBlock> {
        self.atomic.map(|a| a.0)
    }

    /// Whether the path is statically dead.
    pub fn is_dead(&self, enc: &Encoder) -> bool {
        enc.const_value(self.guard) == Some(false)
    }

    /// Merges `other` into `self`: the guard becomes the disjunction and every variable the
    /// if-then-else of the two values. Dead paths contribute nothing. Fails when the two paths
    /// are in different atomic sections (an atomic section that begins or ends on one branch
    /// only), which the equation cannot represent.
    pub fn merge(&mut self, other: State, enc: &mut Encoder) -> Result<(), String> {
        if other.is_dead(enc) {
            return Ok(());
        }
        if self.is_dead(enc) {
            *self = other;
            return Ok(());
        }
        if self.atomic != other.atomic {
            return Err("an atomic section that begins or ends on only one branch".into());
        }
        let g = other.guard;
        for (k, v) in other.vars {
            match self.vars.get_mut(&k) {
                Some(mine) => {
                    if *mine != v {
                        *mine = Val::ite(enc, g, &v, mine);
                    }
                }
                None => {
                    self.vars.insert(k, v);
                }
            }
        }
        for (k, v) in other.mem {
            match self.mem.get_mut(&k) {
                Some(mine) => {
                    if *mine != v {
                        *mine = enc.bv_ite(g, &v, mine);
                    }
                }
                None => {
                    self.mem.insert(k, v);
                }
            }
        }
        self.guard = enc.or(self.guard, g);
        Ok(())
    }
}
