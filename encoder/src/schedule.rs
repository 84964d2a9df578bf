//! ξ: the exact scheduling constraint — the executed events admit one total order that
//! respects program order and makes every read see the write it is linked to.
//!
//! Every event gets a bit-vector clock; the events of one atomic block (and the create/join
//! points inside it) share one clock, which makes the block indivisible, and inside a block
//! program order decides. With `before(x, y)` meaning "x is scheduled before y":
//! * program order: `clk(a) < clk(b)` along the program-order graph (create/join edges under
//!   their guard);
//! * each link `s(r,w)`: `s ⇒ before(w, r)`;
//! * each link `s(r,w)` and other write w' of the location:
//!   `s ∧ guard(w') ⇒ before(w', w) ∨ before(r, w')`.
//!
//! Orders implied by unconditional program order are decided statically, which removes most of
//! the cubic part. Clocks may tie between unrelated events; every constraint is strict, so any
//! tie-break of a model's clocks is a valid order. Guards, links and create/join guards occur
//! only negatively, so for a full valuation (a φ model) assuming its true literals and leaving
//! the rest free is exact. (With a partial valuation, such as a refinement core, a variable
//! whose two polarities both occur is not free to make both false — which is right for φ.)
//!
//! [`LiteralMode::Separate`] builds ξ on its own solver, with each φ literal it mentions mapped
//! to a fresh variable: [`ScheduleEncoding::check`] then decides, under the guards and links of
//! a φ model as assumptions, whether a total order exists, and returns it or a failed core
//! (in φ literals). [`LiteralMode::Shared`] adds ξ to the φ solver itself (monolithic BMC).

use crate::bitvec::BitVec;
use crate::equation::{AtomicBlock, Equation, EquationError, Event, ThreadItem};
use crate::gates::{Counters, Encoder};
use crate::links::LinkTable;
use crate::program_order::{topological_order, ProgramOrder};
use crate::search::{search, validate, Problem, Search};
use cranelift_entity::{EntityRef, SecondaryMap};
use hashbrown::{HashMap, HashSet};
use solver_glue::{Lit, SatSolver, SolveResult};

/// Placement tests the direct search may make before the SAT check takes over.
const SEARCH_BUDGET: u64 = 20_000_000;

/// Where ξ's guard and link literals live.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum LiteralMode {
    /// ξ is added to the solver that holds φ; literals are used as they are.
    Shared,
    /// ξ is built on a separate solver; φ literals are mapped to fresh variables.
    Separate,
}

/// Outcome of the exact order check.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ExactCheck {
    /// A total order of the executed events.
    Feasible(Vec<Event>),
    /// No order exists; the φ literals (all true in the checked model) that already make it
    /// impossible. Their conjunction's negation is a valid refinement clause.
    Infeasible(Vec<Lit>),
    /// The solver's budget ran out.
    Interrupted,
}

/// ξ as built on one encoder.
#[derive(Clone, Debug)]
pub struct ScheduleEncoding {
    mode: LiteralMode,
    /// Clock index of each event.
    pub(crate) clock_of: SecondaryMap<Event, u32>,
    /// Position of each event in its thread's items (orders events sharing a clock).
    pub(crate) position: SecondaryMap<Event, u32>,
    clocks: Vec<BitVec>,
    /// φ variable → ξ variable (separate mode).
    var_map: HashMap<u32, Lit>,
    /// φ literals that occur in ξ (guards of writes, links, create/join guards), in first-use
    /// order.
    used: Vec<Lit>,
    size: Counters,
    /// Order edges between distinct clocks, with their φ guards (deduplicated).
    pub(crate) clock_edges: Vec<(u32, u32, Lit)>,
    /// Events of each clock, in program order.
    pub(crate) clock_events: Vec<Vec<Event>>,
    links: LinkTable,
}

