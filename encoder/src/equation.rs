//! The equation's concurrency skeleton: threads, shared-memory events, atomic blocks, and the
//! create/join points that order threads.
//!
//! An event is one access to a shared [`Location`] (what two events conflict on). Each thread
//! is a sequence of items in program order: its events and the points where it creates or
//! joins another thread. A thread created at point p starts after everything its parent did
//! before p; a join at point p waits for everything the joined thread did. The init thread
//! (created by [`Equation::new`]) holds the initial writes and precedes every other thread.
//!
//! Create and join points carry a guard literal: the ordering they impose holds only when the
//! guard is true (a join under an `if`). A guard equal to [`Equation::true_lit`] is
//! unconditional; only unconditional orders are used for static pruning. Create and join points
//! may lie inside an atomic block (the child then starts after, or ends before, the whole
//! block).
//!
//! Contract with the builder (symex): every location that is read has an initial write (a
//! nondeterministic value if C leaves it undefined); an event's guard is the full condition
//! under which the access happens, so it implies that its thread was created; an atomic block is one run of
//! items of one thread ([`Equation::validate`]). What a [`Location`] is (a scalar, an array
//! element at a constant index, a whole object updated functionally) is the builder's choice;
//! two events conflict exactly when their locations are equal.

use crate::bitvec::BitVec;
use cranelift_entity::{entity_impl, PrimaryMap};
use solver_glue::Lit;
use std::fmt;

/// A thread of the bounded program (thread 0 is the init thread).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Thread(u32);
entity_impl!(Thread, "thread");

/// One shared-memory access.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event(u32);
entity_impl!(Event, "e");

/// A shared memory location: two events conflict iff they access the same location.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location(u32);
entity_impl!(Location, "loc");

/// An indivisible group of consecutive events of one thread.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AtomicBlock(u32);
entity_impl!(AtomicBlock, "atomic");

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AccessKind {
    Read,
    Write,
}

/// One shared access.
#[derive(Clone, Debug)]
pub struct EventData {
    pub thread: Thread,
    pub location: Location,
    pub kind: AccessKind,
    /// The condition under which the access happens (path condition, including the
    /// condition under which its thread was created).
    pub guard: Lit,
    /// For a write the value written, for a read the value returned.
    pub value: BitVec,
    pub atomic: Option<AtomicBlock>,
    /// Opaque reference for the caller (e.g. a source location index).
    pub source: Option<u32>,
}

impl EventData {
    pub fn is_read(&self) -> bool {
        self.kind == AccessKind::Read
    }
    pub fn is_write(&self) -> bool {
        self.kind == AccessKind::Write
    }
}

/// An element of a thread's program order.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ThreadItem {
    Event(Event),
    /// Index into [`Equation::creates`].
    Create(usize),
    /// Index into [`Equation::joins`].
    Join(usize),
}

#[derive(Clone, Debug, Default)]
pub struct ThreadData {
    /// Program order of this thread.
    pub items: Vec<ThreadItem>,
}

impl ThreadData {
    /// This thread's events in program order.
    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        self.items.iter().filter_map(|i| match i {
            ThreadItem::Event(e) => Some(*e),
            _ => None,
        })
    }
}

/// `parent` creates `child` (when `guard` holds) at this point of its program order.
#[derive(Copy, Clone, Debug)]
pub struct CreateEdge {
    pub parent: Thread,
    pub child: Thread,
    pub guard: Lit,
    /// The atomic block the create point lies in: the child then starts after the block.
    pub atomic: Option<AtomicBlock>,
}

/// `joiner` waits for `child` to finish (when `guard` holds) at this point of its program order.
#[derive(Copy, Clone, Debug)]
pub struct JoinEdge {
    pub joiner: Thread,
    pub child: Thread,
    pub guard: Lit,
    /// The atomic block the join point lies in: the child then ends before the block.
    pub atomic: Option<AtomicBlock>,
}

/// `before` precedes `after` (when `guard` holds) in every execution searched: not program
/// order but a restriction of the search that the builder proved loses no outcome (symmetry
/// breaking between identical threads, `yogar::symex::symmetry`). The encodings treat it as
/// one more guarded edge of the program-order graph.
#[derive(Copy, Clone, Debug)]
pub struct SearchOrder {
    pub before: Event,
    pub after: Event,
    pub guard: Lit,
}

#[derive(Clone, Debug)]
pub struct LocationData {
    pub name: String,
}

