//! The steps VerifySC has run, kept as a tree of run prefixes so that later searches share
//! them instead of running them again.
//!
//! Every search (`verify_sc::search`) starts from the program's initial state, and the
//! searches of one exploration walk mostly the same prefixes: the searches of one node
//! differ only in their candidate thread, and a child's search follows its parent's
//! witness (the auxiliary trace). Without sharing, every search ran its whole witness
//! prefix again, a machine clone and an interpreted step per event and per runnable
//! thread at every prefix: most of the explorer's time.
//!
//! Why a cached step is the step the search would run: `event::run` is a function of the
//! machine state it starts from, the thread, the event's index in its thread, the forced
//! nondet values and the synchronisation writers. A node of the tree is named by its path
//! from the root: the sequence of (thread, forced values) of the steps run from the initial
//! state. The interpreter is deterministic given its state and the nondet values, so the
//! path fixes the machine state, and with it each thread's event count (the event index)
//! and the synchronisation writers (the writers are the last events along the path that
//! wrote each object). Equal paths give equal inputs to `event::run`, hence equal results.
//!
//! A concolic machine (the explorer always runs one, `inputs`) also consults the symbolic
//! state its clones share (`concolic::Concolic`), and a step may record into it: terms,
//! decisions, the count of enumerated choices, a mismatch. A step is cached only when its
//! run left all of these as they were (`Mark`). Such a step behaves the same when run
//! again from the same state: the input values are fixed for the whole exploration
//! (`inputs`: `start_run` comes before it and nothing truncates the log during it), the
//! term arena and the set of decisions made only grow, so every term it asked for is
//! still there with the same id and value, every decision it met is still recorded, and
//! it would again record nothing. A step that records something is run every time.
//!
//! The tree only grows within a search; between searches it is dropped once it holds
//! `CAP` steps (the exploration's depth-first order makes the next searches walk the most
//! recent prefixes again, which the first search after the drop rebuilds). While full, a
//! search runs its further steps uncached: the results are the same, only slower.

use std::collections::HashMap;
use std::rc::Rc;

use super::event::{self, Ran, SyncWriters, Unmodelled};
use crate::explore::interp::Machine;

/// A node of the tree: a run prefix from the initial state, or rather the class of all
/// cached prefixes that reach the same state (see `Runs::run`).
pub type RunId = u32;

/// The empty prefix (the initial state).
pub const ROOT: RunId = 0;

/// A state outside the tree (not cached): its steps are run, not looked up.
pub const UNCACHED: RunId = RunId::MAX;

/// Steps kept before the tree is dropped between two searches. A step shares its
/// machine's unchanged objects with its parent's (copy on write), so an entry costs its
/// step record and the objects the step wrote: a few KiB at most on the tasks seen.
const CAP: usize = 60_000;

/// A step run from a cached prefix: the prefix it leads to, with its result.
pub struct Cached<'p> {
    pub id: RunId,
    pub ran: Rc<Ran<'p>>,
}

/// What a step can record into the symbolic state of a concolic machine: the terms made,
/// the decisions recorded, the enumerated choices counted, whether a decision disagreed.
type Mark = Option<(usize, usize, u64, bool)>;

fn mark(m: &Machine) -> Mark {
    m.concolic().map(|h| {
        let k = h.borrow();
        (k.terms.len(), k.log.len(), k.choices, k.mismatch)
    })
}

/// A step cached from a prefix: its thread, its forced nondet values, the prefix one step
/// longer and the step's result.
struct Edge<'p> {
    thread: usize,
    forced: Vec<u64>,
    to: RunId,
    ran: Rc<Ran<'p>>,
}

type StateKey = (u64, Vec<u32>, Vec<(event::SyncKey, event::EvId)>);

/// The run prefixes of one exploration, from its initial state.
///
/// The prefixes are numbered densely from `ROOT`, so everything kept per prefix is a vector
/// indexed by its id (no hashing on the search's hot path): the steps run from it, its
/// state, its fingerprint, and the mark of the search that last visited it (`first_visit`).
pub struct Runs<'p> {
    root: Machine<'p>,
    /// Per prefix (by id), the steps run from it: a handful (one per runnable thread and
    /// vector of forced values; most steps force no value), scanned in place, so a lookup
    /// allocates and hashes nothing.
    edges: Vec<Vec<Edge<'p>>>,
    /// Per prefix but the root (id - 1), the step that first reached it: its machine is
    /// the prefix's state, shared with the step (no clone per prefix).
    reached: Vec<Rc<Ran<'p>>>,
    /// The prefixes by state: (fingerprint, event counts, synchronisation writers).
    by_state: HashMap<StateKey, Vec<RunId>>,
    /// The memory fingerprint of each prefix's state, once asked (`id`: the root too).
    prints: Vec<Option<u64>>,
    /// Per prefix, the last search (`epoch`) that visited it (`first_visit`).
    marks: Vec<u32>,
    /// Per prefix, its runnable threads (`Machine::runnable`), once asked.
    runnable: Vec<Option<Rc<[usize]>>>,
    /// The current search's number; 0 marks no search.
    epoch: u32,
}

impl<'p> Runs<'p> {
    pub fn new(root: Machine<'p>) -> Self {
        Runs {
            root,
            edges: vec![Vec::new()],
            reached: Vec::new(),
            by_state: HashMap::new(),
            prints: vec![None],
            marks: vec![0],
            runnable: vec![None],
            epoch: 0,
        }
    }

