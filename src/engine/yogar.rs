//! The Yogar engine: the abstraction φ0 = φ_init ∧ ρ ∧ ζ ∧ φ_err without the scheduling
//! constraint, with the event order graph checked *inside* the SAT search.
//!
//! Instead of solving φ0, building the graph of the model and refining from outside (the
//! paper's loop, kept as `--engine cegar`), the solver runs the ordering theory
//! ([`encoder::OrderTheory`]) as a propagator: the graph grows as guard, link and coherence
//! literals are assigned and shrinks on backtracking, and a cycle on a partial assignment is a
//! conflict whose clause names the literals on the cycle. With the coherence literals the
//! theory's check of a full assignment is exact, so a model is a real execution: its schedule
//! is read off the graph's topological order and validated against the model (the exact check
//! on the full assignment) before the answer is FALSE. TRUE means φ0 and the theory have no
//! common model, and every theory clause holds in every execution.

use encoder::{
    encode_links, Coherence, Encoder, LiteralMode, OrderTheory, ProgramOrder, ScheduleEncoding,
    ValueEquality,
};
use solver_glue::{make_solver, Lit, SolveResult};

use super::race::{self, RacePair};
use super::{ask, Answer, Checks, Deadline, EngineOptions, EngineStats, Outcome, Trace, Verdict};
use crate::ir::Program;
use crate::svcomp::Property;
use crate::symex::{CheckKind, SymexOutput};
use crate::verdict::UnknownReason;

/// ζ's three-literal value clauses above which the ordering theory enforces those equalities
/// instead ([`ValueEquality::TheoryAbove`]): only the links the search makes true then cost
/// anything. Below it the clauses stay: native propagation is faster where memory is not the
/// issue, and the theory's weaker propagation costs search time. Above it they are what fills
/// memory: divinefifo_1w1r at unwind 2 has 22 million value clauses (4.5 GB in all). The
/// threshold sits above bounded_buffer's 12.5 million at unwind 3, which its 1.4 GB hold:
/// with them in the theory it needed 54.6 s CPU for its FALSE instead of 24.5 s. Both ways
/// constrain the same executions (see `encoder::ordering::theory::values`).
pub const VALUES_IN_THEORY_ABOVE: u64 = 16_000_000;

/// The sharing pass, symbolic execution, then [`decide`].
pub fn verify(prog: &Program, opts: &EngineOptions) -> Outcome {
    super::Engine::Yogar.verify(prog, opts)
}

/// Decides the bounded problem of one equation.
pub fn decide(prog: &Program, out: &SymexOutput, opts: &EngineOptions) -> Outcome {
    super::with_equation(out, opts, |enc, deadline, stats| {
        let verdict = solve_with_theory(prog, opts, out, enc, deadline, stats);
        // The exact encoding the clauses are checked against has no race edges: under
        // no-data-race the check is not made.
        if opts.check_refinements && opts.property != Property::NoDataRace {
            let recorded = connected(enc).map(|t| t.recorded().to_vec());
            if let Some(clauses) = recorded {
                if let Err(why) = check_clauses(out, &clauses) {
                    return Verdict::Unknown(UnknownReason::Internal(why));
                }
            }
        }
        verdict
    })
}

/// Makes the search decide every read-from literal `s(r,w)` false first.
///
/// A heuristic, not a constraint: every model of the formula is still one. A read's link
/// then becomes true by propagation (its `guard(r) ⇒ ∨_w s(r,w)` clause once the other
/// candidates are false, or a value equality), not by a guess. A guessed true link puts an
/// edge `w → r` and, through coherence, more edges into the ordering theory's graph, so on a
/// task with many candidate writes per read (locks and counters of a buffer) the search
/// spends its conflicts refuting guessed orders. Measured (issue #27, CPU s, one run each):
/// bounded_buffer at unwind 5 past 60 -> 10.6 (13,907 conflicts; 16.3 and 55.7 with CaDiCaL's
/// `exteagerreasons=0` and `elim=0`, so luck still plays a part), triangular-longer-2@11
/// 7.1 -> 4.4, qw2004_variant@11 3.9 -> 3.6, workstealqueue_mutex-2@9 32.2 -> 38.6.
///
/// (These measurements predate the lazy reasons the CaDiCaL back end now asks for:
/// `exteagerreasons=0`, see `solver_glue`'s cadical back end.)
///
/// CaDiCaL options on top of it (`YOGAR_CADICAL`, issue #27, SAT conflicts, which unlike CPU
/// time do not depend on the machine's load): bounded_buffer@5 13,907 by default; 1,402 with
/// `rephase=0` (the saved phases are never reset, so the false links' phases stay), 6,706
/// with `phase=0`, 8,872 with `subsume=0`, 13,907 with `walk=0` or `lucky=0`, 32,509 with
/// `vivify=0`, 32,565 with `inprocessing=0`, 49,913 with `stabilizeonly=1`, past 60 s CPU
/// with `stabilize=0`, `elim=0` or `probe=0`. `rephase=0` is not the default: over the
/// deep-bound set it moves triangular-longer-2@11 35,808 -> 46,420, workstealqueue_mutex-2@9
/// 44,569 -> 39,377 (CPU 43.5 s against 36.1 and 46.4 by default: the load's noise),
/// triangular-1@6 2,974 -> 1,560, the rest the same; the total CPU did not drop (56.9 -> 61.1
/// s under load), so bounded_buffer's gain is luck as much as method.
fn prefer_links_false(links: &encoder::LinkTable, enc: &mut Encoder) {
    for &r in links.reads() {
        for l in links.candidates(r) {
            enc.solver().prefer_phase(!l.lit);
        }
    }
}

