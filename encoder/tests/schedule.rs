//! ζ and ξ against a brute-force enumeration of sequentially consistent schedules, on seeded
//! random event structures (threads, guards, create/join points, atomic blocks), plus the
//! store-buffering and butterfly patterns.

mod common;

use common::events::{ev, Plan, Reference};
use common::Rng;
use cranelift_entity::EntityRef;
use encoder::{
    encode_links, exact_check, AccessKind, Encoder, Equation, Event, EventData, ExactCheck,
    LinkTable, LiteralMode, ProgramOrder, ScheduleEncoding, Thread,
};
use hashbrown::HashMap;
use solver_glue::{Lit, SolveResult};
use std::collections::HashSet;

/// A φ valuation given by its true/false positive literals; unknown literals are false.
struct Valuation(HashMap<Lit, bool>);

impl Valuation {
    fn get(&self, l: Lit) -> bool {
        match self.0.get(&l) {
            Some(&b) => b,
            None => self.0.get(&!l).is_some_and(|&b| !b),
        }
    }
}

/// The valuation fixing the pool and choosing `rf`; `None` if a chosen pair has no link.
fn valuation(
    true_lit: Lit,
    pool: &[Lit],
    assign: &[bool],
    links: &LinkTable,
    rf: &[Option<usize>],
) -> Option<Valuation> {
    let mut m = HashMap::new();
    m.insert(true_lit, true);
    for (&l, &b) in pool.iter().zip(assign) {
        m.insert(l, b);
    }
    for &r in links.reads() {
        for link in links.candidates(r) {
            m.insert(link.lit, false);
        }
    }
    for (r, w) in rf.iter().enumerate() {
        if let Some(w) = w {
            let link = links.candidates(ev(r)).iter().find(|l| l.write == ev(*w))?;
            m.insert(link.lit, true);
        }
    }
    Some(Valuation(m))
}

/// A read-from choice: the map of a random schedule, or per read a random ζ candidate (or,
/// sometimes, any present write of the location, to exercise pruning).
fn random_rf(reference: &Reference, links: &LinkTable, rng: &mut Rng) -> Vec<Option<usize>> {
    if rng.chance(25) {
        if let Some(order) = reference.random_order(rng) {
            return reference.rf_of(&order);
        }
    }
    let any_write = rng.chance(25);
    (0..reference.n)
        .map(|r| {
            if !reference.present[r] || reference.write[r] {
                return None;
            }
            let candidate =
                |w: usize| any_write || links.candidates(ev(r)).iter().any(|l| l.write == ev(w));
            let ws: Vec<usize> = (0..reference.n)
                .filter(|&w| {
                    reference.present[w]
                        && reference.write[w]
                        && reference.loc[w] == reference.loc[r]
                        && candidate(w)
                })
                .collect();
            Some(ws[rng.below(ws.len())])
        })
        .collect()
}

#[derive(Default, Debug)]
struct Tally {
    feasible: usize,
    infeasible: usize,
    pruned_choice: usize,
    skipped_cycle: usize,
    cores: usize,
    minimal_cores: usize,
    core_literals: usize,
}