impl ScheduleEncoding {
    /// Builds ξ for `eq` and `links` on `enc`. `po` must be [`ProgramOrder::unconditional`]
    /// of `eq`. In [`LiteralMode::Shared`] `enc` is the φ encoder.
    pub fn encode(
        eq: &Equation,
        po: &ProgramOrder,
        links: &LinkTable,
        enc: &mut Encoder,
        mode: LiteralMode,
    ) -> Result<ScheduleEncoding, EquationError> {
        if mode == LiteralMode::Shared {
            assert_eq!(enc.tru(), eq.true_lit, "shared ξ goes on the φ encoder");
        }
        let mut this = ScheduleEncoding::layout(eq, po, links, mode)?;
        this.add_constraints(eq, po, enc);
        Ok(this)
    }

    /// Clock groups, order edges and links, without clauses.
    pub(crate) fn layout(
        eq: &Equation,
        po: &ProgramOrder,
        links: &LinkTable,
        mode: LiteralMode,
    ) -> Result<ScheduleEncoding, EquationError> {
        let graph = po.graph();
        let all_edges: Vec<(usize, usize)> = graph.edges.iter().map(|&(a, b, _)| (a, b)).collect();
        if topological_order(graph.num_nodes, &all_edges).is_none() {
            return Err(EquationError::ProgramOrderCycle);
        }

        // Clock per graph node: the items of one atomic block share one.
        eq.validate()?;
        let mut block_clock: SecondaryMap<AtomicBlock, Option<u32>> = SecondaryMap::new();
        let mut clock_of_node: Vec<Option<u32>> = vec![None; graph.num_nodes];
        let mut position: SecondaryMap<Event, u32> = SecondaryMap::new();
        let mut num_clocks = 0u32;
        for (t, td) in eq.threads.iter() {
            for (i, &item) in td.items.iter().enumerate() {
                if let ThreadItem::Event(e) = item {
                    position[e] = i as u32;
                }
                if let Some(b) = eq.item_atomic(item) {
                    let c = *block_clock[b].get_or_insert_with(|| {
                        num_clocks += 1;
                        num_clocks - 1
                    });
                    clock_of_node[graph.item_nodes[t][i]] = Some(c);
                }
            }
        }
        let clock_of_node: Vec<u32> = clock_of_node
            .into_iter()
            .map(|c| {
                c.unwrap_or_else(|| {
                    num_clocks += 1;
                    num_clocks - 1
                })
            })
            .collect();
        let mut clock_of: SecondaryMap<Event, u32> = SecondaryMap::new();
        for e in eq.events.keys() {
            clock_of[e] = clock_of_node[e.index()];
        }
        let clock_edges: Vec<(usize, usize, Lit)> = graph
            .edges
            .iter()
            .map(|&(a, b, g)| (clock_of_node[a] as usize, clock_of_node[b] as usize, g))
            .filter(|&(a, b, _)| a != b)
            .collect();
        let mut clock_edges = clock_edges;
        clock_edges.sort_by_key(|&(a, b, g)| (a, b, g.to_dimacs()));
        clock_edges.dedup();
        let plain: Vec<(usize, usize)> = clock_edges.iter().map(|&(a, b, _)| (a, b)).collect();
        if topological_order(num_clocks as usize, &plain).is_none() {
            return Err(EquationError::AtomicBlockCycle);
        }

        let mut clock_events: Vec<Vec<Event>> = vec![Vec::new(); num_clocks as usize];
        for td in eq.threads.values() {
            for e in td.events() {
                clock_events[clock_of[e] as usize].push(e);
            }
        }
        Ok(ScheduleEncoding {
            mode,
            clock_of,
            position,
            clocks: Vec::new(),
            var_map: HashMap::new(),
            used: Vec::new(),
            size: Counters::default(),
            clock_edges: clock_edges
                .iter()
                .map(|&(a, b, g)| (a as u32, b as u32, g))
                .collect(),
            clock_events,
            links: links.clone(),
        })
    }

