//! All back ends against each other and against brute force, on seeded random formulas and on
//! a long incremental sequence.

mod common;

use cnf_gen::{incremental_script, random_ksat, Rng, ScriptShape};
use common::{all_solvers, brute_force, check_core, check_model};
use solver_glue::{Lit, SolveResult, Var};

#[test]
fn random_formulas_agree_with_each_other_and_brute_force() {
    let mut rng = Rng::new(2024);
    let (mut sat, mut unsat) = (0, 0);
    for seed in 0..300u64 {
        let vars = 5 + rng.below(16) as u32;
        let ratio = 3.0 + rng.below(300) as f64 / 100.0;
        let k = 2 + rng.below(3) as usize;
        let cnf = random_ksat(vars, (ratio * f64::from(vars)) as usize, k, seed);
        let assumptions: Vec<Lit> = (0..rng.below(5)).map(|_| rng.lit(vars)).collect();
        let expected = brute_force(&cnf, &assumptions);
        for mut solver in all_solvers() {
            for clause in &cnf.clauses {
                solver.add_clause(clause);
            }
            let result = solver.solve(&assumptions);
            let want = if expected {
                SolveResult::Sat
            } else {
                SolveResult::Unsat
            };
            assert_eq!(result, want, "{} on seed {seed}", solver.name());
            if expected {
                check_model(&*solver, &cnf.clauses, &assumptions);
            } else {
                check_core(&*solver, &cnf.clauses, &assumptions);
            }
        }
        if expected {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    // The mix must really exercise both answers.
    assert!(sat > 50 && unsat > 50, "sat {sat} unsat {unsat}");
}

#[test]
fn larger_random_3sat_agree() {
    // Near the threshold, beyond brute force: the back ends check each other.
    for seed in 0..20u64 {
        let cnf = random_ksat(120, 511, 3, 1000 + seed);
        let mut answers = Vec::new();
        for mut solver in all_solvers() {
            for clause in &cnf.clauses {
                solver.add_clause(clause);
            }
            let result = solver.solve(&[]);
            match result {
                SolveResult::Sat => check_model(&*solver, &cnf.clauses, &[]),
                SolveResult::Unsat => assert!(solver.failed_core().is_empty()),
                SolveResult::Interrupted => panic!("no budget was set"),
            }
            answers.push((solver.name(), result));
        }
        assert!(answers.iter().all(|a| a.1 == answers[0].1), "{answers:?}");
    }
}

#[test]
fn incremental_sequence_agrees() {
    let shape = ScriptShape {
        vars: 300,
        block: 20,
        ratio: 5.0,
        cross_ratio: 0.5,
        steps: 300,
        clauses_per_step: 2,
        assumptions_per_step: 6,
        flip: 0.5,
    };
    let script = incremental_script(shape, 99);
    let mut transcripts = Vec::new();
    for mut solver in all_solvers() {
        let mut clauses = script.base.clauses.clone();
        for clause in &clauses {
            solver.add_clause(clause);
        }
        let mut answers = Vec::new();
        for (i, step) in script.steps.iter().enumerate() {
            for clause in &step.add {
                solver.add_clause(clause);
                clauses.push(clause.clone());
            }
            let result = solver.solve(&step.assume);
            match result {
                SolveResult::Sat => check_model(&*solver, &clauses, &step.assume),
                // Checking every core with fresh solvers is slow; every seventh is plenty.
                SolveResult::Unsat if i % 7 == 0 => check_core(&*solver, &clauses, &step.assume),
                SolveResult::Unsat => {
                    let core = solver.failed_core();
                    assert!(core.iter().all(|l| step.assume.contains(l)));
                    assert!(!core.is_empty(), "the clauses alone are satisfiable");
                }
                SolveResult::Interrupted => panic!("no budget was set"),
            }
            answers.push(result);
        }
        let stats = solver.stats();
        assert_eq!(stats.solves, shape.steps as u64);
        assert_eq!(stats.clauses, clauses.len() as u64);
        transcripts.push((solver.name(), answers));
    }
    let sats = transcripts[0]
        .1
        .iter()
        .filter(|&&r| r == SolveResult::Sat)
        .count();
    assert!(sats > 50 && sats < 250, "a mix of answers: {sats} sat");
    for (name, answers) in &transcripts[1..] {
        assert_eq!(answers, &transcripts[0].1, "{name} vs {}", transcripts[0].0);
    }
}

#[test]
fn edge_cases() {
    for mut solver in all_solvers() {
        let name = solver.name();
        // Variables: explicit and implicit creation share one numbering.
        let a = solver.new_var();
        assert_eq!(a, Var::from_dimacs(1));
        solver.add_clause(&[Lit::from_dimacs(3), Lit::from_dimacs(-3)]); // tautology
        assert_eq!(solver.num_vars(), 3);
        assert_eq!(solver.new_var(), Var::from_dimacs(4), "{name}");
        // Duplicate literals.
        solver.add_clause(&[a.pos(), a.pos()]);
        assert_eq!(solver.solve(&[]), SolveResult::Sat, "{name}");
        assert_eq!(solver.value(a.pos()), Some(true), "{name}");
        assert_eq!(solver.value(a.neg()), Some(false), "{name}");
        // An assumption contradicting a unit clause: the core is that assumption.
        assert_eq!(solver.solve(&[a.neg()]), SolveResult::Unsat, "{name}");
        assert_eq!(solver.failed_core(), vec![a.neg()], "{name}");
        assert_eq!(solver.value(a.pos()), None, "{name}: no model after Unsat");
        // A variable never seen before as an assumption.
        assert_eq!(
            solver.solve(&[Lit::from_dimacs(-9)]),
            SolveResult::Sat,
            "{name}"
        );
        assert_eq!(solver.value(Lit::from_dimacs(9)), Some(false), "{name}");
        assert!(solver.failed_core().is_empty());
        // Adding a clause or a variable discards the model.
        solver.add_clause(&[Lit::from_dimacs(2), Lit::from_dimacs(4)]);
        assert_eq!(solver.value(a.pos()), None, "{name}");
        assert_eq!(solver.solve(&[]), SolveResult::Sat, "{name}");
        assert_eq!(solver.new_var(), Var::from_dimacs(10), "{name}");
        assert_eq!(solver.value(a.pos()), None, "{name}");
        // The empty clause: unsatisfiable with an empty core, for good.
        solver.add_clause(&[]);
        assert_eq!(solver.solve(&[a.pos()]), SolveResult::Unsat, "{name}");
        assert!(solver.failed_core().is_empty(), "{name}");
        assert_eq!(solver.solve(&[]), SolveResult::Unsat, "{name}");
        let stats = solver.stats();
        assert_eq!((stats.clauses, stats.solves), (4, 6), "{name}");
        assert_eq!(stats.vars, 10, "{name}");
    }
}

#[test]
fn factory() {
    use solver_glue::{make_solver, solver_names, DEFAULT_SOLVER};
    assert!(solver_names().contains(&DEFAULT_SOLVER));
    assert_eq!(solver_names()[0], DEFAULT_SOLVER);
    for name in solver_names() {
        assert_eq!(make_solver(name).unwrap().name(), *name);
    }
    let err = make_solver("minisat").err().expect("unknown name");
    assert!(err.to_string().contains("minisat"));
}

#[test]
fn random_incremental_sequence_against_brute_force() {
    // Small enough to keep every model of the clauses so far: each added clause filters the
    // list, and an assumption set is satisfiable iff some kept model agrees with it. The
    // formula drifts from satisfiable to unsatisfiable, so both kinds of core appear.
    const VARS: u32 = 12;
    let mut rng = Rng::new(31337);
    let mut solvers = all_solvers();
    let mut models: Vec<u32> = (0..1u32 << VARS).collect();
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let holds = |bits: u32, l: &Lit| (bits >> l.var().index() & 1 == 1) == l.is_positive();
    let (mut sat, mut unsat_core, mut unsat_empty) = (0, 0, 0);
    for step in 0..300 {
        if step % 2 == 0 {
            let k = 3 + rng.below(3) as usize;
            let clause = rng.clause(VARS, k);
            models.retain(|&bits| clause.iter().any(|l| holds(bits, l)));
            for solver in &mut solvers {
                solver.add_clause(&clause);
            }
            clauses.push(clause);
        }
        let assumptions: Vec<Lit> = (0..rng.below(5)).map(|_| rng.lit(VARS)).collect();
        let expected = models
            .iter()
            .any(|&bits| assumptions.iter().all(|l| holds(bits, l)));
        for solver in &mut solvers {
            let result = solver.solve(&assumptions);
            let name = solver.name();
            if expected {
                assert_eq!(result, SolveResult::Sat, "{name} at step {step}");
                check_model(&**solver, &clauses, &assumptions);
            } else {
                assert_eq!(result, SolveResult::Unsat, "{name} at step {step}");
                let core = solver.failed_core();
                assert!(core.iter().all(|l| assumptions.contains(l)), "{name}");
                // The core must itself be refuted by the clauses: no kept model satisfies it.
                assert!(
                    !models
                        .iter()
                        .any(|&bits| core.iter().all(|l| holds(bits, l))),
                    "{name} at step {step}: core {core:?} is satisfiable"
                );
            }
        }
        match (expected, models.is_empty()) {
            (true, _) => sat += 1,
            (false, false) => unsat_core += 1,
            (false, true) => unsat_empty += 1,
        }
    }
    assert!(
        sat > 30 && unsat_core > 10 && unsat_empty > 10,
        "{sat} {unsat_core} {unsat_empty}"
    );
}