/// The main agreement test: for each random instance and read-from choice, the separate exact
/// check and the shared (monolithic) encoding both agree with brute force; orders returned are
/// valid schedules; cores are subsets of the assumptions and unsatisfiable on their own.
#[test]
fn exact_check_agrees_with_brute_force() {
    let mut rng = Rng::new(0x0517_2026);
    let mut tally = Tally::default();
    for round in 0..2000 {
        let plan = Plan::random(&mut rng, 9, true);
        let assign: Vec<bool> = (0..plan.pool).map(|_| rng.chance(50)).collect();
        let reference = Reference::new(&plan, &assign);
        let mut phi_solver = common::solver();
        let mut phi = Encoder::new(&mut *phi_solver);
        let (eq, pool) = plan.build(&mut phi);
        eq.validate().expect("generated equations are well formed");
        let Ok(po) = ProgramOrder::unconditional(&eq) else {
            tally.skipped_cycle += 1;
            continue;
        };
        for a in 0..reference.n {
            for b in 0..reference.n {
                assert_eq!(
                    po.po_before(ev(a), ev(b)),
                    reference.before_always[a][b],
                    "round {round}: po_before({a}, {b})"
                );
            }
        }
        let links = encode_links(&eq, &po, &mut phi).expect("links");
        let mut xi_solver = common::solver();
        let mut xi_enc = Encoder::new(&mut *xi_solver);
        let xi =
            match ScheduleEncoding::encode(&eq, &po, &links, &mut xi_enc, LiteralMode::Separate) {
                Ok(xi) => xi,
                Err(_) => {
                    tally.skipped_cycle += 1;
                    continue;
                }
            };
        let rf = random_rf(&reference, &links, &mut rng);
        let expected = reference.feasible(&rf);
        let Some(val) = valuation(eq.true_lit, &pool, &assign, &links, &rf) else {
            assert!(
                !expected,
                "round {round}: a feasible read-from pair was pruned"
            );
            tally.pruned_choice += 1;
            continue;
        };

        // The direct search (default) and SAT alone must give the same answer.
        let sat_only = xi.check_with_search_budget(&eq, &mut xi_enc, |l| val.get(l), 0);
        match (&sat_only, expected) {
            (ExactCheck::Feasible(order), true) => {
                let order: Vec<usize> = order.iter().map(|e| e.index()).collect();
                if let Err(msg) = reference.check_order(&order, &rf) {
                    panic!("round {round}: SAT order {order:?} invalid: {msg}");
                }
            }
            (ExactCheck::Infeasible(_), false) => {}
            (other, _) => panic!("round {round}: SAT-only check {other:?}, expected {expected}"),
        }
        // The one-call exact check on a fresh solver.
        let mut one_solver = common::solver();
        match exact_check(&eq, &po, &links, |l| val.get(l), &mut *one_solver).unwrap() {
            ExactCheck::Feasible(order) => {
                assert!(
                    expected,
                    "round {round}: exact_check feasible, brute force not"
                );
                let order: Vec<usize> = order.iter().map(|e| e.index()).collect();
                if let Err(msg) = reference.check_order(&order, &rf) {
                    panic!("round {round}: exact_check order {order:?} invalid: {msg}");
                }
            }
            ExactCheck::Infeasible(core) => {
                assert!(
                    !expected,
                    "round {round}: exact_check infeasible, brute force not"
                );
                assert!(
                    core.iter().all(|&l| val.get(l)),
                    "round {round}: core not true"
                );
                // Minimal: the core is infeasible, and dropping any literal makes it feasible.
                let mut fs = common::solver();
                let mut fe = Encoder::new(&mut *fs);
                let x = ScheduleEncoding::encode(&eq, &po, &links, &mut fe, LiteralMode::Separate)
                    .unwrap();
                assert_eq!(x.solve_under(&mut fe, &core), SolveResult::Unsat);
                for k in 0..core.len() {
                    let mut fewer = core.clone();
                    fewer.remove(k);
                    assert_eq!(
                        x.solve_under(&mut fe, &fewer),
                        SolveResult::Sat,
                        "round {round}: core {core:?} is not minimal"
                    );
                }
                tally.minimal_cores += 1;
                tally.core_literals += core.len();
            }
            ExactCheck::Interrupted => panic!("no budget was set"),
        }
        // The direct search alone is complete on these sizes.
        match xi.search_order(&eq, |l| val.get(l), u64::MAX) {
            Some(order) => {
                assert!(
                    expected,
                    "round {round}: search found an order brute force lacks"
                );
                let order: Vec<usize> = order.iter().map(|e| e.index()).collect();
                if let Err(msg) = reference.check_order(&order, &rf) {
                    panic!("round {round}: searched order {order:?} invalid: {msg}");
                }
            }
            None => assert!(!expected, "round {round}: search missed a schedule"),
        }
        match xi.check(&eq, &mut xi_enc, |l| val.get(l)) {
            ExactCheck::Feasible(order) => {
                assert!(
                    expected,
                    "round {round}: ξ feasible, brute force not ({rf:?})"
                );
                let order: Vec<usize> = order.iter().map(|e| e.index()).collect();
                if let Err(msg) = reference.check_order(&order, &rf) {
                    panic!("round {round}: returned order {order:?} invalid: {msg}");
                }
                tally.feasible += 1;
            }
            ExactCheck::Infeasible(core) => {
                assert!(
                    !expected,
                    "round {round}: ξ infeasible, brute force feasible ({rf:?})"
                );
                for &l in &core {
                    assert!(val.get(l), "round {round}: core literal {l} not true");
                    assert!(xi.used_literals().contains(&l));
                }
                // The core alone, on a fresh solver, is still infeasible.
                let mut fresh_solver = common::solver();
                let mut fresh = Encoder::new(&mut *fresh_solver);
                let xi2 =
                    ScheduleEncoding::encode(&eq, &po, &links, &mut fresh, LiteralMode::Separate)
                        .expect("second encoding");
                // Literals outside the core stay unassumed (free), as in a refinement clause;
                // the direct search needs a full valuation, so SAT alone decides here.
                let only_core = |l: Lit| core.contains(&l);
                assert!(
                    matches!(
                        xi2.check_with_search_budget(&eq, &mut fresh, only_core, 0),
                        ExactCheck::Infeasible(_)
                    ),
                    "round {round}: core {core:?} is satisfiable on its own"
                );
                tally.infeasible += 1;
                tally.cores += 1;
            }
            ExactCheck::Interrupted => panic!("no budget was set"),
        }

        // Monolithic: ξ on the φ solver, the same choice as assumptions.
        let shared = ScheduleEncoding::encode(&eq, &po, &links, &mut phi, LiteralMode::Shared)
            .expect("shared encoding");
        let mut assumptions: Vec<Lit> = pool
            .iter()
            .zip(&assign)
            .map(|(&l, &b)| if b { l } else { !l })
            .collect();
        for &r in links.reads() {
            for link in links.candidates(r) {
                if val.get(link.lit) {
                    assumptions.push(link.lit);
                }
            }
        }
        let res = phi.solver().solve(&assumptions);
        assert_eq!(
            res == SolveResult::Sat,
            expected,
            "round {round}: monolithic disagrees with brute force"
        );
        if res == SolveResult::Sat {
            let order = shared.order(&eq, &phi);
            let order: Vec<usize> = order.iter().map(|e| e.index()).collect();
            if let Err(msg) = reference.check_order(&order, &rf) {
                panic!("round {round}: monolithic order {order:?} invalid: {msg}");
            }
        }
    }
    println!("{tally:?}");
    assert!(tally.feasible >= 1000, "{tally:?}");
    assert!(tally.infeasible >= 120, "{tally:?}");
    assert!(tally.pruned_choice >= 50, "{tally:?}");
    assert_eq!(tally.minimal_cores, tally.infeasible, "{tally:?}");
    assert!(tally.skipped_cycle <= 400, "{tally:?}");
}