/// A malformed equation or a construct the encodings cannot represent exactly.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EquationError {
    /// The program order has a cycle (through create/join points).
    ProgramOrderCycle,
    /// An atomic block's events are not one contiguous run of one thread.
    AtomicBlockNotContiguous(AtomicBlock),
    /// Collapsing atomic blocks makes the order cyclic (a create/join inside a block that
    /// waits for the created thread).
    AtomicBlockCycle,
    /// A read and a candidate write of one location have values of different widths.
    WidthMismatch { read: Event, write: Event },
    /// The init thread may only hold unconditional writes.
    BadInitEvent(Event),
    /// A location that is read has no initial write (its reads could never execute).
    NoInitialWrite(Location),
}

impl fmt::Display for EquationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EquationError::ProgramOrderCycle => {
                write!(f, "program order is cyclic (create/join cycle)")
            }
            EquationError::AtomicBlockNotContiguous(b) => {
                write!(f, "{b} is not a contiguous run of one thread")
            }
            EquationError::AtomicBlockCycle => write!(
                f,
                "unsupported: an atomic block waits for a thread it creates or that waits for it"
            ),
            EquationError::WidthMismatch { read, write } => {
                write!(f, "read {read} and write {write} differ in width")
            }
            EquationError::BadInitEvent(e) => {
                write!(f, "init event {e} is not an unconditional write")
            }
            EquationError::NoInitialWrite(l) => write!(f, "location {l} has no initial write"),
        }
    }
}

impl std::error::Error for EquationError {}

/// The events and orders of a bounded concurrent program.
#[derive(Clone, Debug)]
pub struct Equation {
    /// The φ solver's constant-true literal (guards equal to it are unconditional).
    pub true_lit: Lit,
    pub events: PrimaryMap<Event, EventData>,
    pub threads: PrimaryMap<Thread, ThreadData>,
    pub locations: PrimaryMap<Location, LocationData>,
    pub creates: Vec<CreateEdge>,
    pub joins: Vec<JoinEdge>,
    /// Orders between events of different threads that restrict the search ([`SearchOrder`]).
    pub search_orders: Vec<SearchOrder>,
    atomic_blocks: PrimaryMap<AtomicBlock, ()>,
    init_thread: Thread,
}

impl Equation {
    /// An empty equation with its init thread; `true_lit` is the φ encoder's
    /// [`crate::Encoder::tru`].
    pub fn new(true_lit: Lit) -> Equation {
        let mut threads = PrimaryMap::new();
        let init_thread = threads.push(ThreadData::default());
        Equation {
            true_lit,
            events: PrimaryMap::new(),
            threads,
            locations: PrimaryMap::new(),
            creates: Vec::new(),
            joins: Vec::new(),
            search_orders: Vec::new(),
            atomic_blocks: PrimaryMap::new(),
            init_thread,
        }
    }

    /// The thread holding the initial writes; it precedes every other thread.
    pub fn init_thread(&self) -> Thread {
        self.init_thread
    }

    pub fn add_thread(&mut self) -> Thread {
        self.threads.push(ThreadData::default())
    }

    pub fn add_location(&mut self, name: impl Into<String>) -> Location {
        self.locations.push(LocationData { name: name.into() })
    }

    pub fn new_atomic_block(&mut self) -> AtomicBlock {
        self.atomic_blocks.push(())
    }

    pub fn num_atomic_blocks(&self) -> usize {
        self.atomic_blocks.len()
    }

    /// Appends an event to its thread's program order.
    pub fn add_event(&mut self, data: EventData) -> Event {
        let thread = data.thread;
        let e = self.events.push(data);
        self.threads[thread].items.push(ThreadItem::Event(e));
        e
    }

    /// Adds events into `thread`'s program order, each just before the item at its position
    /// (positions count the items as they are now; equal positions keep the given order):
    /// for accesses whose alternatives become known only after later items were added.
    pub fn insert_events(
        &mut self,
        thread: Thread,
        inserts: impl IntoIterator<Item = (usize, EventData)>,
    ) -> Vec<Event> {
        let mut created: Vec<Event> = Vec::new();
        let mut placed: Vec<(usize, Event)> = Vec::new();
        for (pos, data) in inserts {
            debug_assert_eq!(data.thread, thread);
            let e = self.events.push(data);
            created.push(e);
            placed.push((pos, e));
        }
        placed.sort_by_key(|&(pos, _)| pos);
        let old = std::mem::take(&mut self.threads[thread].items);
        let mut items = Vec::with_capacity(old.len() + placed.len());
        let mut next = placed.iter().peekable();
        for (k, item) in old.into_iter().enumerate() {
            while let Some(&(_, e)) = next.next_if(|(pos, _)| *pos <= k) {
                items.push(ThreadItem::Event(e));
            }
            items.push(item);
        }
        items.extend(next.map(|&(_, e)| ThreadItem::Event(e)));
        self.threads[thread].items = items;
        created
    }