/// The theory connected to `enc`'s solver.
fn connected<'a>(enc: &'a mut Encoder) -> Option<&'a mut OrderTheory> {
    enc.solver()
        .propagator()
        .and_then(|p| p.as_any_mut().downcast_mut::<OrderTheory>())
}

fn solve_with_theory(
    prog: &Program,
    opts: &EngineOptions,
    out: &SymexOutput,
    enc: &mut Encoder,
    deadline: &Deadline,
    stats: &mut EngineStats,
) -> Verdict {
    let eq = &out.equation;
    let (po, links) = match super::order_and_links(
        out,
        enc,
        stats,
        ValueEquality::TheoryAbove(VALUES_IN_THEORY_ABOVE),
    ) {
        Ok(x) => x,
        Err(why) => return Verdict::Unknown(why),
    };
    prefer_links_false(&links, enc);
    let coherence = Coherence::encode(eq, &po, enc);
    if opts.compare_size {
        stats.monolithic_xi_clauses = super::cegar::xi_size(eq, &po, &links);
    }
    let mut theory = match OrderTheory::new(eq, &po, &links, &coherence, opts.check_refinements) {
        Ok(t) => t,
        Err(e) => return Verdict::Unknown(UnknownReason::unsupported(e.to_string())),
    };
    let races = match opts.property {
        Property::NoDataRace => {
            let candidates = race::candidates(out, &po);
            Some(race::encode(eq, &candidates, &mut theory, enc))
        }
        _ => None,
    };
    // The errors of no-overflow and valid-memsafety are checks of their own kinds.
    let own_error = |k: &CheckKind| match opts.property {
        Property::NoOverflow => *k == CheckKind::Overflow,
        Property::ValidMemsafety => matches!(k, CheckKind::Memory(_)),
        _ => false,
    };
    let own_errors: Vec<Lit> = out
        .checks
        .iter()
        .filter(|c| own_error(&c.kind))
        .map(|c| c.lit)
        .collect();
    let checks = match (&races, &opts.property) {
        (Some(pairs), _) => {
            let lits: Vec<Lit> = pairs.iter().map(|p| p.lit).collect();
            Checks::for_errors(out, enc, &lits)
        }
        (None, Property::NoOverflow | Property::ValidMemsafety) => {
            Checks::for_errors(out, enc, &own_errors)
        }
        (None, _) => Checks::new(out, enc),
    };
    stats.phi0_clauses = enc.counters().clauses;
    if let Err(e) = enc.solver().connect_propagator(Box::new(theory)) {
        return Verdict::Unknown(UnknownReason::unsupported(format!(
            "{e} (use --engine cegar)"
        )));
    }

    let verdict = match ask(prog, out, enc, &checks, deadline) {
        Answer::Violation => {
            let model: Vec<bool> = (1..=enc.solver_ref().num_vars())
                .map(|v| enc.value(Lit::from_dimacs(v as i32)))
                .collect();
            let value = |l: Lit| model[l.var().index()] == l.is_positive();
            let schedule = connected(enc)
                .expect("the theory is connected")
                .schedule(eq, value);
            match schedule {
                Ok(order) => Verdict::False {
                    trace: match &races {
                        Some(pairs) => {
                            let pair = pairs
                                .iter()
                                .find(|p| enc.value(p.lit))
                                .expect("a race literal holds in the model");
                            race_trace(prog, out, enc, &order, pair)
                        }
                        None if !own_errors.is_empty() => {
                            let failed = out
                                .checks
                                .iter()
                                .find(|c| own_error(&c.kind) && enc.value(c.lit))
                                .expect("an error literal holds in the model");
                            let mut trace =
                                Trace::build(prog, out, enc, &order, (failed.loc, failed.thread));
                            trace.violation = match failed.kind {
                                CheckKind::Memory(v) => v,
                                _ => crate::verdict::Violation::Overflow,
                            };
                            trace
                        }
                        None => {
                            let failed = out
                                .property_checks()
                                .find(|c| enc.value(c.lit))
                                .expect("a property literal holds in the model");
                            Trace::build(prog, out, enc, &order, (failed.loc, failed.thread))
                        }
                    },
                },
                Err(why) => Verdict::Unknown(UnknownReason::Internal(format!(
                    "the theory's schedule is not valid: {why}"
                ))),
            }
        }
        Answer::Unknown(why) => Verdict::Unknown(why),
        Answer::Holds => Verdict::True {
            complete: opts.symex.unwinding_assertions,
        },
    };
    if let Some(t) = connected(enc) {
        let s = t.stats();
        stats.theory_conflicts = s.conflicts;
        stats.theory_conflict_literals = s.conflict_literals;
        stats.theory_propagations = s.propagations;
        stats.theory_reason_literals = s.reason_literals;
        stats.theory_edges = s.edges;
        stats.coherence_vars = s.coherence_vars;
    }
    verdict
}