/// φ ∧ ζ ∧ ξ (monolithic) admits exactly the read-from maps some schedule realises: enumerate
/// the models' read-from maps with blocking clauses and compare with brute force.
#[test]
fn monolithic_read_from_maps_match_brute_force() {
    let mut rng = Rng::new(99);
    let mut compared = 0;
    let mut total_maps = 0;
    for round in 0..400 {
        let plan = Plan::random(&mut rng, 9, true);
        let assign: Vec<bool> = (0..plan.pool).map(|_| rng.chance(50)).collect();
        let reference = Reference::new(&plan, &assign);
        let mut solver = common::solver();
        let mut enc = Encoder::new(&mut *solver);
        let (eq, pool) = plan.build(&mut enc);
        let Ok(po) = ProgramOrder::unconditional(&eq) else {
            continue;
        };
        let links = encode_links(&eq, &po, &mut enc).expect("links");
        if ScheduleEncoding::encode(&eq, &po, &links, &mut enc, LiteralMode::Shared).is_err() {
            continue;
        }
        let expected = reference.all_rf_maps();
        let assumptions: Vec<Lit> = pool
            .iter()
            .zip(&assign)
            .map(|(&l, &b)| if b { l } else { !l })
            .collect();
        let mut found = HashSet::new();
        while enc.solver().solve(&assumptions) == SolveResult::Sat {
            let mut map = vec![None; reference.n];
            let mut block = Vec::new();
            for &r in links.reads() {
                let present = enc.value(eq.events[r].guard);
                assert_eq!(present, reference.present[r.index()]);
                let w = links.read_from(r, |l| enc.value(l));
                assert_eq!(
                    w.is_some(),
                    present,
                    "round {round}: read {r} link vs guard"
                );
                if let Some(w) = w {
                    map[r.index()] = Some(w.index());
                    let l = links
                        .candidates(r)
                        .iter()
                        .find(|l| l.write == w)
                        .unwrap()
                        .lit;
                    block.push(!l);
                }
            }
            assert!(found.insert(map.clone()), "round {round}: map found twice");
            assert!(found.len() <= 5000);
            enc.add_clause(&block);
            if block.is_empty() {
                break;
            }
        }
        if found != expected {
            eprintln!("{plan:#?}\nassign {assign:?}");
            for r in links.reads() {
                eprintln!("read {r}: {:?}", links.candidates(*r));
            }
        }
        assert_eq!(found, expected, "round {round}");
        compared += 1;
        total_maps += found.len();
    }
    println!("compared {compared} instances, {total_maps} read-from maps");
    assert!(compared >= 300, "{compared}");
    assert!(total_maps >= 600, "{total_maps}");
}

