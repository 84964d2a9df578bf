//! Abstract environments and partitioned states.
//!
//! An [`Env`] maps each tracked scalar variable to an abstract value ([`Val`]); a variable it
//! does not mention may hold any value of its type (the map is a conjunction of facts, and an
//! absent fact is `true`). A [`State`] is a finite disjunction of environments, each under a
//! [`Key`]: the exact values of a few *key* variables (lock words with their owner ghost, and
//! 0/1 flags, see [`super::keys`]). The concretisation of a state is the union over its keys
//! of the states whose key variables have exactly that key's values and whose other
//! variables satisfy the key's environment. Partitioning by keys loses nothing (it is a
//! disjunctive completion restricted to finitely many keys), and is what keeps relations such
//! as "while `m` is free, `count == 0`" that a single environment would join away.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{FuncId, VarId};

use super::itv::{Itv, Range};

/// A pointer target: like [`crate::prove::PtrTarget`], ordered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tgt {
    Null,
    /// The address of the first byte of a variable.
    Var(VarId),
    Func(FuncId),
}

/// An abstract value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    Int(Itv),
    /// The pointer holds exactly one of these addresses (never empty).
    Ptr(BTreeSet<Tgt>),
}

impl Val {
    /// Least upper bound; `None` is top (different kinds never meet in a well-typed program,
    /// and top is a sound answer for them).
    pub fn join(&self, o: &Val) -> Option<Val> {
        match (self, o) {
            (Val::Int(a), Val::Int(b)) => Some(Val::Int(a.join(*b))),
            (Val::Ptr(a), Val::Ptr(b)) => Some(Val::Ptr(a.union(b).copied().collect())),
            _ => None,
        }
    }
    /// Greatest lower bound; `None` is bottom.
    pub fn meet(&self, o: &Val) -> Option<Val> {
        match (self, o) {
            (Val::Int(a), Val::Int(b)) => a.meet(*b).map(Val::Int),
            (Val::Ptr(a), Val::Ptr(b)) => {
                let s: BTreeSet<Tgt> = a.intersection(b).copied().collect();
                (!s.is_empty()).then_some(Val::Ptr(s))
            }
            _ => Some(self.clone()),
        }
    }
    pub fn leq(&self, o: &Val) -> bool {
        match (self, o) {
            (Val::Int(a), Val::Int(b)) => a.subset(*b),
            (Val::Ptr(a), Val::Ptr(b)) => a.is_subset(b),
            _ => false,
        }
    }
}

/// Tracked scalar variables and their abstract values; absent means any value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Env {
    vals: BTreeMap<VarId, Val>,
}

impl Env {
    pub fn get(&self, v: VarId) -> Option<&Val> {
        self.vals.get(&v)
    }
    /// Sets `v` (`None`: any value). An interval that is the type's whole range is dropped.
    pub fn set(&mut self, v: VarId, val: Option<Val>, range: Option<Range>) {
        match val {
            Some(Val::Int(i)) if Some(i) == range.map(|r| r.full()) => {
                self.vals.remove(&v);
            }
            Some(x) => {
                self.vals.insert(v, x);
            }
            None => {
                self.vals.remove(&v);
            }
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = (VarId, &Val)> {
        self.vals.iter().map(|(v, x)| (*v, x))
    }
    /// Keeps only the variables `keep` accepts (the others become any value).
    pub fn retain(&mut self, mut keep: impl FnMut(VarId) -> bool) {
        self.vals.retain(|v, _| keep(*v));
    }
    pub fn join(&self, o: &Env) -> Env {
        let mut vals = BTreeMap::new();
        for (v, a) in &self.vals {
            if let Some(b) = o.vals.get(v) {
                if let Some(j) = a.join(b) {
                    vals.insert(*v, j);
                }
            }
        }
        Env { vals }
    }
    /// `None` when the conjunction is unsatisfiable.
    pub fn meet(&self, o: &Env) -> Option<Env> {
        let mut vals = self.vals.clone();
        for (v, b) in &o.vals {
            let m = match vals.get(v) {
                Some(a) => a.meet(b)?,
                None => b.clone(),
            };
            vals.insert(*v, m);
        }
        Some(Env { vals })
    }
    pub fn leq(&self, o: &Env) -> bool {
        o.vals
            .iter()
            .all(|(v, b)| self.vals.get(v).is_some_and(|a| a.leq(b)))
    }
    /// Widening: intervals by [`Itv::widen`] with the variable's range; pointer sets are
    /// finite (targets named in the program), their union terminates.
    pub fn widen(&self, new: &Env, range: &dyn Fn(VarId) -> Option<Range>, th: &[i128]) -> Env {
        let mut vals = BTreeMap::new();
        for (v, a) in &self.vals {
            let Some(b) = new.vals.get(v) else { continue };
            let w = match (a, b, range(*v)) {
                (Val::Int(x), Val::Int(y), Some(r)) => Some(Val::Int(x.widen(*y, r, th))),
                _ => a.join(b),
            };
            if let Some(w) = w {
                if !matches!((&w, range(*v)), (Val::Int(i), Some(r)) if *i == r.full()) {
                    vals.insert(*v, w);
                }
            }
        }
        Env { vals }
    }
}

/// The values of the key variables, one byte each (see [`super::keys::KeyKind`]).
pub type Key = Vec<u8>;

/// A disjunction of environments, one per key; empty is bottom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub parts: BTreeMap<Key, Env>,
}

impl State {
    pub fn bottom() -> State {
        State::default()
    }
    pub fn is_bottom(&self) -> bool {
        self.parts.is_empty()
    }
    pub fn single(key: Key, env: Env) -> State {
        let mut s = State::default();
        s.parts.insert(key, env);
        s
    }
    /// Adds one disjunct (joined with the one of the same key).
    pub fn add(&mut self, key: Key, env: Env) {
        match self.parts.get_mut(&key) {
            Some(e) => *e = e.join(&env),
            None => {
                self.parts.insert(key, env);
            }
        }
    }
    pub fn join(&self, o: &State) -> State {
        let mut r = self.clone();
        for (k, e) in &o.parts {
            r.add(k.clone(), e.clone());
        }
        r
    }
    pub fn leq(&self, o: &State) -> bool {
        self.parts
            .iter()
            .all(|(k, e)| o.parts.get(k).is_some_and(|f| e.leq(f)))
    }
    /// Greatest lower bound: the keys both have, each with the meet of its environments
    /// (a key whose meet is unsatisfiable is dropped).
    pub fn meet(&self, o: &State) -> State {
        let mut r = State::default();
        for (k, e) in &self.parts {
            if let Some(m) = o.parts.get(k).and_then(|f| e.meet(f)) {
                r.parts.insert(k.clone(), m);
            }
        }
        r
    }
    pub fn widen(&self, new: &State, range: &dyn Fn(VarId) -> Option<Range>, th: &[i128]) -> State {
        let mut r = self.clone();
        for (k, e) in &new.parts {
            match r.parts.get_mut(k) {
                Some(old) => *old = old.widen(e, range, th),
                None => {
                    r.parts.insert(k.clone(), e.clone());
                }
            }
        }
        r
    }
}
