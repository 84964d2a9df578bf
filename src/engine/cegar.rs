//! The Yogar engine: the abstraction φ0 = φ_init ∧ ρ ∧ ζ ∧ φ_err without the scheduling
//! constraint, refined by the kernel reasons of event-order-graph cycles.
//!
//! Each model of the abstraction fixes which events execute (guards) and who reads from whom
//! (links). Its event order graph is closed under the paper's rules; every cycle yields short
//! clauses ¬(l1 ∧ … ∧ lk) over guard and link literals that hold in every feasible execution.
//! When the closure finds no cycle the order is decided exactly (a schedule search, then SAT
//! with the model's literals as assumptions): a schedule makes the counterexample real, an
//! unsatisfiable core is one more refinement clause. So every FALSE has passed the exact check,
//! and TRUE means the refined abstraction has no model, which no feasible execution removes.

use std::time::{Duration, Instant};

use cranelift_entity::{EntityRef, SecondaryMap};
use encoder::{
    encode_links, exact_check, Encoder, Equation, ExactCheck, LinkTable, LiteralMode, ProgramOrder,
    ScheduleEncoding, ThreadItem,
};
use solver_glue::{make_solver, Lit, SolveResult};

use super::eog::{self, Access, ClosureLimits, ClosureResult, EogBuilder};
use super::{
    blocking_check, check_reason, solve, Checks, Deadline, EngineOptions, EngineStats, Outcome,
    Trace, UnknownReason, Verdict,
};
use crate::ir::Program;
use crate::status::Phase;
use crate::symex::SymexOutput;

/// The sharing pass, symbolic execution, then [`decide`].
pub fn verify(prog: &Program, opts: &EngineOptions) -> Outcome {
    super::Engine::Cegar.verify(prog, opts)
}

/// Decides the bounded problem of one equation.
pub fn decide(prog: &Program, out: &SymexOutput, opts: &EngineOptions) -> Outcome {
    super::with_equation(out, opts, |enc, deadline, stats| {
        let mut recorded = Vec::new();
        let verdict = refine(prog, opts, out, enc, deadline, stats, &mut recorded);
        if opts.check_refinements {
            if let Err(why) = check_clauses(opts, out, &recorded) {
                return Verdict::Unknown(UnknownReason::Internal(why));
            }
        }
        verdict
    })
}

/// Checks that every refinement clause holds in every feasible execution: the exact encoding
/// φ ∧ ζ ∧ ξ, built on a second solver from the same equation (its formula replayed, then ζ
/// encoded first as on the engine's solver, so literals are the same), has no model in which
/// all the literals of a reason hold.
fn check_clauses(
    opts: &EngineOptions,
    out: &SymexOutput,
    clauses: &[Vec<Lit>],
) -> Result<(), String> {
    let mut solver = make_solver(&opts.solver).map_err(|e| e.to_string())?;
    let mut enc = out.formula.encoder(&mut *solver);
    let eq = &out.equation;
    let po = ProgramOrder::unconditional(eq).map_err(|e| e.to_string())?;
    let links = encode_links(eq, &po, &mut enc).map_err(|e| e.to_string())?;
    ScheduleEncoding::encode(eq, &po, &links, &mut enc, LiteralMode::Shared)
        .map_err(|e| e.to_string())?;
    for c in clauses {
        if enc.solver().solve(c) != SolveResult::Unsat {
            return Err(format!(
                "refinement clause {c:?} is not implied by the exact encoding"
            ));
        }
    }
    Ok(())
}

/// Kernel reasons kept per derived order. Measured on three pthread-wmm tasks (mix000,
/// mix010, mix020; ~260 events, `--unwind 2`): K = 8 took 1.29/0.99/1.37 s in 23/16/30
/// rounds, K = 2 0.27/0.23/0.25 s in 25/27/26 rounds, K = 1 more rounds again; the test
/// programs ran in 20 s instead of 26 s. Fewer reasons per order is sound, only weaker.
const REASONS_PER_ORDER: usize = 2;
/// Refinement clauses taken from one counterexample (shortest first).
const MAX_REASONS_PER_ROUND: usize = 512;

/// What one refinement loop ends with.
enum Ending<T> {
    /// A model that passed the exact check, turned into `T` while the model was intact.
    Real(T),
    /// The refined abstraction has no model under the assumptions.
    Exhausted,
    /// Out of time, or an exact check interrupted.
    Interrupted,
    /// Something that must not happen; reported as UNKNOWN rather than guessed.
    Internal(String),
}

