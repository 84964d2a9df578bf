//! The ordering-consistency theory: the event order graph of the current partial assignment,
//! kept acyclic inside the SAT search.
//!
//! Nodes are the clocks of the schedule layout (an event, a create/join point, or a whole atomic
//! block). Edges, each present exactly while all of its literals are true:
//!
//! | edge | from → to | literals |
//! |---|---|---|
//! | program order | along each thread, init before all | none (static) |
//! | create / join | point → child start, child end → point | the create/join guard |
//! | read-from | w → r | the link s(r,w) |
//! | coherence | w1 → w2 | the coherence literal, guard(w1), guard(w2) |
//! | from-read | r → w2, where r reads w1 and w1 comes before w2 | s(r,w1), the coherence literal (none if program order decides), guard(w2) |
//!
//! When the link table leaves value equalities to the theory ([`crate::ValueEquality`]), it
//! also enforces them on the links that are true (`values`).
//!
//! In the terms of the Yogar paper: program order and read-from are the EOG's base edges, the
//! reachability closure is rule 1, a from-read edge is rule 3 with the coherence literal as the
//! order of the two writes, and rule 2 is the same edge seen from the other side (a write w2
//! before r forces w2 before w1, or the from-read edge r → w2 closes a cycle).
//!
//! Soundness: every edge holds in every execution in which its literals hold (a coherence
//! literal of two executed writes is their order). An unexecuted event is a point that program
//! order places, so the static chain through it is still an order (any execution extends to an
//! order of all nodes that respects program order). So a cycle contradicts every execution in
//! which its literals hold, and the conflict clause `¬(l1 ∧ … ∧ lk)` over them is implied.
//! Completeness: on a full assignment, every two executed writes of a location are ordered
//! (by program order or by their literal), so an acyclic graph's topological order makes every
//! read see its write last: it is a schedule. The engine still validates that schedule against
//! the model before it answers FALSE.
//!
//! State changes are recorded in an undo log; each processed literal remembers where the log
//! stood before it, so backtracking to a level rewinds exactly the literals assigned above it.

use std::any::Any;

use cranelift_entity::EntityRef;
use solver_glue::{Lit, Propagation, Propagator, Var};

mod implied;
mod values;

use super::coherence::Coherence;
use super::dag::{Cycle, Dag, Reason};
use crate::equation::{Equation, EquationError, Event};
use crate::links::LinkTable;
use crate::program_order::ProgramOrder;
use crate::schedule::{LiteralMode, ScheduleEncoding};

/// `rel` entry: the row write comes first by program order.
const PO_BEFORE: u32 = u32::MAX;
/// `rel` entry: the column write comes first by program order.
const PO_AFTER: u32 = u32::MAX - 1;

/// What a literal does when it becomes true.
#[derive(Copy, Clone, Debug)]
enum Role {
    /// Link `links[i]` holds: a read-from edge.
    Link(u32),
    /// The guard of write `w` holds.
    WriteGuard(u32),
    /// Coherence pair `i` holds with its first write first (`true`) or second first.
    Pair(u32, bool),
    /// The guard of the conditional program-order edge `po_edges[i]` holds.
    PoEdge(u32),
    /// The guard of read `r` holds.
    ReadGuard(u32),
    /// Bit `.1` of read `.0`'s value was assigned (its equality is the theory's).
    ReadBit(u32, u32),
    /// Bit `.1` of write `.0`'s value was assigned (its equality is the theory's).
    WriteBit(u32, u32),
}

#[derive(Copy, Clone, Debug)]
struct LinkInfo {
    read: u32,
    write: u32,
    lit: Lit,
}

#[derive(Copy, Clone, Debug)]
struct PairInfo {
    first: u32,
    second: u32,
    lit: Lit,
}

#[derive(Copy, Clone, Debug)]
enum Undo {
    Edge,
    Active(u32),
    Pair(u32),
    Reader(u32),
    Linked(u32),
    Executed,
}

/// Visits one propagation pass may spend on graph searches; a pass that runs out implies fewer
/// literals, which costs conflicts later but never soundness.
const PROPAGATION_BUDGET: u32 = 1024;

