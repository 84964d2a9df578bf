//! Tests of the closure against the exhaustive reference ([`super::brute`]); the hand-made
//! EOGs (atomic blocks, the paper's examples, scale) are in `examples`.

use std::time::Instant;

use cranelift_entity::EntityRef;
use solver_glue::Lit;

use super::brute::{feasible, Selection};
use super::*;

/// Small deterministic PRNG (xorshift64*), so failures replay from the seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn lit(n: i32) -> Lit {
    Lit::from_dimacs(n)
}

fn t(i: usize) -> ThreadId {
    ThreadId::new(i)
}

fn v(i: usize) -> Loc {
    Loc::new(i)
}

fn po(g: &mut EogBuilder, a: Event, b: Event) {
    g.add_po(a, b);
}

/// A random small EOG: main writes every location first, 2–3 worker threads (some events
/// guarded, some pairs of events atomic blocks, many of them lock-like read-then-write of
/// one location), maybe final reads in main after the joins; every read reads a random write
/// of its location (possibly a later one) or, rarely, nothing.
fn random_eog(rng: &mut Rng, max_nodes: usize) -> EogBuilder {
    let mut g = EogBuilder::new();
    let nlocs = 1 + rng.below(3);
    let inits: Vec<Event> = (0..nlocs)
        .map(|l| g.add_event(t(0), v(l), Access::Write, None, None))
        .collect();
    let mut budget = max_nodes.saturating_sub(nlocs).max(2);
    let finals = if budget > 3 && rng.chance(30) { 1 } else { 0 };
    budget -= finals;
    let workers = 2 + rng.below(2);
    let mut next_block = 0;
    let mut lasts = Vec::new();
    for w in 0..workers {
        let share = if w + 1 == workers {
            budget
        } else {
            (1 + rng.below(3)).min(budget.saturating_sub(workers - 1 - w))
        };
        budget -= share;
        let pool = [lit((w * 2 + 1) as i32), lit((w * 2 + 2) as i32)];
        let mut evs: Vec<Event> = Vec::new();
        for _ in 0..share {
            let guard = |rng: &mut Rng| {
                if rng.chance(50) {
                    None
                } else {
                    Some(pool[rng.below(2)])
                }
            };
            let access = |rng: &mut Rng| {
                if rng.chance(50) {
                    Access::Read
                } else {
                    Access::Write
                }
            };
            if rng.chance(30) {
                let key = Some(BlockKey::new(next_block));
                next_block += 1;
                let gd = guard(rng);
                if rng.chance(60) {
                    let l = v(rng.below(nlocs));
                    evs.push(g.add_event(t(w + 1), l, Access::Read, gd, key));
                    evs.push(g.add_event(t(w + 1), l, Access::Write, gd, key));
                } else {
                    for _ in 0..2 {
                        let (l, a, gd2) = (v(rng.below(nlocs)), access(rng), guard(rng));
                        evs.push(g.add_event(t(w + 1), l, a, gd2, key));
                    }
                }
            } else {
                let (l, a, gd) = (v(rng.below(nlocs)), access(rng), guard(rng));
                evs.push(g.add_event(t(w + 1), l, a, gd, None));
            }
        }
        if evs.is_empty() {
            continue;
        }
        for &i in &inits {
            po(&mut g, i, evs[0]);
        }
        if rng.chance(50) {
            for i in 0..evs.len() {
                for j in i + 1..evs.len() {
                    po(&mut g, evs[i], evs[j]);
                }
            }
        } else {
            for p in evs.windows(2) {
                po(&mut g, p[0], p[1]);
            }
        }
        lasts.push(*evs.last().expect("non-empty"));
    }
    for _ in 0..finals {
        let f = g.add_event(t(0), v(rng.below(nlocs)), Access::Read, None, None);
        for &l in &lasts {
            po(&mut g, l, f);
        }
    }
    let events: Vec<Event> = (0..g.num_events()).map(Event::new).collect();
    let writes_of = |g: &EogBuilder, loc: Loc| -> Vec<Event> {
        events
            .iter()
            .copied()
            .filter(|&w| g.event(w).access == Access::Write && g.event(w).loc == loc)
            .collect()
    };
    // Half of the graphs take their read-from map from a random valid schedule (then at most
    // one read is redirected), the other half pick every source at random.
    let mut sources: Vec<(Event, Event)> = Vec::new();
    if rng.chance(50) {
        for (r, w) in random_schedule_sources(&g, rng) {
            sources.push((w, r));
        }
        if rng.chance(60) && !sources.is_empty() {
            let i = rng.below(sources.len());
            let r = sources[i].1;
            let ws = writes_of(&g, g.event(r).loc);
            sources[i].0 = ws[rng.below(ws.len())];
        }
    } else {
        for &r in &events {
            if g.event(r).access != Access::Read || rng.chance(8) {
                continue;
            }
            let ws = writes_of(&g, g.event(r).loc);
            sources.push((ws[rng.below(ws.len())], r));
        }
    }
    for (i, (w, r)) in sources.into_iter().enumerate() {
        g.add_rf(w, r, lit(100 + i as i32));
    }
    g
}