fn refine(
    prog: &Program,
    opts: &EngineOptions,
    out: &SymexOutput,
    enc: &mut Encoder,
    deadline: &Deadline,
    stats: &mut EngineStats,
    recorded: &mut Vec<Vec<Lit>>,
) -> Verdict {
    let eq = &out.equation;
    let (po, links) = match super::order_and_links(out, enc, stats, encoder::ValueEquality::Clauses)
    {
        Ok(x) => x,
        Err(why) => return Verdict::Unknown(why),
    };
    let checks = Checks::new(out, enc);
    stats.phi0_clauses = enc.counters().clauses;
    if opts.compare_size {
        stats.monolithic_xi_clauses = xi_size(eq, &po, &links);
    }
    let mut ctx = Loop {
        opts,
        eq,
        po: &po,
        links: &links,
        stats,
        deadline,
        recorded: opts.check_refinements.then(Vec::new),
    };

    let first = ctx.run(enc, &[checks.err, !checks.unsupported], |enc, order| {
        let failed = out
            .property_checks()
            .find(|c| enc.value(c.lit))
            .expect("a property literal holds in the model")
            .clone();
        Trace::build(prog, out, enc, order, (failed.loc, failed.thread))
    });
    match first {
        Ending::Real(trace) => {
            *recorded = ctx.recorded.take().unwrap_or_default();
            return Verdict::False { trace };
        }
        Ending::Interrupted => return Verdict::Unknown(UnknownReason::Timeout),
        Ending::Internal(why) => return Verdict::Unknown(UnknownReason::Internal(why)),
        Ending::Exhausted => {}
    }
    let second = ctx.run(enc, &[checks.other], |enc, _| {
        let c = blocking_check(out, |l| enc.value(l));
        check_reason(prog, &c.kind, c.loc)
    });
    *recorded = ctx.recorded.take().unwrap_or_default();
    match second {
        Ending::Real(reason) => Verdict::Unknown(reason),
        Ending::Interrupted => Verdict::Unknown(UnknownReason::Timeout),
        Ending::Internal(why) => Verdict::Unknown(UnknownReason::Internal(why)),
        Ending::Exhausted => Verdict::True {
            complete: opts.symex.unwinding_assertions,
        },
    }
}

/// Clauses the monolithic engine's ξ would have (built on a solver that keeps nothing).
pub(crate) fn xi_size(eq: &Equation, po: &ProgramOrder, links: &LinkTable) -> Option<u64> {
    let mut null = super::null_solver::NullSolver::default();
    let mut xi_enc = Encoder::new(&mut null);
    ScheduleEncoding::encode(eq, po, links, &mut xi_enc, LiteralMode::Separate)
        .ok()
        .map(|xi| xi.size().clauses)
}

struct Loop<'a> {
    opts: &'a EngineOptions,
    eq: &'a Equation,
    po: &'a ProgramOrder,
    links: &'a LinkTable,
    stats: &'a mut EngineStats,
    deadline: &'a Deadline,
    /// Every refinement clause, when they are to be checked afterwards.
    recorded: Option<Vec<Vec<Lit>>>,
}

