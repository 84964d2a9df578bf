//! The visited set of the stateful search: canonical forms (`Machine::canonical`) stored
//! exactly, never as bare hashes, with the parts shared between states interned once
//! (collapse compression, as in SPIN and DIVINE): a state is the vector of the numbers of its
//! parts. Interning is exact (each part is compared as bytes), so two states get equal vectors
//! exactly when their forms are equal; a hash collision costs time, never a wrong answer.
//!
//! Beside each state, the edge it was first reached by (its parent, the thread and the nondet
//! values of the step), from which a violating run is rebuilt for the trace.

use hashbrown::HashMap;

use crate::explore::interp::Canonical;

/// The step a state was first reached by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: u32,
    pub thread: u32,
    /// The step's nondet values, in order.
    pub choices: Box<[u64]>,
}

/// The visited states.
#[derive(Default)]
pub struct Store {
    parts: HashMap<Box<[u8]>, u32>,
    states: HashMap<Box<[u32]>, u32>,
    /// Per state (by number): how it was first reached (`None` for the initial state).
    edges: Vec<Option<Edge>>,
    /// Bytes held by parts and state vectors (the tables' own overhead aside).
    bytes: usize,
}

impl Store {
    /// The number of the state with this form, adding it (reached by `edge`) if it is new;
    /// true when it is new.
    pub fn insert(&mut self, form: Canonical, edge: Option<Edge>) -> (u32, bool) {
        let key: Box<[u32]> = form.into_iter().map(|p| self.intern(p)).collect();
        if let Some(&id) = self.states.get(&key) {
            return (id, false);
        }
        let id = self.edges.len() as u32;
        self.bytes += key.len() * 4 + 16;
        self.states.insert(key, id);
        self.edges.push(edge);
        (id, true)
    }

    fn intern(&mut self, part: Vec<u8>) -> u32 {
        if let Some(&n) = self.parts.get(part.as_slice()) {
            return n;
        }
        let n = self.parts.len() as u32;
        self.bytes += part.len() + 16;
        self.parts.insert(part.into_boxed_slice(), n);
        n
    }

    /// The number of the state with this form, if it is stored (nothing is added).
    pub fn find(&self, form: &Canonical) -> Option<u32> {
        let key: Option<Box<[u32]>> = form
            .iter()
            .map(|p| self.parts.get(p.as_slice()).copied())
            .collect();
        self.states.get(&key?).copied()
    }

    /// How many states are stored.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// One past the largest state number given out.
    pub fn ids(&self) -> usize {
        self.edges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The bytes the stored forms take (an estimate of the store's memory, tables aside).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The edges from the initial state to state `id`, in order.
    pub fn path(&self, id: u32) -> Vec<Edge> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(Some(e)) = self.edges.get(at as usize) {
            path.push(e.clone());
            at = e.from;
        }
        path.reverse();
        path
    }
}