/// The trace of a race model: its schedule up to the first access, then the second (see
/// [`race::cut`]). A read as the second access is shown with the value of the first, the
/// write it directly follows (the model's own schedule may have put other steps between).
fn race_trace(
    prog: &Program,
    out: &SymexOutput,
    enc: &Encoder,
    order: &[encoder::Event],
    pair: &RacePair,
) -> Trace {
    let eq = &out.equation;
    let order = race::cut(eq, order, pair);
    let second = &eq.events[pair.second];
    let mut trace = Trace::build(
        prog,
        out,
        enc,
        &order,
        (out.event_info[pair.second].loc, second.thread),
    );
    trace.violation = crate::verdict::Violation::DataRace;
    let head = |e: encoder::Event| out.event_info[e].head.unwrap_or(e);
    let shown: Vec<encoder::Event> = order
        .iter()
        .copied()
        .filter(|&e| eq.events[e].thread != eq.init_thread())
        .filter(|&e| out.event_info[e].head.is_none())
        .collect();
    let at = |e: encoder::Event| shown.iter().position(|&x| x == head(e));
    if let (Some(i), Some(j)) = (at(pair.first), at(pair.second)) {
        trace.race = Some([i, j]);
        let single = |e: encoder::Event| {
            out.event_info[e].rest.is_empty() && out.event_info[e].head.is_none()
        };
        if second.is_read() && single(pair.first) && single(pair.second) {
            trace.events[j].value = enc.bv_value_u64(&eq.events[pair.first].value);
        }
    }
    trace
}

/// Checks that every theory clause (conflict, or implication as `lit ∨ ¬reason`) holds in
/// every feasible execution: the exact encoding φ ∧ ζ ∧ ξ, built on a second solver from the
/// same equation (its formula replayed, then ζ and the coherence literals made first as on the
/// engine's solver, so literals are the same) with the coherence literals tied to ξ's clocks,
/// has no model in which all the negated literals of a clause hold. The check is many cheap
/// solves of one formula under assumptions, which batsat does fastest whatever back end the
/// engine ran on.
fn check_clauses(out: &SymexOutput, clauses: &[Vec<Lit>]) -> Result<(), String> {
    let mut solver = make_solver("batsat").map_err(|e| e.to_string())?;
    let mut enc = out.formula.encoder(&mut *solver);
    let eq = &out.equation;
    let po = ProgramOrder::unconditional(eq).map_err(|e| e.to_string())?;
    let links = encode_links(eq, &po, &mut enc).map_err(|e| e.to_string())?;
    let coherence = Coherence::encode(eq, &po, &mut enc);
    let xi = ScheduleEncoding::encode(eq, &po, &links, &mut enc, LiteralMode::Shared)
        .map_err(|e| e.to_string())?;
    coherence.define_on_schedule(eq, &po, &xi, &mut enc);
    for c in clauses {
        let negated: Vec<Lit> = c.iter().map(|&l| !l).collect();
        if enc.solver().solve(&negated) != SolveResult::Unsat {
            return Err(format!(
                "theory clause {c:?} is not implied by the exact encoding"
            ));
        }
    }
    Ok(())
}
