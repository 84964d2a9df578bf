//! A budget really stops a hard solve, and the solver stays usable afterwards.
//!
//! In its own test binary: varisat's abandoned search keeps a core busy until the process
//! exits (see `backends::varisat`), which should not slow the other tests down.

mod common;

use std::time::{Duration, Instant};

use cnf_gen::pigeonhole;
use common::all_solvers;
use solver_glue::{Budget, Lit, SatSolver, SolveResult, UnsupportedBudget};

/// Pigeonhole 10→9 guarded by a selector (variable 91), so that the same solver can be asked
/// something easy afterwards by assuming the selector false.
fn load_guarded_php(solver: &mut dyn SatSolver) -> Lit {
    let php = pigeonhole(10, 9);
    let selector = Lit::from_dimacs(php.num_vars as i32 + 1);
    for clause in &php.clauses {
        let mut guarded = clause.clone();
        guarded.push(!selector);
        solver.add_clause(&guarded);
    }
    selector
}

#[test]
fn time_budget_interrupts_pigeonhole() {
    for mut solver in all_solvers() {
        let name = solver.name();
        let selector = load_guarded_php(&mut *solver);
        let budget = Budget {
            time: Some(Duration::from_millis(200)),
            conflicts: None,
        };
        solver.set_budget(budget).unwrap();
        let start = Instant::now();
        assert_eq!(
            solver.solve(&[selector]),
            SolveResult::Interrupted,
            "{name}"
        );
        let took = start.elapsed();
        assert!(took < Duration::from_millis(1500), "{name} took {took:?}");
        assert_eq!(solver.value(selector), None, "{name}");
        assert!(solver.failed_core().is_empty(), "{name}");
        // Still usable, with clauses added after the interruption.
        solver.set_budget(Budget::default()).unwrap();
        solver.add_clause(&[Lit::from_dimacs(1), selector]);
        assert_eq!(solver.solve(&[!selector]), SolveResult::Sat, "{name}");
        assert_eq!(solver.value(Lit::from_dimacs(1)), Some(true), "{name}");
        assert_eq!(
            solver.solve(&[!selector, Lit::from_dimacs(-1)]),
            SolveResult::Unsat,
            "{name}"
        );
        let core = solver.failed_core();
        assert!(core.contains(&Lit::from_dimacs(-1)), "{name}: {core:?}");
    }
}

#[test]
fn conflict_budget_interrupts_pigeonhole_or_is_refused() {
    for mut solver in all_solvers() {
        let name = solver.name();
        let selector = load_guarded_php(&mut *solver);
        let budget = Budget {
            time: None,
            conflicts: Some(2000),
        };
        match solver.set_budget(budget) {
            Ok(()) => {
                let start = Instant::now();
                assert_eq!(
                    solver.solve(&[selector]),
                    SolveResult::Interrupted,
                    "{name}"
                );
                assert!(start.elapsed() < Duration::from_secs(5), "{name}");
                let conflicts = solver.stats().conflicts.expect("counts conflicts");
                // Stopped at the limit. CaDiCaL's count is of learned clauses, a little lower
                // than its conflicts (see `backends::cadical`), hence the tolerance.
                assert!((1800..=2200).contains(&conflicts), "{name}: {conflicts}");
                solver.set_budget(Budget::default()).unwrap();
                assert_eq!(solver.solve(&[!selector]), SolveResult::Sat, "{name}");
            }
            Err(UnsupportedBudget { solver: who, what }) => {
                // Only varisat, which has no conflict counter, may refuse.
                assert_eq!((who, what), ("varisat", "conflicts"));
                assert_eq!(solver.stats().conflicts, None);
            }
        }
    }
}