/// Helper for hand-written programs: threads created by main after the init writes, joined at
/// the end; all guards true.
struct Prog {
    eq: Equation,
    main: Thread,
    threads: Vec<Thread>,
}

impl Prog {
    /// Locations `0..n_locs` with initial writes (events `0..n_locs`) of 0.
    fn new(enc: &Encoder, n_threads: usize, n_locs: usize) -> Prog {
        let mut eq = Equation::new(enc.tru());
        for i in 0..n_locs {
            let l = eq.add_location(format!("v{i}"));
            eq.add_init_write(l, enc.bv_const(4, 0));
        }
        let main = eq.add_thread();
        let threads: Vec<Thread> = (0..n_threads).map(|_| eq.add_thread()).collect();
        for &t in &threads {
            eq.add_create(main, t, enc.tru(), None);
        }
        Prog { eq, main, threads }
    }
    fn access(&mut self, enc: &mut Encoder, t: Thread, loc: usize, kind: AccessKind) -> Event {
        let value = enc.bv_fresh(4);
        self.eq.add_event(EventData {
            thread: t,
            location: cranelift_entity::EntityRef::new(loc),
            kind,
            guard: enc.tru(),
            value,
            atomic: None,
            source: None,
        })
    }
    fn finish(&mut self, enc: &Encoder) {
        for &t in &self.threads.clone() {
            self.eq.add_join(self.main, t, enc.tru(), None);
        }
    }
}

/// Runs the exact check for the read-from choice `rf` (read → write).
fn exact(eq: &Equation, rf: &[(Event, Event)]) -> ExactCheck {
    let mut phi_solver = common::solver();
    let mut phi = Encoder::new(&mut *phi_solver);
    let po = ProgramOrder::unconditional(eq).unwrap();
    let links = encode_links(eq, &po, &mut phi).unwrap();
    let mut xs = common::solver();
    let mut xe = Encoder::new(&mut *xs);
    let xi = ScheduleEncoding::encode(eq, &po, &links, &mut xe, LiteralMode::Separate).unwrap();
    let chosen: Vec<Lit> = rf
        .iter()
        .map(|&(r, w)| {
            links
                .candidates(r)
                .iter()
                .find(|l| l.write == w)
                .expect("candidate")
                .lit
        })
        .collect();
    xi.check(eq, &mut xe, |l| l == eq.true_lit || chosen.contains(&l))
}

#[test]
fn store_buffering_outcome_is_infeasible() {
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let mut p = Prog::new(&enc, 2, 2);
    let (t1, t2) = (p.threads[0], p.threads[1]);
    let (x, y) = (0, 1);
    let wx = p.access(&mut enc, t1, x, AccessKind::Write);
    let ry = p.access(&mut enc, t1, y, AccessKind::Read);
    let wy = p.access(&mut enc, t2, y, AccessKind::Write);
    let rx = p.access(&mut enc, t2, x, AccessKind::Read);
    p.finish(&enc);
    let init_x = ev(0);
    let init_y = ev(1);
    // r1 = y = 0 and r2 = x = 0: impossible under SC; the core names both links.
    match exact(&p.eq, &[(ry, init_y), (rx, init_x)]) {
        ExactCheck::Infeasible(core) => assert_eq!(core.len(), 2),
        other => panic!("store buffering must be infeasible, got {other:?}"),
    }
    for (a, b) in [(init_y, wx), (wy, init_x), (wy, wx)] {
        assert!(
            matches!(exact(&p.eq, &[(ry, a), (rx, b)]), ExactCheck::Feasible(_)),
            "({a}, {b})"
        );
    }
}