    /// Creates the clocks and adds ξ's clauses to `enc`.
    fn add_constraints(&mut self, eq: &Equation, po: &ProgramOrder, enc: &mut Encoder) {
        let before_size = enc.counters();
        let num_clocks = self.clock_events.len() as u32;
        let width = (u32::BITS - num_clocks.saturating_sub(1).leading_zeros()).max(1);
        self.clocks = (0..num_clocks).map(|_| enc.bv_fresh(width)).collect();
        let this = self;
        let mut used_set: HashSet<Lit> = HashSet::new();
        let mut builder = Builder {
            eq,
            po,
            lt_cache: HashMap::new(),
        };
        let clock_edges = this.clock_edges.clone();
        for &(a, b, g) in &clock_edges {
            let lt = builder.lt(this, enc, a as usize, b as usize);
            let g = this.map_lit(eq, enc, g, &mut used_set);
            enc.add_clause(&[!g, lt]);
        }

        let links = this.links.clone();
        let writes = eq.writes_by_location();
        for &r in links.reads() {
            let loc = eq.events[r].location;
            for link in links.candidates(r) {
                let w = link.write;
                let s = this.map_lit(eq, enc, link.lit, &mut used_set);
                let w_before_r = builder.before(this, enc, w, r);
                enc.add_clause(&[!s, w_before_r]);
                for &w2 in &writes[loc] {
                    let g2 = eq.events[w2].guard;
                    if w2 == w || g2 == !eq.true_lit || po.po_before(w2, w) || po.po_before(r, w2) {
                        continue;
                    }
                    let a = builder.before(this, enc, w2, w);
                    let b = builder.before(this, enc, r, w2);
                    let g2 = this.map_lit(eq, enc, g2, &mut used_set);
                    enc.add_clause(&[!s, !g2, a, b]);
                }
            }
        }
        this.size = enc.counters() - before_size;
    }

    /// The image of φ literal `l` in this encoding's solver, creating it on first use.
    fn map_lit(
        &mut self,
        eq: &Equation,
        enc: &mut Encoder,
        l: Lit,
        used: &mut HashSet<Lit>,
    ) -> Lit {
        if l == eq.true_lit {
            return enc.tru();
        }
        if l == !eq.true_lit {
            return enc.fls();
        }
        if used.insert(l) {
            self.used.push(l);
        }
        match self.mode {
            LiteralMode::Shared => l,
            LiteralMode::Separate => {
                let v = *self
                    .var_map
                    .entry(l.var().to_dimacs())
                    .or_insert_with(|| enc.new_lit());
                if l.is_positive() {
                    v
                } else {
                    !v
                }
            }
        }
    }

    /// Variables and clauses ξ added.
    pub fn size(&self) -> Counters {
        self.size
    }

    /// The literal "`x` is scheduled before `y`" over this encoding's clocks on `enc` (the
    /// encoder it was built on), folded where program order or an atomic block decides it.
    pub fn order_literal(
        &self,
        eq: &Equation,
        po: &ProgramOrder,
        enc: &mut Encoder,
        x: Event,
        y: Event,
    ) -> Lit {
        let mut builder = Builder {
            eq,
            po,
            lt_cache: HashMap::new(),
        };
        builder.before(self, enc, x, y)
    }

    /// Number of distinct clocks (events and points, atomic blocks collapsed).
    pub fn num_clocks(&self) -> usize {
        self.clock_events.len()
    }

    /// The φ literals ξ depends on; a model's true ones are the exact check's assumptions.
    pub fn used_literals(&self) -> &[Lit] {
        &self.used
    }

    /// Decides (separate mode) whether the φ valuation `phi_value` — a model of φ ∧ ζ, or
    /// at least a valuation in which every true link's read and write are executed — has a
    /// total order. A direct search is tried first (see `search.rs`); if it finds nothing
    /// within its budget the true used literals are assumed on `enc`'s solver, so that an
    /// infeasible answer comes with a core. Every returned order has been validated.
    ///
    /// On large programs ξ over all links is big; building it from
    /// [`LinkTable::restrict`]ed links (those true in the model) on a fresh solver gives the
    /// same answer and a smaller formula.
    pub fn check(
        &self,
        eq: &Equation,
        enc: &mut Encoder,
        phi_value: impl Fn(Lit) -> bool,
    ) -> ExactCheck {
        self.check_with_search_budget(eq, enc, phi_value, SEARCH_BUDGET)
    }