    /// Appends an unconditional initial write of `value` to `location`.
    pub fn add_init_write(&mut self, location: Location, value: BitVec) -> Event {
        self.add_event(EventData {
            thread: self.init_thread,
            location,
            kind: AccessKind::Write,
            guard: self.true_lit,
            value,
            atomic: None,
            source: None,
        })
    }

    /// Appends to `parent`'s program order the point where it creates `child` (inside
    /// `atomic` if that is given).
    pub fn add_create(
        &mut self,
        parent: Thread,
        child: Thread,
        guard: Lit,
        atomic: Option<AtomicBlock>,
    ) {
        self.creates.push(CreateEdge {
            parent,
            child,
            guard,
            atomic,
        });
        let idx = self.creates.len() - 1;
        self.threads[parent].items.push(ThreadItem::Create(idx));
    }

    /// Appends to `joiner`'s program order the point where it joins `child` (inside `atomic`
    /// if that is given).
    pub fn add_join(
        &mut self,
        joiner: Thread,
        child: Thread,
        guard: Lit,
        atomic: Option<AtomicBlock>,
    ) {
        self.joins.push(JoinEdge {
            joiner,
            child,
            guard,
            atomic,
        });
        let idx = self.joins.len() - 1;
        self.threads[joiner].items.push(ThreadItem::Join(idx));
    }

    /// Adds a [`SearchOrder`]: `before` precedes `after` whenever `guard` holds.
    pub fn add_search_order(&mut self, before: Event, after: Event, guard: Lit) {
        self.search_orders.push(SearchOrder {
            before,
            after,
            guard,
        });
    }

    /// The writes of each location, in event order.
    pub fn writes_by_location(&self) -> cranelift_entity::SecondaryMap<Location, Vec<Event>> {
        let mut map: cranelift_entity::SecondaryMap<Location, Vec<Event>> =
            cranelift_entity::SecondaryMap::new();
        for (e, d) in self.events.iter() {
            if d.is_write() {
                map[d.location].push(e);
            }
        }
        map
    }

    /// The atomic block an item of a thread lies in.
    pub fn item_atomic(&self, item: ThreadItem) -> Option<AtomicBlock> {
        match item {
            ThreadItem::Event(e) => self.events[e].atomic,
            ThreadItem::Create(c) => self.creates[c].atomic,
            ThreadItem::Join(j) => self.joins[j].atomic,
        }
    }

    /// Checks the structural invariants the encodings rely on.
    pub fn validate(&self) -> Result<(), EquationError> {
        for e in self.threads[self.init_thread].events() {
            let d = &self.events[e];
            if !d.is_write() || d.guard != self.true_lit || d.atomic.is_some() {
                return Err(EquationError::BadInitEvent(e));
            }
        }
        let mut initialised: cranelift_entity::SecondaryMap<Location, bool> =
            cranelift_entity::SecondaryMap::new();
        for e in self.threads[self.init_thread].events() {
            initialised[self.events[e].location] = true;
        }
        for d in self.events.values() {
            if d.is_read() && !initialised[d.location] {
                return Err(EquationError::NoInitialWrite(d.location));
            }
        }
        // Each block is one run of items (events and create/join points) of one thread.
        let mut started: cranelift_entity::SecondaryMap<AtomicBlock, bool> =
            cranelift_entity::SecondaryMap::new();
        for td in self.threads.values() {
            let mut open: Option<AtomicBlock> = None;
            for &item in &td.items {
                let b = self.item_atomic(item);
                if open != b {
                    if let Some(nb) = b {
                        if started[nb] {
                            return Err(EquationError::AtomicBlockNotContiguous(nb));
                        }
                        started[nb] = true;
                    }
                    open = b;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserted_events_go_before_the_item_at_their_position() {
        let tru = Lit::from_dimacs(1);
        let mut eq = Equation::new(tru);
        let t = eq.add_thread();
        let u = eq.add_thread();
        let x = eq.add_location("x");
        let ev = |thread| EventData {
            thread,
            location: x,
            kind: AccessKind::Write,
            guard: tru,
            value: BitVec::from_bits(vec![tru]),
            atomic: None,
            source: None,
        };
        let a = eq.add_event(ev(t));
        eq.add_create(t, u, tru, None);
        let b = eq.add_event(ev(t));
        let got = eq.insert_events(t, [(3, ev(t)), (1, ev(t)), (1, ev(t))]);
        let (late, c1, c2) = (got[0], got[1], got[2]);
        assert_eq!(
            eq.threads[t].items,
            vec![
                ThreadItem::Event(a),
                ThreadItem::Event(c1),
                ThreadItem::Event(c2),
                ThreadItem::Create(0),
                ThreadItem::Event(b),
                ThreadItem::Event(late),
            ]
        );
    }
}