/// The butterfly of test-programs.md §A4: no single pair of links is contradictory, yet no
/// total order exists; dropping any one read makes the rest feasible.
#[test]
fn butterfly_is_infeasible_and_minimal() {
    let build = |skip: Option<usize>| {
        let mut s = common::solver();
        let mut enc = Encoder::new(&mut *s);
        let mut p = Prog::new(&enc, 4, 3);
        let (x, y, n) = (0, 1, 2);
        let t = p.threads.clone();
        use AccessKind::{Read as R, Write as W};
        let x1 = p.access(&mut enc, t[0], x, W);
        let n1 = p.access(&mut enc, t[0], n, W);
        let r0 = p.access(&mut enc, t[0], y, R);
        let x2 = p.access(&mut enc, t[1], x, W);
        let r1 = p.access(&mut enc, t[1], n, R);
        let r2 = p.access(&mut enc, t[1], y, R);
        let y1 = p.access(&mut enc, t[2], y, W);
        let r3 = p.access(&mut enc, t[2], n, R);
        let r4 = p.access(&mut enc, t[2], x, R);
        let y2 = p.access(&mut enc, t[3], y, W);
        let n2 = p.access(&mut enc, t[3], n, W);
        let r5 = p.access(&mut enc, t[3], x, R);
        p.finish(&enc);
        let rf = [(r0, y1), (r1, n1), (r2, y2), (r3, n2), (r4, x1), (r5, x2)];
        let rf: Vec<(Event, Event)> = rf
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip)
            .map(|(_, &p)| p)
            .collect();
        exact(&p.eq, &rf)
    };
    match build(None) {
        ExactCheck::Infeasible(core) => assert_eq!(core.len(), 6, "every link is needed"),
        other => panic!("butterfly must be infeasible, got {other:?}"),
    }
    for skip in 0..6 {
        assert!(
            matches!(build(Some(skip)), ExactCheck::Feasible(_)),
            "without read {skip} the rest must be feasible"
        );
    }
}

/// Inside an atomic block a read of the block's own earlier write is fine, and no other
/// thread's write can come between.
#[test]
fn atomic_block_is_indivisible() {
    // Another thread's read cannot see the first of two writes of one block: the second
    // follows it with nothing in between.
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let mut p = Prog::new(&enc, 2, 1);
    let (t1, t2) = (p.threads[0], p.threads[1]);
    let b = p.eq.new_atomic_block();
    let wa = p.access(&mut enc, t1, 0, AccessKind::Write);
    let wb = p.access(&mut enc, t1, 0, AccessKind::Write);
    p.eq.events[wa].atomic = Some(b);
    p.eq.events[wb].atomic = Some(b);
    let r = p.access(&mut enc, t2, 0, AccessKind::Read);
    p.finish(&enc);
    p.eq.validate().unwrap();
    assert!(matches!(exact(&p.eq, &[(r, wb)]), ExactCheck::Feasible(_)));
    assert!(matches!(
        exact(&p.eq, &[(r, wa)]),
        ExactCheck::Infeasible(_)
    ));
    // Without the block, the read may come between.
    p.eq.events[wa].atomic = None;
    p.eq.events[wb].atomic = None;
    assert!(matches!(exact(&p.eq, &[(r, wa)]), ExactCheck::Feasible(_)));
}

/// A read in a block after its own thread's write there is linked to that thread's writes
/// only: another thread's write cannot come between (the links prune it, so the theory never
/// needs the block to rule it out); without the block it is a candidate again.
#[test]
fn read_after_own_write_in_a_block_links_only_its_thread() {
    let candidates = |eq: &Equation, r: Event| -> Vec<Event> {
        let mut s = common::solver();
        let mut enc = Encoder::new(&mut *s);
        let po = ProgramOrder::unconditional(eq).unwrap();
        let links = encode_links(eq, &po, &mut enc).unwrap();
        links.candidates(r).iter().map(|l| l.write).collect()
    };
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let mut p = Prog::new(&enc, 2, 1);
    let (t1, t2) = (p.threads[0], p.threads[1]);
    let b = p.eq.new_atomic_block();
    let w1 = p.access(&mut enc, t1, 0, AccessKind::Write);
    let r1 = p.access(&mut enc, t1, 0, AccessKind::Read);
    p.eq.events[w1].atomic = Some(b);
    p.eq.events[r1].atomic = Some(b);
    let w2 = p.access(&mut enc, t2, 0, AccessKind::Write);
    p.finish(&enc);
    p.eq.validate().unwrap();
    assert_eq!(candidates(&p.eq, r1), vec![w1]);
    assert!(matches!(exact(&p.eq, &[(r1, w1)]), ExactCheck::Feasible(_)));
    p.eq.events[w1].atomic = None;
    p.eq.events[r1].atomic = None;
    assert!(candidates(&p.eq, r1).contains(&w2));
    assert!(matches!(exact(&p.eq, &[(r1, w2)]), ExactCheck::Feasible(_)));
}