/// Counters of the theory over its life.
#[derive(Copy, Clone, Debug, Default)]
pub struct TheoryStats {
    /// Conflicts raised (cycles found on partial or full assignments).
    pub conflicts: u64,
    /// Literals in all conflict clauses (their average is the explanation length).
    pub conflict_literals: u64,
    /// Literals implied by the theory, and the literals of their reasons.
    pub propagations: u64,
    pub reason_literals: u64,
    /// Edges inserted into the graph.
    pub edges: u64,
    /// Nodes visited by the graph searches.
    pub visited: u64,
    /// Full assignments accepted.
    pub models: u64,
    /// Observed variables (links, coherence, guards).
    pub observed: u64,
    /// Coherence variables.
    pub coherence_vars: u64,
}

/// The theory, ready to be connected to a solver holding φ, ζ and the coherence variables.
pub struct OrderTheory {
    layout: ScheduleEncoding,
    clock: Vec<u32>,
    pos: Vec<u32>,
    /// Guard of each write (`None`: always executes).
    guard: Vec<Option<Lit>>,
    /// Location index and slot among its writes, per write event.
    loc_of: Vec<u32>,
    slot: Vec<u32>,
    /// Per location: its writes, and the `n × n` relation between them (a pair index or
    /// `PO_BEFORE`/`PO_AFTER`).
    loc_writes: Vec<Vec<u32>>,
    rel: Vec<Vec<u32>>,
    links: Vec<LinkInfo>,
    pairs: Vec<PairInfo>,
    po_edges: Vec<(u32, u32, Lit)>,
    /// Per read: its location index and the range of its links in `links`.
    read_loc: Vec<u32>,
    read_links: Vec<(u32, u32)>,
    /// Roles of each literal (by `Lit::code`), as ranges into `roles`.
    role_start: Vec<u32>,
    roles: Vec<Role>,
    observed: Vec<Var>,

    active: Vec<bool>,
    /// 0: unassigned; 1: first write first; 2: second first.
    pair_state: Vec<u8>,
    /// Per write: the links (indices) currently true that read from it.
    readers: Vec<Vec<u32>>,
    /// Per read: the link currently true (`u32::MAX`: none).
    linked: Vec<u32>,
    /// Reads whose guard holds, in the order it was processed.
    executed: Vec<u32>,
    /// Whether the graph or the executed reads changed since the last propagation pass.
    dirty: bool,
    /// Reason of each literal this theory implied, by variable (valid while it is assigned).
    implied_reason: Vec<Vec<Lit>>,
    dag: Dag,
    undo: Vec<Undo>,
    trail: Vec<Lit>,
    undo_at: Vec<usize>,
    trail_lim: Vec<usize>,
    processed: usize,
    /// Variables on `trail` with their value (0: not on it; 1: true; 2: false). A solver may
    /// report a literal again after backtracking, e.g. CaDiCaL re-notifies out-of-order
    /// assignments; a literal already on the trail is skipped.
    on_trail: Vec<u8>,
    /// The value bits, when the theory enforces ζ's value equalities.
    values: Option<values::ValueBits>,
    /// Value implications of the current pass, and per variable the polarity queued (0: none,
    /// 1: positive, 2: negative).
    pending: Vec<Lit>,
    pending_mark: Vec<u8>,
    /// A conflict found at decision level 0 holds for good.
    root_conflict: Option<Vec<Lit>>,
    path: Vec<Lit>,
    /// Scratch of `implied_links`: the open links of one read, and which are blocked.
    open_scratch: Vec<u32>,
    blocked_scratch: Vec<bool>,
    closing_scratch: Vec<u32>,

    stats: TheoryStats,
    /// Every conflict clause and every implication (as the clause `lit ∨ ¬reason`), when they
    /// are to be checked.
    recorded: Option<Vec<Vec<Lit>>>,
    /// The clock sequence of the last full assignment accepted.
    last_order: Option<Vec<u32>>,
}