    /// [`ScheduleEncoding::check`] with the direct search limited to `budget` placement tests
    /// (0: SAT only).
    pub fn check_with_search_budget(
        &self,
        eq: &Equation,
        enc: &mut Encoder,
        phi_value: impl Fn(Lit) -> bool,
        budget: u64,
    ) -> ExactCheck {
        assert_eq!(
            self.mode,
            LiteralMode::Separate,
            "check needs a separately built schedule encoding"
        );
        let truth = |l: Lit| l == eq.true_lit || (l != !eq.true_lit && phi_value(l));
        let problem = self.problem(eq, &truth);
        let found = if budget > 0 {
            search(&problem, budget)
        } else {
            Search::OutOfBudget
        };
        if let Search::Found(seq) = found {
            if let Err(msg) = validate(&problem, &seq) {
                panic!("schedule search returned an invalid order: {msg}");
            }
            return ExactCheck::Feasible(self.events_of(&problem, &seq));
        }
        let mut back: HashMap<Lit, Lit> = HashMap::new();
        let mut assumptions = Vec::new();
        // Constant guards were folded at build time and are not in `used`.
        for &l in &self.used {
            if phi_value(l) {
                let x = self.var_map[&l.var().to_dimacs()];
                let x = if l.is_positive() { x } else { !x };
                assumptions.push(x);
                back.insert(x, l);
            }
        }
        match enc.solver().solve(&assumptions) {
            SolveResult::Sat => {
                let seq = self.clock_sequence(enc);
                if let Err(msg) = validate(&problem, &seq) {
                    panic!("the schedule encoding's model is not a valid order: {msg}");
                }
                ExactCheck::Feasible(self.events_of(&problem, &seq))
            }
            SolveResult::Unsat => {
                let mut core: Vec<Lit> = enc
                    .solver_ref()
                    .failed_core()
                    .iter()
                    .filter_map(|x| back.get(x).copied())
                    .collect();
                core.sort();
                core.dedup();
                ExactCheck::Infeasible(core)
            }
            SolveResult::Interrupted => ExactCheck::Interrupted,
        }
    }

    /// Solves ξ (separate mode) with the φ literals `assumed` as assumptions and every other
    /// literal free: `Unsat` means `¬(∧ assumed)` holds in every feasible execution. Literals
    /// ξ does not mention are ignored.
    pub fn solve_under(&self, enc: &mut Encoder, assumed: &[Lit]) -> SolveResult {
        assert_eq!(self.mode, LiteralMode::Separate);
        let assumptions: Vec<Lit> = assumed.iter().filter_map(|&l| self.image(l)).collect();
        enc.solver().solve(&assumptions)
    }

    /// The ξ literal of a φ literal, if ξ mentions its variable (separate mode).
    fn image(&self, l: Lit) -> Option<Lit> {
        let x = *self.var_map.get(&l.var().to_dimacs())?;
        Some(if l.is_positive() { x } else { !x })
    }

