//! The ordering theory inside the search against brute force: on seeded random event
//! structures (threads, guards, create/join points, atomic blocks), the read-from maps the
//! solver with the theory connected accepts are exactly those some sequentially consistent
//! schedule realises, and the schedule the theory reports for each is valid. Run on both back
//! ends that take a propagator.

mod common;

use common::accepted::{connected_theory, each_accepted_map};
use common::events::{Plan, Reference};
use common::Rng;
use cranelift_entity::EntityRef;
use encoder::{encode_links, Coherence, Encoder, OrderTheory, ProgramOrder};
use solver_glue::make_solver;

#[derive(Default, Debug)]
struct Tally {
    instances: usize,
    maps: usize,
    conflicts: u64,
    propagations: u64,
}

fn agree_with_brute_force(solver: &str, seed: u64, rounds: usize) -> Tally {
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for round in 0..rounds {
        let plan = Plan::random(&mut rng, 10, true);
        let assign: Vec<bool> = (0..plan.pool).map(|_| rng.chance(50)).collect();
        let reference = Reference::new(&plan, &assign);
        let mut s = make_solver(solver).unwrap();
        let mut enc = Encoder::new(&mut *s);
        let (eq, pool) = plan.build(&mut enc);
        for (&l, &b) in pool.iter().zip(&assign) {
            enc.assert_lit(if b { l } else { !l });
        }
        let Ok(po) = ProgramOrder::unconditional(&eq) else {
            continue;
        };
        let links = encode_links(&eq, &po, &mut enc).expect("links");
        let coherence = Coherence::encode(&eq, &po, &mut enc);
        let Ok(theory) = OrderTheory::new(&eq, &po, &links, &coherence, false) else {
            continue;
        };
        enc.solver()
            .connect_propagator(Box::new(theory))
            .expect("takes a propagator");
        tally.instances += 1;
        let expected = reference.all_rf_maps();
        let what = format!("{solver} round {round}");
        let (found, stats) = each_accepted_map(&mut enc, &links, reference.n, &what, |enc, acc| {
            assert!(
                expected.contains(&acc.rf),
                "{what}: accepted read-from map {:?} has no schedule",
                acc.rf
            );
            let order = connected_theory(enc)
                .schedule(&eq, |l| acc.holds(l))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let order: Vec<usize> = order.iter().map(|e| e.index()).collect();
            if let Err(msg) = reference.check_order(&order, &acc.rf) {
                panic!("{what}: schedule {order:?} invalid: {msg}");
            }
        });
        assert_eq!(
            found.len(),
            expected.len(),
            "{what}: {} of {} feasible read-from maps found",
            found.len(),
            expected.len()
        );
        tally.maps += found.len();
        tally.conflicts += stats.conflicts;
        tally.propagations += stats.propagations;
    }
    tally
}

#[test]
fn theory_on_batsat_accepts_exactly_the_schedulable_read_from_maps() {
    let t = agree_with_brute_force("batsat", 0x0b5e_55ed, 1500);
    eprintln!("{t:?}");
    assert!(t.instances >= 1000, "{t:?}");
    assert!(t.conflicts > 0 && t.propagations > 0, "{t:?}");
}

#[test]
fn theory_on_cadical_accepts_exactly_the_schedulable_read_from_maps() {
    let t = agree_with_brute_force("cadical", 0xc0de_cafe, 1500);
    eprintln!("{t:?}");
    assert!(t.instances >= 1000, "{t:?}");
    assert!(t.conflicts > 0 && t.propagations > 0, "{t:?}");
}