impl OrderTheory {
    /// The theory of `eq` with link table `links` (ζ, on the φ encoder) and coherence literals
    /// `coherence`; `po` is [`ProgramOrder::unconditional`] of `eq`. With `record`, every
    /// conflict clause is kept ([`OrderTheory::recorded`]).
    pub fn new(
        eq: &Equation,
        po: &ProgramOrder,
        links: &LinkTable,
        coherence: &Coherence,
        record: bool,
    ) -> Result<OrderTheory, EquationError> {
        let layout = ScheduleEncoding::layout(eq, po, links, LiteralMode::Separate)?;
        let n = eq.events.len();
        let tru = eq.true_lit;
        let mut clock = vec![0u32; n];
        let mut pos = vec![0u32; n];
        let mut guard = vec![None; n];
        for (e, d) in eq.events.iter() {
            clock[e.index()] = layout.clock_of[e];
            pos[e.index()] = layout.position[e];
            guard[e.index()] = (d.guard != tru).then_some(d.guard);
        }
        let mut loc_of = vec![u32::MAX; n];
        let mut slot = vec![u32::MAX; n];
        let mut loc_writes = Vec::new();
        let mut rel = Vec::new();
        let mut pair_index = hashbrown::HashMap::new();
        let pairs: Vec<PairInfo> = coherence
            .pairs()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                pair_index.insert((p.first, p.second), i as u32);
                PairInfo {
                    first: p.first.index() as u32,
                    second: p.second.index() as u32,
                    lit: p.lit,
                }
            })
            .collect();
        for (li, loc) in eq.locations.keys().enumerate() {
            let ws = &coherence.writes[loc];
            let k = ws.len();
            let mut m = vec![0u32; k * k];
            for (i, &a) in ws.iter().enumerate() {
                loc_of[a.index()] = li as u32;
                slot[a.index()] = i as u32;
                for (j, &b) in ws.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    m[i * k + j] = if po.po_before(a, b) {
                        PO_BEFORE
                    } else if po.po_before(b, a) {
                        PO_AFTER
                    } else {
                        let key = if a.index() < b.index() {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        pair_index[&key]
                    };
                }
            }
            loc_writes.push(ws.iter().map(|e| e.index() as u32).collect::<Vec<_>>());
            rel.push(m);
        }
        let mut link_infos = Vec::new();
        let mut read_loc = vec![u32::MAX; n];
        let mut read_links = vec![(0u32, 0u32); n];
        let loc_index: hashbrown::HashMap<_, u32> = eq
            .locations
            .keys()
            .enumerate()
            .map(|(i, l)| (l, i as u32))
            .collect();
        for &r in links.reads() {
            read_loc[r.index()] = loc_index[&eq.events[r].location];
            let start = link_infos.len() as u32;
            for l in links.candidates(r) {
                link_infos.push(LinkInfo {
                    read: r.index() as u32,
                    write: l.write.index() as u32,
                    lit: l.lit,
                });
            }
            read_links[r.index()] = (start, link_infos.len() as u32);
        }
        let mut static_edges = Vec::new();
        let mut po_edges = Vec::new();
        for &(a, b, g) in &layout.clock_edges {
            if g == tru {
                static_edges.push((a, b));
            } else if g != !tru {
                po_edges.push((a, b, g));
            }
        }
        let dag = Dag::new(layout.clock_events.len(), &static_edges)
            .ok_or(EquationError::AtomicBlockCycle)?;

        // Roles by literal code.
        let mut by_code: Vec<(usize, Role)> = Vec::new();
        for (i, l) in link_infos.iter().enumerate() {
            by_code.push((l.lit.code(), Role::Link(i as u32)));
        }
        for (w, g) in guard.iter().enumerate() {
            if let Some(g) = g {
                if loc_of[w] != u32::MAX {
                    by_code.push((g.code(), Role::WriteGuard(w as u32)));
                }
            }
        }
        for (i, p) in pairs.iter().enumerate() {
            by_code.push((p.lit.code(), Role::Pair(i as u32, true)));
            by_code.push(((!p.lit).code(), Role::Pair(i as u32, false)));
        }
        for (i, &(_, _, g)) in po_edges.iter().enumerate() {
            by_code.push((g.code(), Role::PoEdge(i as u32)));
        }
        let mut executed = Vec::new();
        for &r in links.reads() {
            match guard[r.index()] {
                Some(g) => by_code.push((g.code(), Role::ReadGuard(r.index() as u32))),
                None => executed.push(r.index() as u32),
            }
        }
        let values = links.values_in_theory().then(|| {
            let (bits, roles) = values::ValueBits::new(eq, links);
            by_code.extend(roles);
            bits
        });
        by_code.sort_by_key(|&(c, _)| c);
        let max_code = by_code.last().map_or(0, |&(c, _)| c + 1);
        let mut role_start = vec![0u32; max_code + 2];
        for &(c, _) in &by_code {
            role_start[c + 1] += 1;
        }
        for i in 1..role_start.len() {
            role_start[i] += role_start[i - 1];
        }
        let roles: Vec<Role> = by_code.iter().map(|&(_, r)| r).collect();
        let mut observed: Vec<Var> = by_code
            .iter()
            .map(|&(c, _)| Var::from_dimacs((c / 2 + 1) as u32))
            .collect();
        observed.dedup();

        let active: Vec<bool> = (0..n)
            .map(|w| loc_of[w] != u32::MAX && guard[w].is_none())
            .collect();
        let stats = TheoryStats {
            observed: observed.len() as u64,
            coherence_vars: pairs.len() as u64,
            ..TheoryStats::default()
        };
        Ok(OrderTheory {
            layout,
            clock,
            pos,
            guard,
            loc_of,
            slot,
            loc_writes,
            rel,
            links: link_infos,
            pair_state: vec![0; pairs.len()],
            pairs,
            po_edges,
            read_loc,
            read_links,
            role_start,
            roles,
            observed,
            active,
            readers: vec![Vec::new(); n],
            linked: vec![u32::MAX; n],
            executed,
            dirty: true,
            implied_reason: Vec::new(),
            dag,
            undo: Vec::new(),
            trail: Vec::new(),
            undo_at: Vec::new(),
            trail_lim: Vec::new(),
            processed: 0,
            on_trail: Vec::new(),
            values,
            pending: Vec::new(),
            pending_mark: Vec::new(),
            root_conflict: None,
            path: Vec::new(),
            open_scratch: Vec::new(),
            blocked_scratch: Vec::new(),
            closing_scratch: Vec::new(),
            stats,
            recorded: record.then(Vec::new),
            last_order: None,
        })
    }

    /// The clock of event `e`: its own node, or its atomic block's.
    pub fn clock_of(&self, e: Event) -> u32 {
        self.clock[e.index()]
    }

    /// Per clock, the order edges into it from other clocks with their guards: its
    /// program-order predecessors (the previous item of its thread, the creation point of
    /// its thread, the end of a thread it joins), everything that precedes it directly.
    pub fn clock_in_edges(&self) -> Vec<Vec<(u32, Lit)>> {
        let mut into = vec![Vec::new(); self.layout.clock_events.len()];
        for &(a, b, g) in &self.layout.clock_edges {
            into[b as usize].push((a, g));
        }
        into
    }

    /// Adds edges `a → b` between clocks, each present while its literal is true (as the
    /// guarded program-order edges are). For orders the caller asks about beyond the
    /// program's (a data race: `engine::race`); a model then has them in its schedule. To be
    /// called before the theory is connected to a solver (the observed variables grow).
    pub fn add_conditional_edges(&mut self, edges: &[(u32, u32, Lit)]) {
        let mut by_code: Vec<(usize, Role)> = Vec::with_capacity(self.roles.len() + edges.len());
        for code in 0..self.role_start.len().saturating_sub(1) {
            let (s, e) = (
                self.role_start[code] as usize,
                self.role_start[code + 1] as usize,
            );
            by_code.extend(self.roles[s..e].iter().map(|&r| (code, r)));
        }
        for &(a, b, g) in edges {
            by_code.push((g.code(), Role::PoEdge(self.po_edges.len() as u32)));
            self.po_edges.push((a, b, g));
        }
        by_code.sort_by_key(|&(c, _)| c);
        let max_code = by_code.last().map_or(0, |&(c, _)| c + 1);
        let mut role_start = vec![0u32; max_code + 2];
        for &(c, _) in &by_code {
            role_start[c + 1] += 1;
        }
        for i in 1..role_start.len() {
            role_start[i] += role_start[i - 1];
        }
        self.role_start = role_start;
        self.roles = by_code.iter().map(|&(_, r)| r).collect();
        self.observed = by_code
            .iter()
            .map(|&(c, _)| Var::from_dimacs((c / 2 + 1) as u32))
            .collect();
        self.observed.dedup();
        self.stats.observed = self.observed.len() as u64;
    }

    /// Counters so far.
    pub fn stats(&self) -> TheoryStats {
        let mut s = self.stats;
        s.visited = self.dag.visited;
        s
    }

    /// The conflict clauses raised and the implications made so far, as clauses (when
    /// recording).
    pub fn recorded(&self) -> &[Vec<Lit>] {
        self.recorded.as_deref().unwrap_or(&[])
    }

    /// The executed events of the last accepted full assignment in schedule order, validated
    /// against `phi_value` (the model): `Err` if there is none or it is not a valid schedule.
    pub fn schedule(
        &self,
        eq: &Equation,
        phi_value: impl Fn(Lit) -> bool,
    ) -> Result<Vec<Event>, String> {
        let seq = self
            .last_order
            .as_ref()
            .ok_or("the theory accepted no full assignment")?;
        if self.values.is_some() {
            self.values_hold(eq, &phi_value)?;
        }
        self.layout.validated_order(eq, phi_value, seq)
    }

    /// Whether write `a` is known to come before write `b` (same location): by program order
    /// or by an assigned coherence literal.
    fn before(&self, a: u32, b: u32) -> bool {
        let li = self.loc_of[a as usize] as usize;
        let k = self.loc_writes[li].len();
        let r = self.rel[li][self.slot[a as usize] as usize * k + self.slot[b as usize] as usize];
        match r {
            PO_BEFORE => true,
            PO_AFTER => false,
            p => {
                let st = self.pair_state[p as usize];
                st != 0 && (st == 1) == (self.pairs[p as usize].first == a)
            }
        }
    }

    /// The coherence literal that orders `a` before `b` when it is assigned that way (`None`
    /// when program order does it).
    fn order_lit(&self, a: u32, b: u32) -> Option<Lit> {
        let li = self.loc_of[a as usize] as usize;
        let k = self.loc_writes[li].len();
        match self.rel[li][self.slot[a as usize] as usize * k + self.slot[b as usize] as usize] {
            PO_BEFORE | PO_AFTER => None,
            p => {
                let pi = self.pairs[p as usize];
                Some(if pi.first == a { pi.lit } else { !pi.lit })
            }
        }
    }

    /// Inserts the edge `a → b` between events with the literals that make it present.
    fn edge(&mut self, a: u32, b: u32, lits: &[Option<Lit>]) -> Result<(), Vec<Lit>> {
        let mut buf = [Lit::from_dimacs(1); 3];
        let mut n = 0;
        for l in lits.iter().flatten() {
            if !buf[..n].contains(l) {
                buf[n] = *l;
                n += 1;
            }
        }
        let reason = &buf[..n];
        let (ca, cb) = (self.clock[a as usize], self.clock[b as usize]);
        if ca == cb {
            return if self.pos[a as usize] < self.pos[b as usize] {
                Ok(())
            } else {
                Err(reason.iter().map(|&l| !l).collect())
            };
        }
        self.clock_edge(ca, cb, reason)
    }

    fn clock_edge(&mut self, ca: u32, cb: u32, reason: &[Lit]) -> Result<(), Vec<Lit>> {
        self.path.clear();
        match self.dag.insert(ca, cb, Reason::of(reason), &mut self.path) {
            Ok(()) => {
                self.undo.push(Undo::Edge);
                self.stats.edges += 1;
                self.dirty = true;
                Ok(())
            }
            Err(Cycle) => {
                let mut clause: Vec<Lit> = self.path.iter().chain(reason).map(|&l| !l).collect();
                clause.sort_unstable();
                clause.dedup();
                Err(clause)
            }
        }
    }

    /// Applies the roles of `lit`, which just became true.
    fn apply(&mut self, lit: Lit) -> Result<(), Vec<Lit>> {
        let code = lit.code();
        if code + 1 >= self.role_start.len() {
            return Ok(());
        }
        let (s, e) = (
            self.role_start[code] as usize,
            self.role_start[code + 1] as usize,
        );
        for i in s..e {
            match self.roles[i] {
                Role::Link(k) => self.link(k)?,
                Role::WriteGuard(w) => self.write_guard(w)?,
                Role::Pair(p, first_first) => self.pair(p, first_first)?,
                Role::PoEdge(k) => {
                    let (a, b, g) = self.po_edges[k as usize];
                    self.clock_edge(a, b, &[g])?;
                }
                Role::ReadGuard(r) => {
                    self.executed.push(r);
                    self.undo.push(Undo::Executed);
                    self.dirty = true;
                }
                Role::ReadBit(r, i) => self.read_bit(r, i)?,
                Role::WriteBit(w, i) => self.write_bit(w, i)?,
            }
        }
        Ok(())
    }

    fn link(&mut self, k: u32) -> Result<(), Vec<Lit>> {
        let LinkInfo { read, write, lit } = self.links[k as usize];
        self.readers[write as usize].push(k);
        self.undo.push(Undo::Reader(write));
        self.linked[read as usize] = k;
        self.undo.push(Undo::Linked(read));
        self.edge(write, read, &[Some(lit)])?;
        self.link_values(k)?;
        let li = self.loc_of[write as usize] as usize;
        for j in 0..self.loc_writes[li].len() {
            let w2 = self.loc_writes[li][j];
            if w2 != write && self.active[w2 as usize] && self.before(write, w2) {
                let x = self.order_lit(write, w2);
                let g2 = self.guard[w2 as usize];
                self.edge(read, w2, &[Some(lit), x, g2])?;
            }
        }
        Ok(())
    }

    fn write_guard(&mut self, w: u32) -> Result<(), Vec<Lit>> {
        self.active[w as usize] = true;
        self.undo.push(Undo::Active(w));
        let li = self.loc_of[w as usize] as usize;
        let gw = self.guard[w as usize];
        for j in 0..self.loc_writes[li].len() {
            let w2 = self.loc_writes[li][j];
            if w2 == w {
                continue;
            }
            // Coherence edge between two executed writes whose order is assigned.
            if self.active[w2 as usize] {
                if let Some(x) = self.order_lit(w, w2) {
                    let g2 = self.guard[w2 as usize];
                    if self.before(w, w2) {
                        self.edge(w, w2, &[Some(x), gw, g2])?;
                    } else if self.before(w2, w) {
                        self.edge(w2, w, &[Some(!x), gw, g2])?;
                    }
                }
            }
            // From-read edges into w: reads of an earlier write must come before w.
            if self.before(w2, w) && !self.readers[w2 as usize].is_empty() {
                let x = self.order_lit(w2, w);
                for i in 0..self.readers[w2 as usize].len() {
                    let l = self.links[self.readers[w2 as usize][i] as usize];
                    self.edge(l.read, w, &[Some(l.lit), x, gw])?;
                }
            }
        }
        Ok(())
    }

    fn pair(&mut self, p: u32, first_first: bool) -> Result<(), Vec<Lit>> {
        self.pair_state[p as usize] = if first_first { 1 } else { 2 };
        self.undo.push(Undo::Pair(p));
        let PairInfo { first, second, lit } = self.pairs[p as usize];
        let (a, b, x) = if first_first {
            (first, second, lit)
        } else {
            (second, first, !lit)
        };
        if self.active[a as usize] && self.active[b as usize] {
            let (ga, gb) = (self.guard[a as usize], self.guard[b as usize]);
            self.edge(a, b, &[Some(x), ga, gb])?;
        }
        if self.active[b as usize] {
            let gb = self.guard[b as usize];
            for i in 0..self.readers[a as usize].len() {
                let l = self.links[self.readers[a as usize][i] as usize];
                self.edge(l.read, b, &[Some(l.lit), Some(x), gb])?;
            }
        }
        Ok(())
    }

    fn assigned(&self, l: Lit) -> bool {
        self.on_trail.get(l.var().index()).is_some_and(|&p| p != 0)
    }

    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            match self.undo.pop().expect("an undo entry above the mark") {
                Undo::Edge => {
                    let n = self.dag.num_edges();
                    self.dag.truncate(n - 1);
                }
                Undo::Active(w) => self.active[w as usize] = false,
                Undo::Pair(p) => self.pair_state[p as usize] = 0,
                Undo::Reader(w) => {
                    self.readers[w as usize].pop();
                }
                Undo::Linked(r) => self.linked[r as usize] = u32::MAX,
                Undo::Executed => {
                    self.executed.pop();
                }
            }
        }
    }
}

