//! A larger instance: sizes of ζ and ξ and one exact check, with timings printed for
//! comparison run to run (`cargo test --release -p encoder --test scale -- --nocapture`).

mod common;

use common::Rng;
use cranelift_entity::EntityRef;
use encoder::{
    encode_links, AccessKind, Encoder, Equation, Event, EventData, ExactCheck, LiteralMode,
    ProgramOrder, ScheduleEncoding,
};
use solver_glue::Lit;
use std::time::Instant;

#[test]
fn eight_threads_of_sixty_accesses() {
    let (threads, per_thread, locs) = (8, 60, 6);
    let mut rng = Rng::new(8);
    let mut phi_solver = common::solver();
    let mut phi = Encoder::new(&mut *phi_solver);
    let t = phi.tru();
    let mut eq = Equation::new(t);
    let locations: Vec<_> = (0..locs)
        .map(|i| eq.add_location(format!("v{i}")))
        .collect();
    for &l in &locations {
        eq.add_init_write(l, phi.bv_const(8, 0));
    }
    let main = eq.add_thread();
    let mut workers = Vec::new();
    for _ in 0..threads {
        let w = eq.add_thread();
        eq.add_create(main, w, t, None);
        workers.push(w);
    }
    // Threads run one after another in this order: remember it to build a feasible read-from.
    let mut sequential: Vec<Event> = eq.threads[eq.init_thread()].events().collect();
    for &w in &workers {
        for _ in 0..per_thread {
            let value = phi.bv_fresh(8);
            let e = eq.add_event(EventData {
                thread: w,
                location: locations[rng.below(locs)],
                kind: if rng.chance(50) {
                    AccessKind::Write
                } else {
                    AccessKind::Read
                },
                guard: t,
                value,
                atomic: None,
                source: None,
            });
            sequential.push(e);
        }
    }
    for &w in &workers {
        eq.add_join(main, w, t, None);
    }
    let start = Instant::now();
    let po = ProgramOrder::unconditional(&eq).unwrap();
    let t_po = start.elapsed();
    let links = encode_links(&eq, &po, &mut phi).unwrap();
    let t_links = start.elapsed();
    let mut xi_solver = common::solver();
    let mut xi_enc = Encoder::new(&mut *xi_solver);
    let xi =
        ScheduleEncoding::encode(&eq, &po, &links, &mut xi_enc, LiteralMode::Separate).unwrap();
    let t_xi = start.elapsed();

    let mut last = vec![None; locs];
    let mut chosen = Vec::new();
    for &e in &sequential {
        let d = &eq.events[e];
        let l = d.location.index();
        if d.is_write() {
            last[l] = Some(e);
        } else {
            let w = last[l].unwrap();
            let link = links.candidates(e).iter().find(|k| k.write == w).unwrap();
            chosen.push(link.lit);
        }
    }
    let t0 = Instant::now();
    let check = xi.check(&eq, &mut xi_enc, |l| l == t || chosen.contains(&l));
    let t_check = t0.elapsed();
    // ξ over only the links true in the model (what the exact check needs).
    let restricted = links.restrict(|l| chosen.contains(&l));
    let mut r_solver = common::solver();
    let mut r_enc = Encoder::new(&mut *r_solver);
    let r_xi =
        ScheduleEncoding::encode(&eq, &po, &restricted, &mut r_enc, LiteralMode::Separate).unwrap();
    let r_check = r_xi.check(&eq, &mut r_enc, |l| l == t || chosen.contains(&l));
    assert_eq!(r_check, check);
    let t1 = Instant::now();
    let mut one = common::solver();
    let one_check = encoder::exact_check(
        &eq,
        &po,
        &links,
        |l| l == t || chosen.contains(&l),
        &mut *one,
    )
    .unwrap();
    let t_one = t1.elapsed();
    assert_eq!(one_check, check);
    println!(
        "events {} links {} | ζ {:?} | ξ {:?} clocks {} | ξ on true links {:?} | \
         time: po {:?} ζ {:?} ξ {:?} check {:?} exact_check {:?}",
        eq.events.len(),
        links.num_links(),
        links.size(),
        xi.size(),
        xi.num_clocks(),
        r_xi.size(),
        t_po,
        t_links - t_po,
        t_xi - t_links,
        t_check,
        t_one
    );
    match check {
        ExactCheck::Feasible(order) => assert_eq!(order.len(), eq.events.len()),
        other => panic!("the sequential schedule exists: {other:?}"),
    }
    assert!(xi.size().clauses > links.size().clauses);
}