    /// Shrinks an infeasibility core (φ literals, as returned by [`ScheduleEncoding::check`])
    /// by deletion: drop one literal, re-solve under the rest, keep the drop if still
    /// unsatisfiable (taking the solver's new core). The result is subset-minimal unless a
    /// solve is interrupted, in which case the smallest core found so far is returned.
    pub fn minimize_core(&self, enc: &mut Encoder, core: &[Lit]) -> Vec<Lit> {
        assert_eq!(self.mode, LiteralMode::Separate);
        let mut core: Vec<Lit> = core
            .iter()
            .copied()
            .filter(|&l| self.image(l).is_some())
            .collect();
        let mut i = 0;
        while i < core.len() {
            let trial: Vec<Lit> = core
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, &l)| l)
                .collect();
            match self.solve_under(enc, &trial) {
                SolveResult::Unsat => {
                    let failed: HashSet<Lit> = enc.solver_ref().failed_core().into_iter().collect();
                    core = trial
                        .into_iter()
                        .filter(|&l| self.image(l).is_some_and(|x| failed.contains(&x)))
                        .collect();
                    // The literals before i were needed in a larger core, so they are needed in
                    // this one and keep their places: continue at i.
                    i = i.min(core.len());
                }
                SolveResult::Sat => i += 1,
                SolveResult::Interrupted => break,
            }
        }
        core
    }

    /// The direct search alone (no SAT, any mode): a validated order of the executed events
    /// of the full valuation `phi_value`, or `None` if there is none or the search gave up
    /// after `budget` placement tests.
    pub fn search_order(
        &self,
        eq: &Equation,
        phi_value: impl Fn(Lit) -> bool,
        budget: u64,
    ) -> Option<Vec<Event>> {
        let truth = |l: Lit| l == eq.true_lit || (l != !eq.true_lit && phi_value(l));
        let problem = self.problem(eq, &truth);
        match search(&problem, budget) {
            Search::Found(seq) => {
                if let Err(msg) = validate(&problem, &seq) {
                    panic!("schedule search returned an invalid order: {msg}");
                }
                Some(self.events_of(&problem, &seq))
            }
            Search::NoSchedule | Search::OutOfBudget => None,
        }
    }

    /// The executed events in the order of the clock sequence `seq` (every clock once), if that
    /// order is a valid schedule of the full valuation `phi_value`: program order, atomic
    /// blocks, and every read seeing the write it is linked to. `Err` says what is violated.
    pub fn validated_order(
        &self,
        eq: &Equation,
        phi_value: impl Fn(Lit) -> bool,
        seq: &[u32],
    ) -> Result<Vec<Event>, String> {
        let truth = |l: Lit| l == eq.true_lit || (l != !eq.true_lit && phi_value(l));
        let problem = self.problem(eq, &truth);
        validate(&problem, seq)?;
        Ok(self.events_of(&problem, seq))
    }

    /// The scheduling problem of one execution: executed events, active edges, read-from.
    fn problem<'a>(&self, eq: &'a Equation, truth: &impl Fn(Lit) -> bool) -> Problem<'a> {
        let mut succ: Vec<Vec<u32>> = vec![Vec::new(); self.clock_events.len()];
        for &(a, b, g) in &self.clock_edges {
            if truth(g) && !succ[a as usize].contains(&b) {
                succ[a as usize].push(b);
            }
        }
        let events: Vec<Vec<Event>> = self
            .clock_events
            .iter()
            .map(|evs| {
                evs.iter()
                    .copied()
                    .filter(|&e| truth(eq.events[e].guard))
                    .collect()
            })
            .collect();
        let mut rf: SecondaryMap<Event, Option<Event>> = SecondaryMap::new();
        for &r in self.links.reads() {
            if truth(eq.events[r].guard) {
                rf[r] = self.links.read_from(r, truth);
            }
        }
        Problem {
            eq,
            succ,
            events,
            rf,
        }
    }

    /// Clocks sorted by their values in `enc`'s last model (ties by index).
    fn clock_sequence(&self, enc: &Encoder) -> Vec<u32> {
        let values: Vec<u64> = self.clocks.iter().map(|c| enc.bv_value_u64(c)).collect();
        let mut seq: Vec<u32> = (0..self.clocks.len() as u32).collect();
        seq.sort_by_key(|&c| (values[c as usize], c));
        seq
    }

    fn events_of(&self, problem: &Problem, seq: &[u32]) -> Vec<Event> {
        seq.iter()
            .flat_map(|&c| problem.events[c as usize].iter().copied())
            .collect()
    }

    /// Shared mode, after the φ ∧ ζ ∧ ξ solver answered Sat: the executed events in the
    /// order of the model's clocks (ties broken by clock index, then program order inside a
    /// block), validated against the model's read-from map.
    pub fn order(&self, eq: &Equation, enc: &Encoder) -> Vec<Event> {
        assert_eq!(
            self.mode,
            LiteralMode::Shared,
            "order reads a shared encoding's model"
        );
        let truth = |l: Lit| enc.value(l);
        let problem = self.problem(eq, &truth);
        let seq = self.clock_sequence(enc);
        if let Err(msg) = validate(&problem, &seq) {
            panic!("the schedule encoding's model is not a valid order: {msg}");
        }
        self.events_of(&problem, &seq)
    }
}