impl Propagator for OrderTheory {
    fn observed(&self) -> Vec<Var> {
        self.observed.clone()
    }

    fn notify(&mut self, lits: &[Lit]) {
        for &l in lits {
            let v = l.var().index();
            if v >= self.on_trail.len() {
                self.on_trail.resize(v + 1, 0);
            }
            if self.on_trail[v] == 0 {
                self.on_trail[v] = if l.is_positive() { 1 } else { 2 };
                self.trail.push(l);
            }
        }
        self.undo_at.resize(self.trail.len(), 0);
    }

    fn new_level(&mut self) {
        self.trail_lim.push(self.trail.len());
    }

    fn backtrack(&mut self, level: usize) {
        if level >= self.trail_lim.len() {
            return;
        }
        let keep = self.trail_lim[level];
        self.trail_lim.truncate(level);
        if self.processed > keep {
            self.undo_to(self.undo_at[keep]);
            self.processed = keep;
        }
        for l in &self.trail[keep..] {
            self.on_trail[l.var().index()] = 0;
        }
        self.trail.truncate(keep);
        self.undo_at.truncate(keep);
        self.take_pending();
        self.dirty = true;
    }

    fn propagate(&mut self) -> Propagation {
        if let Some(c) = &self.root_conflict {
            return Propagation::Conflict(c.clone());
        }
        while self.processed < self.trail.len() {
            let i = self.processed;
            let mark = self.undo.len();
            self.undo_at[i] = mark;
            if let Err(clause) = self.apply(self.trail[i]) {
                // Leave nothing half applied: the literal is processed again if it survives.
                // The value implications queued are dropped (see `values`: none is needed).
                self.take_pending();
                self.undo_to(mark);
                self.stats.conflicts += 1;
                self.stats.conflict_literals += clause.len() as u64;
                if let Some(r) = &mut self.recorded {
                    r.push(clause.clone());
                }
                if self.trail_lim.is_empty() {
                    self.root_conflict = Some(clause.clone());
                }
                return Propagation::Conflict(clause);
            }
            self.processed += 1;
        }
        if !self.pending.is_empty() {
            let implied = self.take_pending();
            self.stats.propagations += implied.len() as u64;
            return Propagation::Imply(implied);
        }
        if self.dirty {
            self.dirty = false;
            let implied = self.implied_links();
            if !implied.is_empty() {
                self.stats.propagations += implied.len() as u64;
                return Propagation::Imply(implied);
            }
        }
        Propagation::Done
    }

    fn reason(&mut self, lit: Lit) -> Vec<Lit> {
        self.implied_reason[lit.var().index()].clone()
    }

    fn check_model(&mut self, _value: &dyn Fn(Lit) -> bool) -> Option<Vec<Lit>> {
        debug_assert_eq!(self.processed, self.trail.len());
        self.stats.models += 1;
        self.last_order = Some(self.dag.order());
        None
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
