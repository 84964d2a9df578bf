//! ζ pruning and link semantics, program order through create/join points, equation checks.

mod common;

use cranelift_entity::EntityRef;
use encoder::{
    encode_links, AccessKind, Encoder, Equation, EquationError, Event, EventData, Location,
    ProgramOrder, Thread,
};
use solver_glue::{Lit, SolveResult};

fn access(
    eq: &mut Equation,
    enc: &mut Encoder,
    t: Thread,
    loc: Location,
    kind: AccessKind,
    guard: Lit,
) -> Event {
    let value = enc.bv_fresh(3);
    eq.add_event(EventData {
        thread: t,
        location: loc,
        kind,
        guard,
        value,
        atomic: None,
        source: None,
    })
}

/// Location `x` (initially 0) and a `main` thread that creates one thread per value, each
/// writing its value (`width` bits) to `x` once: the reads `main` makes after the creates have
/// every write as a candidate.
fn one_writer_per_value(
    eq: &mut Equation,
    enc: &mut Encoder,
    width: u32,
    values: impl IntoIterator<Item = u64>,
) -> (Thread, Location) {
    let t = enc.tru();
    let x = eq.add_location("x");
    eq.add_init_write(x, enc.bv_const(width, 0));
    let main = eq.add_thread();
    for k in values {
        let th = eq.add_thread();
        eq.add_create(main, th, t, None);
        let value = enc.bv_const(width, k);
        eq.add_event(EventData {
            thread: th,
            location: x,
            kind: AccessKind::Write,
            guard: t,
            value,
            atomic: None,
            source: None,
        });
    }
    (main, x)
}

#[test]
fn pruning_keeps_exactly_the_writes_a_read_can_see() {
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let g = enc.new_lit();
    let t = enc.tru();
    let mut eq = Equation::new(t);
    let x = eq.add_location("x");
    let init = eq.add_init_write(x, enc.bv_const(3, 0));
    let main = eq.add_thread();
    let other = eq.add_thread();
    eq.add_create(main, other, t, None);
    let w_other = access(&mut eq, &mut enc, other, x, AccessKind::Write, t);
    let w1 = access(&mut eq, &mut enc, main, x, AccessKind::Write, t);
    let w2 = access(&mut eq, &mut enc, main, x, AccessKind::Write, g);
    let r = access(&mut eq, &mut enc, main, x, AccessKind::Read, t);
    let w_after = access(&mut eq, &mut enc, main, x, AccessKind::Write, t);
    let po = ProgramOrder::unconditional(&eq).unwrap();
    let links = encode_links(&eq, &po, &mut enc).unwrap();
    let mut cands: Vec<Event> = links.candidates(r).iter().map(|l| l.write).collect();
    cands.sort();
    // init is hidden by the unconditional w1; w1 is not hidden by the guarded w2; w_after
    // comes later in program order.
    assert_eq!(cands, vec![w_other, w1, w2]);
    assert!(!cands.contains(&init) && !cands.contains(&w_after));
    // Once w2 is unconditional too, w1 is hidden.
    let mut eq2 = eq.clone();
    eq2.events[w2].guard = t;
    let links2 = encode_links(&eq2, &po, &mut enc).unwrap();
    let mut cands2: Vec<Event> = links2.candidates(r).iter().map(|l| l.write).collect();
    cands2.sort();
    assert_eq!(cands2, vec![w_other, w2]);
}