/// Two long threads interleaved at random: the search branches at almost every write, so its
/// depth reaches the thousands (6000 events: ζ ~16M clauses, the check ~0.1 s in release).
#[test]
fn deep_search_two_long_threads() {
    let (per_thread, locs) = (1200, 2);
    let mut rng = Rng::new(31);
    let mut phi_solver = common::solver();
    let mut phi = Encoder::new(&mut *phi_solver);
    let t = phi.tru();
    let mut eq = Equation::new(t);
    let locations: Vec<_> = (0..locs)
        .map(|i| eq.add_location(format!("v{i}")))
        .collect();
    for &l in &locations {
        eq.add_init_write(l, phi.bv_const(2, 0));
    }
    let main = eq.add_thread();
    let workers: Vec<_> = (0..2).map(|_| eq.add_thread()).collect();
    for &w in &workers {
        eq.add_create(main, w, t, None);
    }
    let mut program: Vec<Vec<Event>> = vec![Vec::new(); 2];
    for (k, &w) in workers.iter().enumerate() {
        for _ in 0..per_thread {
            let value = phi.bv_fresh(2);
            let e = eq.add_event(EventData {
                thread: w,
                location: locations[rng.below(locs)],
                kind: if rng.chance(50) {
                    AccessKind::Write
                } else {
                    AccessKind::Read
                },
                guard: t,
                value,
                atomic: None,
                source: None,
            });
            program[k].push(e);
        }
    }
    // A random interleaving fixes the read-from map.
    let mut last: Vec<Event> = eq.threads[eq.init_thread()].events().collect();
    let mut rf: Vec<(Event, Event)> = Vec::new();
    let mut next = [0usize, 0];
    while next[0] < per_thread || next[1] < per_thread {
        let k = if next[0] == per_thread {
            1
        } else if next[1] == per_thread {
            0
        } else {
            rng.below(2)
        };
        let e = program[k][next[k]];
        next[k] += 1;
        let d = &eq.events[e];
        if d.is_write() {
            last[d.location.index()] = e;
        } else {
            rf.push((e, last[d.location.index()]));
        }
    }
    let po = ProgramOrder::unconditional(&eq).unwrap();
    // ζ over all candidates is quadratic; only the links of this read-from map are needed.
    let start = Instant::now();
    let links = encode_links(&eq, &po, &mut phi).unwrap();
    let t_links = start.elapsed();
    let chosen: Vec<Lit> = rf
        .iter()
        .map(|&(r, w)| {
            links
                .candidates(r)
                .iter()
                .find(|l| l.write == w)
                .unwrap()
                .lit
        })
        .collect();
    let chosen: hashbrown::HashSet<Lit> = chosen.into_iter().collect();
    let start = Instant::now();
    let mut one = common::solver();
    let check = encoder::exact_check(
        &eq,
        &po,
        &links,
        |l| l == t || chosen.contains(&l),
        &mut *one,
    )
    .unwrap();
    println!(
        "events {} links {} ζ {} in {:?}; exact_check {:?}",
        eq.events.len(),
        links.num_links(),
        links.size(),
        t_links,
        start.elapsed()
    );
    match check {
        ExactCheck::Feasible(order) => assert_eq!(order.len(), eq.events.len()),
        other => panic!("the interleaving exists: {other:?}"),
    }
}
