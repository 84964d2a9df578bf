//! The visited set of the stateful search: canonical forms (`Machine::canonical`) stored
//! exactly, never as bare hashes, with the parts shared between states interned once
//! (collapse compression, as in SPIN and DIVINE): a state is the vector of the numbers of its
//! parts. Interning is exact (each part is compared as bytes), so two states get equal vectors
//! exactly when their forms are equal; a hash collision costs time, never a wrong answer.
//!
//! Beside each state, the edge it was first reached by (its parent, the thread and the nondet
//! values of the step), from which a violating run is rebuilt for the trace, and whether the
//! search reduced it to one thread's transitions (`ample`), which the certificate check reads.

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
    /// Per state (by number): the thread the search reduced it to, `None` when it expanded
    /// it fully (or not yet).
    ample: Vec<Option<u32>>,
    /// Per state (by number): the length of the edge path it was first reached by (its
    /// breadth-first level).
    level: Vec<u32>,
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
        let level = edge
            .as_ref()
            .and_then(|e| self.level.get(e.from as usize))
            .map_or(0, |l| l + 1);
        self.level.push(level);
        self.bytes += key.len() * 4 + 16;
        self.states.insert(key, id);
        self.edges.push(edge);
        self.ample.push(None);
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

    /// Marks state `id` as reduced to thread `t`'s transitions.
    pub fn set_ample(&mut self, id: u32, t: u32) {
        if let Some(a) = self.ample.get_mut(id as usize) {
            *a = Some(t);
        }
    }

    /// The length of the edge path state `id` was first reached by.
    pub fn level(&self, id: u32) -> u32 {
        self.level.get(id as usize).copied().unwrap_or(0)
    }

    /// The thread state `id` was reduced to, if it was.
    pub fn ample(&self, id: u32) -> Option<u32> {
        self.ample.get(id as usize).copied().flatten()
    }

    /// How many states are reduced.
    pub fn reduced(&self) -> usize {
        self.ample.iter().filter(|a| a.is_some()).count()
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