    /// The initial state.
    pub fn root(&self) -> &Machine<'p> {
        &self.root
    }

    /// The state of the prefix `id`.
    fn state(&self, id: RunId) -> &Machine<'p> {
        match id {
            ROOT => &self.root,
            _ => &self.reached[id as usize - 1].machine,
        }
    }

    /// Prefixes in the tree.
    fn len(&self) -> usize {
        self.edges.len()
    }

    /// Starts a search: drops the tree when it is full (the ids an earlier search held
    /// would name other prefixes afterwards) and forgets which prefixes were visited
    /// (`first_visit`). Call between searches only.
    pub fn begin_search(&mut self) {
        if self.len() >= CAP {
            self.edges.truncate(1);
            self.edges[0].clear();
            self.reached.clear();
            self.by_state.clear();
            self.prints.truncate(1);
            self.marks.truncate(1);
            self.runnable.truncate(1);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.epoch = 1;
        }
    }

    /// Whether the current search (`begin_search`) visits the prefix `id` (in the tree)
    /// for the first time: true once per prefix and search.
    pub fn first_visit(&mut self, id: RunId) -> bool {
        let mark = &mut self.marks[id as usize];
        let first = *mark != self.epoch;
        *mark = self.epoch;
        first
    }

    /// Whether the current search has visited the prefix `id` (in the tree) already.
    pub fn visited(&self, id: RunId) -> bool {
        self.marks[id as usize] == self.epoch
    }

    /// `event::run` of the next step of thread `t` (event `counts[t]`) with the nondet values
    /// `forced` from the prefix `from`, whose state is `m` with the event counts `counts` and
    /// the writers `sync`: looked up when that step was run before from the same prefix.
    ///
    /// Prefixes that reach the same state (`Machine::same_state`, with equal event counts
    /// and writers) are one node: `event::run` reads nothing else of the machine (what
    /// `same_state` leaves out are counters no step reads: instructions executed, branch
    /// hashes and inputs taken, which only concolic runs use, and the last step's access
    /// log, which a step overwrites). The step looked up then comes from another prefix
    /// to the same state: equal in everything but those counters of its machine.
    pub fn run(
        &mut self,
        from: RunId,
        m: &Machine<'p>,
        t: usize,
        counts: &[u32],
        forced: &[u64],
        sync: &SyncWriters,
    ) -> Result<Cached<'p>, Unmodelled> {
        let idx = counts.get(t).copied().unwrap_or(0);
        let cacheable = from != UNCACHED;
        if cacheable {
            let hit = self.edges[from as usize]
                .iter()
                .find(|e| e.thread == t && e.forced[..] == *forced);
            if let Some(e) = hit {
                return Ok(Cached {
                    id: e.to,
                    ran: Rc::clone(&e.ran),
                });
            }
        }
        let before = mark(m);
        let ran = Rc::new(event::run(m, t, idx, forced, sync)?);
        let quiet = mark(m) == before;
        if !cacheable || self.len() >= CAP {
            return Ok(Cached { id: UNCACHED, ran });
        }
        let mut after = counts.to_vec();
        after.resize(after.len().max(t + 1), 0);
        after[t] += 1;
        // Threads the instance does not know yet have run nothing: the same counts.
        while after.last() == Some(&0) {
            after.pop();
        }
        let print = ran.machine.fingerprint();
        let key: StateKey = (
            print,
            after,
            ran.sync.iter().map(|(k, v)| (*k, *v)).collect(),
        );
        let found = self.by_state.get(&key).and_then(|bucket| {
            bucket
                .iter()
                .copied()
                .find(|&id| self.state(id).same_state(&ran.machine))
        });
        let id = match found {
            Some(id) => id,
            None => {
                let id = self.len() as RunId;
                self.edges.push(Vec::new());
                self.reached.push(Rc::clone(&ran));
                self.prints.push(Some(print));
                self.marks.push(0);
                self.runnable.push(None);
                self.by_state.entry(key).or_default().push(id);
                id
            }
        };
        if quiet {
            self.edges[from as usize].push(Edge {
                thread: t,
                forced: forced.to_vec(),
                to: id,
                ran: Rc::clone(&ran),
            });
        }
        Ok(Cached { id, ran })
    }

    /// `event::run_all` from the prefix `from` (see `run`): every outcome of the next step
    /// of thread `t` (event `counts[t]`), one per vector of nondet values.
    pub fn run_all(
        &mut self,
        from: RunId,
        m: &Machine<'p>,
        t: usize,
        counts: &[u32],
        sync: &SyncWriters,
    ) -> Result<Vec<Cached<'p>>, Unmodelled> {
        event::enumerate(
            |forced| self.run(from, m, t, counts, forced, sync),
            |c| &c.ran.step,
        )
    }

    /// The runnable threads (`Machine::runnable`) of the prefix `id`, whose state is `m`:
    /// computed once per prefix. Whether a thread can step reads its position and
    /// registers, the memory its wait names and the mutexes, all compared by `same_state`,
    /// so it is the same for every state the prefix stands for.
    pub fn runnable(&mut self, id: RunId, m: &Machine<'p>) -> Rc<[usize]> {
        if id == UNCACHED {
            return m.runnable().into();
        }
        Rc::clone(self.runnable[id as usize].get_or_insert_with(|| m.runnable().into()))
    }

    /// The memory fingerprint (`Machine::fingerprint`) of the prefix `id`, whose state is
    /// `m`: computed once per prefix.
    pub fn fingerprint(&mut self, id: RunId, m: &Machine<'p>) -> u64 {
        if id == UNCACHED {
            return m.fingerprint();
        }
        *self.prints[id as usize].get_or_insert_with(|| m.fingerprint())
    }
}