/// Many candidates (sequential-counter at-most-one): each model picks exactly one link when
/// the read happens, none otherwise, and the read's value is the chosen write's.
#[test]
fn each_executed_read_takes_exactly_one_write() {
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let t = enc.tru();
    let mut eq = Equation::new(t);
    let (main, x) = one_writer_per_value(&mut eq, &mut enc, 3, 1..7u64);
    let g = enc.new_lit();
    // Read after the creates: all six thread writes and the initial write are candidates.
    let r = access(&mut eq, &mut enc, main, x, AccessKind::Read, g);
    let po = ProgramOrder::unconditional(&eq).unwrap();
    let links = encode_links(&eq, &po, &mut enc).unwrap();
    assert_eq!(links.candidates(r).len(), 7);
    assert_eq!(links.num_links(), 7);
    let rval = eq.events[r].value.clone();
    let mut seen = Vec::new();
    loop {
        match enc.solver().solve(&[g]) {
            SolveResult::Sat => {}
            SolveResult::Unsat => break,
            SolveResult::Interrupted => panic!("no budget"),
        }
        let chosen: Vec<Event> = links
            .candidates(r)
            .iter()
            .filter(|l| enc.value(l.lit))
            .map(|l| l.write)
            .collect();
        assert_eq!(chosen.len(), 1);
        let w = links.read_from(r, |l| enc.value(l)).unwrap();
        assert_eq!(w, chosen[0]);
        assert_eq!(
            enc.bv_value_u64(&rval),
            enc.bv_value_u64(&eq.events[w].value)
        );
        seen.push(w);
        let lit = links
            .candidates(r)
            .iter()
            .find(|l| l.write == w)
            .unwrap()
            .lit;
        enc.add_clause(&[!lit]);
    }
    assert_eq!(seen.len(), 7);
    // With the read not executed, no link may hold.
    assert_eq!(enc.solver().solve(&[!g]), SolveResult::Sat);
    assert!(links.candidates(r).iter().all(|l| !enc.value(l.lit)));
}

#[test]
fn read_of_a_value_of_another_width_is_an_error() {
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let t = enc.tru();
    let mut eq = Equation::new(t);
    let x = eq.add_location("x");
    eq.add_init_write(x, enc.bv_const(8, 0));
    let main = eq.add_thread();
    access(&mut eq, &mut enc, main, x, AccessKind::Read, t);
    let po = ProgramOrder::unconditional(&eq).unwrap();
    let err = encode_links(&eq, &po, &mut enc).unwrap_err();
    assert!(matches!(err, EquationError::WidthMismatch { .. }));
    assert!(err.to_string().contains("width"));
}

#[test]
fn program_order_passes_through_create_and_join_points() {
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let t = enc.tru();
    let g = enc.new_lit();
    let mut eq = Equation::new(t);
    let x = eq.add_location("x");
    let init = eq.add_init_write(x, enc.bv_const(3, 0));
    let main = eq.add_thread();
    let child = eq.add_thread();
    let grandchild = eq.add_thread();
    let side = eq.add_thread();
    let a = access(&mut eq, &mut enc, main, x, AccessKind::Write, t);
    eq.add_create(main, child, t, None);
    eq.add_create(main, side, t, None);
    // The child creates the grandchild before doing anything itself.
    eq.add_create(child, grandchild, t, None);
    let c = access(&mut eq, &mut enc, grandchild, x, AccessKind::Write, t);
    eq.add_join(child, grandchild, t, None);
    let s1 = access(&mut eq, &mut enc, side, x, AccessKind::Write, t);
    eq.add_join(main, child, t, None);
    // A join that only happens under g.
    eq.add_join(main, side, g, None);
    let d = access(&mut eq, &mut enc, main, x, AccessKind::Read, t);
    let po = ProgramOrder::unconditional(&eq).unwrap();
    assert!(po.po_before(init, a) && po.po_before(init, c) && po.po_before(init, s1));
    assert!(
        po.po_before(a, c),
        "parent before create precedes the grandchild"
    );
    assert!(
        po.po_before(c, d),
        "grandchild joined through the child precedes main's read"
    );
    assert!(!po.po_before(c, s1) && !po.po_before(s1, c));
    assert!(
        !po.po_before(s1, d),
        "the guarded join is not unconditional"
    );
    assert!(!po.po_before(d, a) && !po.po_before(a, a));
    let with_g = ProgramOrder::new(&eq, |l| l == g).unwrap();
    assert!(with_g.po_before(s1, d));
    let links = encode_links(&eq, &po, &mut enc).unwrap();
    let mut cands: Vec<Event> = links.candidates(d).iter().map(|l| l.write).collect();
    cands.sort();
    // a and the init write are hidden behind c (always between them and d).
    assert_eq!(cands, vec![c, s1]);
    assert_eq!(eq.init_thread(), Thread::new(0));
}