#[test]
fn size_counters_cover_each_part() {
    let mut rng = Rng::new(5);
    let plan = Plan::random(&mut rng, 9, false);
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let (eq, _) = plan.build(&mut enc);
    let po = ProgramOrder::unconditional(&eq).unwrap();
    let c0 = enc.counters();
    let links = encode_links(&eq, &po, &mut enc).unwrap();
    let c1 = enc.counters();
    assert_eq!(links.size(), c1 - c0);
    let xi = ScheduleEncoding::encode(&eq, &po, &links, &mut enc, LiteralMode::Shared).unwrap();
    assert_eq!(xi.size(), enc.counters() - c1);
    assert!(links.size().clauses > 0 && xi.size().clauses > 0);
    assert_eq!(enc.solver().stats().clauses, enc.counters().clauses);
}

/// Store buffering and the butterfly with real values, end to end on one solver: the asserted
/// outcome is reachable in φ ∧ ζ (no order) and unreachable once ξ is added; without the
/// assertion, φ ∧ ζ ∧ ξ is satisfiable and its order is a valid schedule.
#[test]
fn valued_patterns_monolithic() {
    use AccessKind::{Read as R, Write as W};
    // (thread, location, kind, value written); reads get fresh values.
    type Step = (usize, usize, AccessKind, u64);
    let sb: Vec<Step> = vec![(0, 0, W, 1), (0, 1, R, 0), (1, 1, W, 1), (1, 0, R, 0)];
    let sb_outcome = [0u64, 0];
    let butterfly: Vec<Step> = vec![
        (0, 0, W, 1),
        (0, 2, W, 1),
        (0, 1, R, 0),
        (1, 0, W, 2),
        (1, 2, R, 0),
        (1, 1, R, 0),
        (2, 1, W, 1),
        (2, 2, R, 0),
        (2, 0, R, 0),
        (3, 1, W, 2),
        (3, 2, W, 2),
        (3, 0, R, 0),
    ];
    let bf_outcome = [1u64, 1, 2, 2, 1, 2];
    for (steps, outcome, threads, locs) in [
        (&sb, &sb_outcome[..], 2, 2),
        (&butterfly, &bf_outcome[..], 4, 3),
    ] {
        for with_xi in [false, true] {
            for assert_outcome in [true, false] {
                let mut s = common::solver();
                let mut enc = Encoder::new(&mut *s);
                let mut p = Prog::new(&enc, threads, locs);
                let t = p.threads.clone();
                let mut reads = Vec::new();
                for &(th, loc, kind, v) in steps {
                    let e = p.access(&mut enc, t[th], loc, kind);
                    if kind == W {
                        p.eq.events[e].value = enc.bv_const(4, v);
                    } else {
                        reads.push(e);
                    }
                }
                p.finish(&enc);
                let po = ProgramOrder::unconditional(&p.eq).unwrap();
                let links = encode_links(&p.eq, &po, &mut enc).unwrap();
                let xi = with_xi.then(|| {
                    ScheduleEncoding::encode(&p.eq, &po, &links, &mut enc, LiteralMode::Shared)
                        .unwrap()
                });
                if assert_outcome {
                    for (&r, &v) in reads.iter().zip(outcome) {
                        let value = p.eq.events[r].value.clone();
                        let k = enc.bv_const(4, v);
                        let eq_lit = enc.bv_eq(&value, &k);
                        enc.assert_lit(eq_lit);
                    }
                }
                let res = enc.solver().solve(&[]);
                let expect_sat = !(with_xi && assert_outcome);
                assert_eq!(
                    res == SolveResult::Sat,
                    expect_sat,
                    "{} threads, ξ {with_xi}, outcome asserted {assert_outcome}",
                    threads
                );
                if let (Some(xi), SolveResult::Sat) = (&xi, res) {
                    let order = xi.order(&p.eq, &enc);
                    assert_eq!(order.len(), p.eq.events.len());
                    // Each read's value is that of the last earlier write.
                    let mut last: HashMap<usize, u64> = HashMap::new();
                    for e in order {
                        let d = &p.eq.events[e];
                        let v = enc.bv_value_u64(&d.value);
                        if d.is_write() {
                            last.insert(d.location.index(), v);
                        } else {
                            assert_eq!(Some(&v), last.get(&d.location.index()));
                        }
                    }
                }
            }
        }
    }
}
