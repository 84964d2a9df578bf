//! ζ's value equalities left to the ordering theory (`ValueEquality::Theory`) against the same
//! equalities as clauses and against brute force: on seeded random event structures whose
//! 2-bit values are partly constant and partly fixed by unit clauses, the read-from maps the solver with the
//! theory accepts are exactly the schedulable maps in which every read can take its write's
//! value, in both modes, and each accepted model passes the theory's own schedule and value
//! check. Both back ends that take a propagator.

mod common;

use std::collections::HashSet;

use common::accepted::{connected_theory, each_accepted_map};
use common::events::{Plan, Reference};
use common::Rng;
use cranelift_entity::EntityRef;
use encoder::{
    encode_links_with, BitVec, Coherence, Encoder, Event, OrderTheory, ProgramOrder, ValueEquality,
};
use solver_glue::make_solver;

/// Per event and bit: `Some(v)` when a unit clause fixes it.
type Fixed = Vec<[Option<bool>; 2]>;

/// Whether every bit can be chosen so that each read equals the write it reads: a write's
/// bit must match every fixed bit among itself and its readers.
fn values_fit(rf: &[Option<usize>], fixed: &Fixed) -> bool {
    (0..2).all(|bit| {
        (0..rf.len()).all(|w| {
            let mut want = fixed[w][bit];
            for (r, &src) in rf.iter().enumerate() {
                if src != Some(w) {
                    continue;
                }
                match (want, fixed[r][bit]) {
                    (Some(a), Some(b)) if a != b => return false,
                    (None, b) => want = b,
                    _ => {}
                }
            }
            true
        })
    })
}

#[derive(Default, Debug)]
struct Tally {
    instances: usize,
    maps: usize,
    value_clauses: u64,
    propagations: u64,
    conflicts: u64,
}

fn agree(solver: &str, mode: ValueEquality, seed: u64, rounds: usize) -> Tally {
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
        // Each bit: a constant, fixed by a unit clause, or free.
        let mut eq = eq;
        let tru = enc.tru();
        let mut fixed: Fixed = vec![[None; 2]; eq.events.len()];
        for (e, d) in eq.events.iter_mut() {
            let mut bits = d.value.bits().to_vec();
            for (bit, b) in bits.iter_mut().enumerate() {
                let v = rng.chance(50);
                match rng.below(100) {
                    0..25 => *b = if v { tru } else { !tru },
                    25..60 => enc.assert_lit(if v { *b } else { !*b }),
                    _ => continue,
                }
                fixed[e.index()][bit] = Some(v);
            }
            d.value = BitVec::from_bits(bits);
        }
        let Ok(po) = ProgramOrder::unconditional(&eq) else {
            continue;
        };
        let links = encode_links_with(&eq, &po, &mut enc, mode).expect("links");
        assert_eq!(links.values_in_theory(), mode == ValueEquality::Theory);
        let coherence = Coherence::encode(&eq, &po, &mut enc);
        let Ok(theory) = OrderTheory::new(&eq, &po, &links, &coherence, false) else {
            continue;
        };
        enc.solver()
            .connect_propagator(Box::new(theory))
            .expect("takes a propagator");
        tally.instances += 1;
        tally.value_clauses += links.value_clauses();
        let expected: HashSet<Vec<Option<usize>>> = reference
            .all_rf_maps()
            .into_iter()
            .filter(|rf| values_fit(rf, &fixed))
            .collect();
        let what = format!("{solver} {mode:?} round {round}");
        let (found, stats) = each_accepted_map(&mut enc, &links, reference.n, &what, |enc, acc| {
            for (r, w) in acc.rf.iter().enumerate() {
                let Some(w) = *w else { continue };
                let (rv, wv) = (
                    &eq.events[Event::new(r)].value,
                    &eq.events[Event::new(w)].value,
                );
                assert_eq!(
                    enc.bv_value_u64(rv),
                    enc.bv_value_u64(wv),
                    "{what}: read e{r} differs from its write"
                );
            }
            assert!(
                expected.contains(&acc.rf),
                "{what}: accepted map {:?} is not feasible",
                acc.rf
            );
            connected_theory(enc)
                .schedule(&eq, |l| acc.holds(l))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
        });
        assert_eq!(
            found, expected,
            "{what}: accepted maps differ from the feasible ones"
        );
        tally.maps += found.len();
        tally.propagations += stats.propagations;
        tally.conflicts += stats.conflicts;
    }
    tally
}

#[test]
fn values_in_the_theory_accept_exactly_the_feasible_maps() {
    for solver in ["batsat", "cadical"] {
        let lazy = agree(solver, ValueEquality::Theory, 0x7a1_0e5, 600);
        let eager = agree(solver, ValueEquality::Clauses, 0x7a1_0e5, 600);
        eprintln!("{solver}: theory {lazy:?}, clauses {eager:?}");
        // The same instances and maps; the theory did the value work.
        assert!(lazy.instances >= 400, "{lazy:?}");
        assert_eq!((lazy.instances, lazy.maps), (eager.instances, eager.maps));
        assert!(lazy.value_clauses > 0 && lazy.propagations > eager.propagations);
    }
}

#[test]
fn the_threshold_decides_where_values_go() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for _ in 0..50 {
        let plan = Plan::random(&mut rng, 10, false);
        let mut sizes = Vec::new();
        for mode in [
            ValueEquality::Clauses,
            ValueEquality::TheoryAbove(u64::MAX),
            ValueEquality::TheoryAbove(0),
        ] {
            let mut s = make_solver("batsat").unwrap();
            let mut enc = Encoder::new(&mut *s);
            let (eq, _) = plan.build(&mut enc);
            let Ok(po) = ProgramOrder::unconditional(&eq) else {
                break;
            };
            let links = encode_links_with(&eq, &po, &mut enc, mode).unwrap();
            sizes.push((
                links.values_in_theory(),
                links.value_clauses(),
                links.size().clauses,
            ));
        }
        if sizes.len() < 3 || sizes[0].1 == 0 {
            continue;
        }
        let (clauses, high, zero) = (sizes[0], sizes[1], sizes[2]);
        assert_eq!(clauses, high, "a limit not passed keeps the clauses");
        assert!(zero.0 && !clauses.0, "{sizes:?}");
        // Exactly the three-literal value clauses are left out.
        assert_eq!(zero.2 + zero.1, clauses.2, "{sizes:?}");
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}
