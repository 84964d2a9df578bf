use super::*;
use crate::explore::concolic::encode::Circuits;
use crate::explore::concolic::term::BvOp;
use encoder::Encoder;
use solver_glue::{make_solver, SolveResult};

fn key(thread: u32, index: u32) -> InputKey {
    InputKey { thread, index }
}

fn d(cond: SymId, taken: bool) -> Decision {
    Decision { cond, taken }
}

/// The query's answer from its components' (as `split` combines them, the solver aside).
fn decide(terms: &Terms, want: &[Decision]) -> Answer {
    let mut model = Vec::new();
    let parts = components(terms, want);
    if parts.iter().any(|c| c.answer == Answer::Unsat) {
        return Answer::Unsat;
    }
    for c in parts {
        match c.answer {
            Answer::Sat(m) => model.extend(m),
            other => return other,
        }
    }
    Answer::Sat(model)
}

/// The solver's answer to `want` (the reference enumeration must agree with).
fn solver_sat(terms: &Terms, want: &[Decision]) -> bool {
    let mut solver = make_solver("batsat").unwrap();
    let mut enc = Encoder::new(&mut *solver);
    let mut c = Circuits::default();
    let lits: Vec<_> = want
        .iter()
        .map(|x| {
            let l = c.lit(terms, &mut enc, x.cond);
            if x.taken {
                l
            } else {
                !l
            }
        })
        .collect();
    enc.solver().solve(&lits) == SolveResult::Sat
}

/// A model enumeration gives makes every decision as wanted.
fn holds(terms: &Terms, want: &[Decision], model: &[(InputKey, u64)]) -> bool {
    let mut memo = HashMap::new();
    let input = |k: InputKey| {
        model
            .iter()
            .find(|(p, _)| *p == k)
            .map(|(_, v)| *v)
            .unwrap_or(0)
    };
    want.iter()
        .all(|x| (terms.eval(x.cond, &input, &mut memo) != 0) == x.taken)
}

/// Range assumptions (`lo <= x && x <= hi`, signed ints) bound the search; an index split on
/// `(x + y) % 3` over them is satisfiable exactly for the cells some pair reaches, and a
/// wanted cell no pair reaches is unsatisfiable, as the solver says.
#[test]
fn range_assumptions_and_an_index_split_agree_with_the_solver() {
    let mut t = Terms::default();
    let (x, y) = (t.input(key(0, 0), 32), t.input(key(0, 1), 32));
    let c = |t: &mut Terms, v: i64| t.constant(32, v as u64);
    let two = c(&mut t, 2);
    let three = c(&mut t, 3);
    let x_ge_2 = t.cmp(CmpOp::Slt, x, two); // wanted false
    let x_le_3 = t.cmp(CmpOp::Sle, x, three);
    let zero = c(&mut t, 0);
    let y_ge_0 = t.cmp(CmpOp::Sle, zero, y);
    let one = c(&mut t, 1);
    let y_lt_1 = t.cmp(CmpOp::Slt, y, one);
    let sum = t.bin(BvOp::Add, x, y);
    let cell = t.bin(BvOp::SRem, sum, three);
    let base = vec![
        d(x_ge_2, false),
        d(x_le_3, true),
        d(y_ge_0, true),
        d(y_lt_1, true),
    ];
    // x in 2..=3, y = 0: cells 2 and 0, never 1.
    for k in 0..4i64 {
        let kc = c(&mut t, k);
        let is_k = t.cmp(CmpOp::Eq, cell, kc);
        let mut want = base.clone();
        want.push(d(is_k, true));
        let r = decide(&t, &want);
        assert_eq!(
            matches!(r, Answer::Sat(_)),
            solver_sat(&t, &want),
            "cell {k}: {r:?}"
        );
        assert_eq!(matches!(r, Answer::Sat(_)), k == 0 || k == 2, "cell {k}");
        if let Answer::Sat(m) = r {
            assert!(holds(&t, &want, &m));
        }
    }
}

/// Without a small bound on a wide input, enumeration never answers UNSAT: `x > 1000000`
/// and `2 * x == 1` has no solution, yet the few points tried prove nothing and the query is
/// left to the solver; with `2 * x == 4` a tried point may answer, and then it holds.
#[test]
fn an_unbounded_wide_input_is_left_to_the_solver() {
    let mut t = Terms::default();
    let x = t.input(key(0, 0), 32);
    let big = t.constant(32, 1_000_000);
    let two = t.constant(32, 2);
    let twice = t.bin(BvOp::Mul, two, x);
    let gt = t.cmp(CmpOp::Ult, big, x);
    let one = t.constant(32, 1);
    let is1 = t.cmp(CmpOp::Eq, twice, one);
    assert_eq!(decide(&t, &[d(gt, true), d(is1, true)]), Answer::Unknown);
    let four = t.constant(32, 4);
    let is4 = t.cmp(CmpOp::Eq, twice, four);
    let want = [d(gt, true), d(is4, true)];
    match decide(&t, &want) {
        Answer::Sat(m) => assert!(holds(&t, &want, &m)),
        Answer::Unknown => {}
        Answer::Unsat => panic!("x = 2^31 + 2 is a solution"),
    }
}

/// Random queries of atoms and arithmetic over two narrow and one bounded wide input: the
/// enumeration's answer, when it gives one, is the solver's, and its models hold.
#[test]
fn random_queries_agree_with_the_solver() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let ops = [CmpOp::Eq, CmpOp::Ult, CmpOp::Ule, CmpOp::Slt, CmpOp::Sle];
    let bins = [
        BvOp::Add,
        BvOp::Sub,
        BvOp::Mul,
        BvOp::URem,
        BvOp::SRem,
        BvOp::And,
    ];
    let mut answered = [0u32; 2];
    for _ in 0..300 {
        let mut t = Terms::default();
        let a = t.input(key(0, 0), 8);
        let b = t.input(key(1, 0), 8);
        let wide = t.input(key(2, 0), 16);
        let mut want = Vec::new();
        // Bounds on the wide input near one value, signed or unsigned, either side, either way.
        let near = next() % 0x10000;
        for _ in 0..2 {
            let op = ops[(next() % 5) as usize];
            let c = t.constant(16, near + next() % 40);
            let cmp = if next() % 2 == 0 {
                t.cmp(op, wide, c)
            } else {
                t.cmp(op, c, wide)
            };
            want.push(d(cmp, next() % 2 == 0));
        }
        // Arithmetic linking the inputs.
        let wa = t.ext(next() % 2 == 0, 16, a);
        let wb = t.ext(false, 16, b);
        for _ in 0..2 {
            let l = [wa, wb, wide][(next() % 3) as usize];
            let r = [wa, wb, wide][(next() % 3) as usize];
            let e = t.bin(bins[(next() % 6) as usize], l, r);
            let c = t.constant(16, next() % 8);
            let cmp = t.cmp(ops[(next() % 5) as usize], e, c);
            want.push(d(cmp, next() % 2 == 0));
        }
        let sat = solver_sat(&t, &want);
        match decide(&t, &want) {
            Answer::Sat(m) => {
                assert!(sat, "{want:?}");
                assert!(holds(&t, &want, &m));
                answered[0] += 1;
            }
            Answer::Unsat => {
                assert!(!sat, "{want:?}");
                answered[1] += 1;
            }
            Answer::Unknown => {}
        }
    }
    // Both answers occur (the test exercises them).
    assert!(answered[0] > 20 && answered[1] > 20, "{answered:?}");
}