/// Runs the nodes of `g` in a random order that respects program order and returns, for each
/// read, the write it then reads: (read, write).
fn random_schedule_sources(g: &EogBuilder, rng: &mut Rng) -> Vec<(Event, Event)> {
    let mut po_in: Vec<Vec<Event>> = vec![Vec::new(); g.num_events()];
    for p in g.po_edges() {
        po_in[p.to.index()].push(p.from);
    }
    let mut done = vec![false; g.num_events()];
    let mut placed = vec![false; g.num_nodes()];
    let mut last: std::collections::HashMap<Loc, Event> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for _ in 0..g.num_nodes() {
        let ready: Vec<Node> = (0..g.num_nodes())
            .map(Node::new)
            .filter(|&n| {
                !placed[n.index()]
                    && g.node(n).events.iter().all(|e| {
                        po_in[e.index()]
                            .iter()
                            .all(|a| done[a.index()] || g.event(*a).node == n)
                    })
            })
            .collect();
        let n = ready[rng.below(ready.len())];
        placed[n.index()] = true;
        for &e in &g.node(n).events {
            let d = g.event(e);
            match d.access {
                Access::Read => out.extend(last.get(&d.loc).map(|&w| (e, w))),
                Access::Write => {
                    last.insert(d.loc, e);
                }
            }
            done[e.index()] = true;
        }
    }
    out
}

fn all_feasible(g: &EogBuilder) -> bool {
    feasible(g, &Selection::all(g), None)
}

/// Every returned reason entails infeasibility: the sub-EOG it entails has no schedule.
fn assert_reasons_sound(g: &EogBuilder, reasons: &[Vec<Lit>], what: &str) {
    assert!(!reasons.is_empty(), "{what}: Infeasible without a reason");
    let lits = g.all_literals();
    for (i, r) in reasons.iter().enumerate() {
        assert!(
            r.windows(2).all(|p| p[0] < p[1]),
            "{what}: reason not sorted"
        );
        assert!(
            r.iter().all(|l| lits.contains(l)),
            "{what}: foreign literal"
        );
        for (j, q) in reasons.iter().enumerate() {
            if i != j {
                assert!(
                    !q.iter().all(|l| r.contains(l)),
                    "{what}: reason {r:?} subsumed by {q:?}"
                );
            }
        }
        let sel = Selection::entailed_by(g, r);
        assert!(
            !feasible(g, &sel, None),
            "{what}: reason {r:?} does not entail infeasibility"
        );
    }
}

fn close(g: &mut EogBuilder) -> ClosureResult {
    g.close(ClosureLimits::default())
}

// ----- soundness against brute force -----------------------------------------------------