#[test]
fn cyclic_program_order_is_reported() {
    let mut s = common::solver();
    let enc = Encoder::new(&mut *s);
    let t = enc.tru();
    let mut eq = Equation::new(t);
    let a = eq.add_thread();
    let b = eq.add_thread();
    eq.add_join(a, b, t, None);
    eq.add_join(b, a, t, None);
    assert_eq!(
        ProgramOrder::unconditional(&eq).unwrap_err(),
        EquationError::ProgramOrderCycle
    );
}

#[test]
fn malformed_atomic_blocks_and_init_events_are_rejected() {
    let mut s = common::solver();
    let mut enc = Encoder::new(&mut *s);
    let t = enc.tru();
    let mut eq = Equation::new(t);
    let x = eq.add_location("x");
    eq.add_init_write(x, enc.bv_const(3, 0));
    let main = eq.add_thread();
    let other = eq.add_thread();
    let blk = eq.new_atomic_block();
    let e1 = access(&mut eq, &mut enc, main, x, AccessKind::Write, t);
    access(&mut eq, &mut enc, main, x, AccessKind::Write, t);
    let e3 = access(&mut eq, &mut enc, main, x, AccessKind::Write, t);
    let e4 = access(&mut eq, &mut enc, other, x, AccessKind::Write, t);
    assert_eq!(eq.validate(), Ok(()));
    let mut gap = eq.clone();
    gap.events[e1].atomic = Some(blk);
    gap.events[e3].atomic = Some(blk);
    assert_eq!(
        gap.validate(),
        Err(EquationError::AtomicBlockNotContiguous(blk))
    );
    let mut split = eq.clone();
    split.events[e3].atomic = Some(blk);
    split.events[e4].atomic = Some(blk);
    assert_eq!(
        split.validate(),
        Err(EquationError::AtomicBlockNotContiguous(blk))
    );
    let mut no_init = eq.clone();
    let y = no_init.add_location("y");
    access(&mut no_init, &mut enc, main, y, AccessKind::Read, t);
    assert_eq!(no_init.validate(), Err(EquationError::NoInitialWrite(y)));
    let mut bad_init = eq.clone();
    let init = bad_init.init_thread();
    let r = access(&mut bad_init, &mut enc, init, x, AccessKind::Read, t);
    assert_eq!(bad_init.validate(), Err(EquationError::BadInitEvent(r)));
}

/// Candidate writes of one value share one value equality (`SharedValues` in `links`): every
/// link can still be chosen, the read then has exactly its write's value, a shared-value link
/// cannot hold with another value, and the shared equality makes fewer clauses than one
/// equality per link.
#[test]
fn writes_of_one_value_share_their_equality() {
    let build = |values: &[u64]| {
        let mut s = common::solver();
        let mut enc = Encoder::new(&mut *s);
        let t = enc.tru();
        let mut eq = Equation::new(t);
        let (main, x) = one_writer_per_value(&mut eq, &mut enc, 8, values.iter().copied());
        let value = enc.bv_fresh(8);
        let r = eq.add_event(EventData {
            thread: main,
            location: x,
            kind: AccessKind::Read,
            guard: t,
            value,
            atomic: None,
            source: None,
        });
        let po = ProgramOrder::unconditional(&eq).unwrap();
        let links = encode_links(&eq, &po, &mut enc).unwrap();
        let mut chosen = Vec::new();
        for l in links.candidates(r) {
            assert_eq!(enc.solver().solve(&[l.lit]), SolveResult::Sat);
            let got = enc.bv_value_u64(&eq.events[r].value);
            assert_eq!(got, enc.bv_value_u64(&eq.events[l.write].value));
            // No other value with this link.
            let other = enc.bv_const(8, got ^ 1);
            let same = enc.bv_eq(&eq.events[r].value, &other);
            assert_eq!(enc.solver().solve(&[l.lit, same]), SolveResult::Unsat);
            chosen.push(got);
        }
        chosen.sort_unstable();
        (chosen, links.size().clauses)
    };
    let (shared, shared_clauses) = build(&[5, 5, 5, 2]);
    assert_eq!(shared, vec![0, 2, 5, 5, 5]);
    let (distinct, distinct_clauses) = build(&[5, 6, 7, 2]);
    assert_eq!(distinct, vec![0, 2, 5, 6, 7]);
    assert!(
        shared_clauses < distinct_clauses,
        "{shared_clauses} clauses with a shared value, {distinct_clauses} without"
    );
}