/// ξ for `eq` and `links` on `enc`: the same as [`ScheduleEncoding::encode`].
pub fn encode_schedule(
    eq: &Equation,
    po: &ProgramOrder,
    links: &LinkTable,
    enc: &mut Encoder,
    mode: LiteralMode,
) -> Result<ScheduleEncoding, EquationError> {
    ScheduleEncoding::encode(eq, po, links, enc, mode)
}

/// The exact check in one call, as the CEGAR loop wants it: for the full valuation
/// `phi_value` (a model of φ ∧ ζ), a validated total order of the executed events, or a
/// subset-minimal core of true φ literals that admits none. Tries the direct search first; only if it finds no
/// order within its budget is ξ built — over the links true in the model only — on `solver`
/// (a fresh solver, used for this one check; set its budget beforehand to bound the time —
/// then [`ExactCheck::Interrupted`] may come back) and solved under assumptions.
pub fn exact_check(
    eq: &Equation,
    po: &ProgramOrder,
    links: &LinkTable,
    phi_value: impl Fn(Lit) -> bool,
    solver: &mut dyn SatSolver,
) -> Result<ExactCheck, EquationError> {
    let truth = |l: Lit| l == eq.true_lit || (l != !eq.true_lit && phi_value(l));
    let restricted = links.restrict(truth);
    let mut xi = ScheduleEncoding::layout(eq, po, &restricted, LiteralMode::Separate)?;
    if let Some(order) = xi.search_order(eq, truth, SEARCH_BUDGET) {
        return Ok(ExactCheck::Feasible(order));
    }
    let mut enc = Encoder::new(solver);
    xi.add_constraints(eq, po, &mut enc);
    Ok(match xi.check_with_search_budget(eq, &mut enc, truth, 0) {
        ExactCheck::Infeasible(core) => ExactCheck::Infeasible(xi.minimize_core(&mut enc, &core)),
        other => other,
    })
}

/// Order literals between events, with the static cases folded and clock comparisons shared.
struct Builder<'a> {
    eq: &'a Equation,
    po: &'a ProgramOrder,
    lt_cache: HashMap<(usize, usize), Lit>,
}

impl Builder<'_> {
    fn lt(&mut self, enc_state: &ScheduleEncoding, enc: &mut Encoder, a: usize, b: usize) -> Lit {
        if let Some(&l) = self.lt_cache.get(&(a, b)) {
            return l;
        }
        let l = enc.bv_ult(&enc_state.clocks[a], &enc_state.clocks[b]);
        self.lt_cache.insert((a, b), l);
        l
    }

    /// "x is scheduled before y".
    fn before(&mut self, st: &ScheduleEncoding, enc: &mut Encoder, x: Event, y: Event) -> Lit {
        let (cx, cy) = (st.clock_of[x], st.clock_of[y]);
        if cx == cy {
            debug_assert_eq!(self.eq.events[x].thread, self.eq.events[y].thread);
            return enc.constant(st.position[x] < st.position[y]);
        }
        if self.po.po_before(x, y) {
            return enc.tru();
        }
        if self.po.po_before(y, x) {
            return enc.fls();
        }
        self.lt(st, enc, cx as usize, cy as usize)
    }
}