#[test]
fn random_eogs_infeasible_verdicts_and_every_reason_are_sound() {
    let (mut infeasible, mut brute_infeasible, mut not_sure_infeasible, mut reasons) = (0, 0, 0, 0);
    for seed in 0..800 {
        let mut rng = Rng::new(seed);
        let mut g = random_eog(&mut rng, 9);
        let exact = all_feasible(&g);
        if !exact {
            brute_infeasible += 1;
        }
        match close(&mut g) {
            ClosureResult::Infeasible { reasons: rs } => {
                assert!(
                    !exact,
                    "seed {seed}: closure says infeasible, brute force found a schedule\n{}",
                    g.to_dot()
                );
                assert!(
                    !g.stats().expect("closed").fallback,
                    "seed {seed}: fallback"
                );
                assert_reasons_sound(&g, &rs, &format!("seed {seed}"));
                infeasible += 1;
                reasons += rs.len();
            }
            ClosureResult::NotSure => {
                if !exact {
                    not_sure_infeasible += 1;
                }
            }
        }
    }
    println!(
        "800 random EOGs: {brute_infeasible} infeasible by brute force, {infeasible} found by \
         the closure ({reasons} reasons), {not_sure_infeasible} infeasible but NotSure"
    );
    // The generator must exercise both verdicts, and the closure must catch most conflicts.
    assert!(infeasible > 200 && brute_infeasible < 800 - 150);
    assert!(not_sure_infeasible * 5 < brute_infeasible);
}

#[test]
fn random_eogs_every_derived_order_reason_is_entailed() {
    // Theorem 5.1: each reason of u ≺ v entails the order, so the sub-EOG it entails has no
    // schedule with v's node before u's node.
    let limits = ClosureLimits {
        reasons_without_cycle: true,
        ..ClosureLimits::default()
    };
    let mut checked = 0;
    for seed in 1000..1250 {
        let mut rng = Rng::new(seed);
        let mut g = random_eog(&mut rng, 7);
        let cyclic = g.close(limits) != ClosureResult::NotSure;
        let firsts: Vec<Event> = (0..g.num_nodes())
            .map(|n| g.node(Node::new(n)).events[0])
            .collect();
        for &a in &firsts {
            for &b in &firsts {
                if a == b || g.ordered(a, b) != Some(true) {
                    continue;
                }
                let rs = g.order_reasons(a, b).expect("reason pass ran");
                // Orders derived only through a cycle keep no reason (they are useless).
                assert!(
                    cyclic || !rs.is_empty(),
                    "seed {seed}: ordered pair without reasons"
                );
                for r in rs {
                    let sel = Selection::entailed_by(&g, &r);
                    let (na, nb) = (g.event(a).node, g.event(b).node);
                    // The reason must keep both nodes in the graph.
                    for n in [na, nb] {
                        assert!(
                            g.node(n).events.iter().any(|e| sel.events[e.index()]),
                            "seed {seed}: reason {r:?} of {a}≺{b} does not entail {n}"
                        );
                    }
                    assert!(
                        !feasible(&g, &sel, Some((nb, na))),
                        "seed {seed}: reason {r:?} does not entail {a} ≺ {b}\n{}",
                        g.to_dot()
                    );
                    checked += 1;
                }
            }
        }
    }
    println!("checked {checked} (order, reason) pairs");
    assert!(checked > 1000);
}

#[test]
fn random_eogs_with_small_k_stay_sound() {
    let limits = ClosureLimits {
        reasons_per_order: 1,
        ..ClosureLimits::default()
    };
    for seed in 2000..2300 {
        let mut rng = Rng::new(seed);
        let mut g = random_eog(&mut rng, 9);
        if let ClosureResult::Infeasible { reasons } = g.close(limits) {
            assert!(!all_feasible(&g), "seed {seed}");
            assert_reasons_sound(&g, &reasons, &format!("seed {seed} (K=1)"));
        }
    }
}

#[test]
fn random_eogs_explained_reasons_are_sound() {
    // Without the reason pass, reasons come from the derivation log of the first pass.
    let limits = ClosureLimits {
        max_reason_nodes: 0,
        ..ClosureLimits::default()
    };
    let (mut found, mut total_len) = (0, 0);
    for seed in 3000..3400 {
        let mut rng = Rng::new(seed);
        let mut g = random_eog(&mut rng, 9);
        if let ClosureResult::Infeasible { reasons } = g.close(limits) {
            assert!(!all_feasible(&g), "seed {seed}");
            let stats = g.stats().expect("closed");
            assert!(!stats.fallback && stats.explained > 0, "seed {seed}");
            assert_reasons_sound(&g, &reasons, &format!("seed {seed} (explained)"));
            found += reasons.len();
            total_len += reasons.iter().map(Vec::len).sum::<usize>();
        }
    }
    println!(
        "explained {found} reasons, mean length {:.2}",
        total_len as f64 / found as f64
    );
    assert!(found > 100);
}

mod examples;