impl Loop<'_> {
    /// Solve, refine, repeat, until a model passes the exact check or none is left.
    fn run<T>(
        &mut self,
        enc: &mut Encoder,
        assume: &[Lit],
        mut real: impl FnMut(&Encoder, &[encoder::Event]) -> T,
    ) -> Ending<T> {
        loop {
            match solve(enc, assume, self.deadline) {
                SolveResult::Unsat => return Ending::Exhausted,
                SolveResult::Interrupted => return Ending::Interrupted,
                SolveResult::Sat => {}
            }
            // Everything the model says is read now: adding a clause discards it.
            self.opts.phase(Phase::Refining);
            let graph_start = Instant::now();
            let mut g = self.eog_of_model(enc);
            let limits = ClosureLimits {
                reasons_per_order: REASONS_PER_ORDER,
                max_result_reasons: MAX_REASONS_PER_ROUND,
                ..ClosureLimits::default()
            };
            let closed = g.close(limits);
            self.stats.graph_time += graph_start.elapsed();
            let clauses: Vec<Vec<Lit>> = match closed {
                ClosureResult::Infeasible { reasons } => {
                    self.stats.graph_refinements += 1;
                    if self.opts.keep_eog {
                        self.stats.last_refuted_eog = Some(g.to_dot());
                    }
                    reasons
                }
                ClosureResult::NotSure => {
                    self.stats.exact_checks += 1;
                    let exact_start = Instant::now();
                    let checked = self.exact(enc);
                    self.stats.exact_time += exact_start.elapsed();
                    match checked {
                        Ok(ExactCheck::Feasible(order)) => return Ending::Real(real(enc, &order)),
                        Ok(ExactCheck::Infeasible(core)) => {
                            self.stats.exact_refinements += 1;
                            vec![core]
                        }
                        Ok(ExactCheck::Interrupted) => return Ending::Interrupted,
                        Err(e) => return Ending::Internal(e),
                    }
                }
            };
            // Each clause must exclude the current model, or the loop would not progress.
            for c in &clauses {
                if c.is_empty() || !c.iter().all(|&l| enc.value(l)) {
                    let what: Vec<String> = c.iter().map(|&l| self.describe(l)).collect();
                    return Ending::Internal(format!(
                        "a refinement reason that does not hold in its model: {}",
                        what.join(" & ")
                    ));
                }
            }
            if let Some(r) = &mut self.recorded {
                r.extend(clauses.iter().cloned());
            }
            self.stats.refinements += 1;
            if let Some(s) = &self.opts.status {
                s.set_refinements(self.stats.refinements);
            }
            for c in clauses {
                self.stats.refinement_clauses += 1;
                self.stats.refinement_literals += c.len() as u64;
                let negated: Vec<Lit> = c.iter().map(|&l| !l).collect();
                enc.add_clause(&negated);
            }
        }
    }

    /// A literal of a refinement clause, for messages: the link or guard it is.
    fn describe(&self, l: Lit) -> String {
        let eq = self.eq;
        let ev = |e: encoder::Event| {
            let d = &eq.events[e];
            format!(
                "{}{}:{}@{}",
                if d.is_write() { "W" } else { "R" },
                e.index(),
                eq.locations[d.location].name,
                d.thread.index()
            )
        };
        for &r in self.links.reads() {
            for link in self.links.candidates(r) {
                if link.lit == l {
                    return format!("{}<-{}", ev(r), ev(link.write));
                }
            }
        }
        let guarded: Vec<String> = eq
            .events
            .iter()
            .filter(|(_, d)| d.guard == l)
            .map(|(e, _)| ev(e))
            .take(3)
            .collect();
        format!("guard[{}]({})", l, guarded.join(","))
    }

    /// The exact check of the current model on a fresh solver.
    fn exact(&self, enc: &Encoder) -> Result<ExactCheck, String> {
        let mut solver = make_solver(&self.opts.solver).map_err(|e| e.to_string())?;
        if let Some(left) = self.deadline.left() {
            let _ = solver.set_budget(solver_glue::Budget {
                time: Some(left.max(Duration::from_millis(1))),
                conflicts: None,
            });
        }
        exact_check(self.eq, self.po, self.links, |l| enc.value(l), &mut *solver)
            .map_err(|e| e.to_string())
    }

    /// The event order graph of the model `enc` holds: executed events, static program order
    /// (thread order, creation, unconditional joins, initial writes first) and the chosen
    /// read-from edges.
    fn eog_of_model(&self, enc: &Encoder) -> EogBuilder {
        let eq = self.eq;
        let tru = eq.true_lit;
        let mut g = EogBuilder::new();
        let mut node: SecondaryMap<encoder::Event, Option<eog::Event>> = SecondaryMap::new();
        let executed = |e: encoder::Event| enc.value(eq.events[e].guard);
        // Per thread: its executed events in order, and for each item position the last
        // executed event before it and the first one after it.
        let mut first: SecondaryMap<encoder::Thread, Option<eog::Event>> = SecondaryMap::new();
        let mut last: SecondaryMap<encoder::Thread, Option<eog::Event>> = SecondaryMap::new();
        let mut create_from: Vec<Option<eog::Event>> = vec![None; eq.creates.len()];
        let mut join_to: Vec<Option<eog::Event>> = vec![None; eq.joins.len()];
        let mut pending_joins: Vec<usize> = Vec::new();
        for (t, td) in eq.threads.iter() {
            let mut prev: Option<eog::Event> = None;
            pending_joins.clear();
            for &item in &td.items {
                match item {
                    ThreadItem::Event(e) if executed(e) => {
                        let d = &eq.events[e];
                        let access = if d.is_write() {
                            Access::Write
                        } else {
                            Access::Read
                        };
                        let guard = (d.guard != tru).then_some(d.guard);
                        let block = d.atomic.map(|b| eog::BlockKey::new(b.index()));
                        let v = g.add_event(
                            eog::ThreadId::new(t.index()),
                            eog::Loc::new(d.location.index()),
                            access,
                            guard,
                            block,
                        );
                        node[e] = Some(v);
                        if let Some(p) = prev {
                            g.add_po(p, v);
                        }
                        if first[t].is_none() {
                            first[t] = Some(v);
                        }
                        for j in pending_joins.drain(..) {
                            join_to[j] = Some(v);
                        }
                        prev = Some(v);
                    }
                    ThreadItem::Event(_) => {}
                    ThreadItem::Create(c) => create_from[c] = prev,
                    ThreadItem::Join(j) => pending_joins.push(j),
                }
            }
            last[t] = prev;
        }
        let init = eq.init_thread();
        for (t, _) in eq.threads.iter() {
            if t == init {
                continue;
            }
            if let (Some(a), Some(b)) = (last[init], first[t]) {
                g.add_po(a, b);
            }
        }
        for (c, edge) in eq.creates.iter().enumerate() {
            if !enc.value(edge.guard) {
                continue;
            }
            if let (Some(a), Some(b)) = (create_from[c], first[edge.child]) {
                g.add_po(a, b);
            }
        }
        for (j, edge) in eq.joins.iter().enumerate() {
            // A join under a condition orders only the paths through it; the reasons of the
            // graph would not name that condition, so such joins are left to the exact check.
            if edge.guard != tru {
                continue;
            }
            if let (Some(a), Some(b)) = (last[edge.child], join_to[j]) {
                g.add_po(a, b);
            }
        }
        for &r in self.links.reads() {
            let Some(rv) = node[r] else { continue };
            for link in self.links.candidates(r) {
                if enc.value(link.lit) {
                    if let Some(wv) = node[link.write] {
                        g.add_rf(wv, rv, link.lit);
                    }
                    break;
                }
            }
        }
        g
    }
}
