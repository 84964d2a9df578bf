//! `prefer_phase` steers CaDiCaL's decisions and never its answers.

use std::env::set_var;

use solver_glue::{make_solver, Lit, SatSolver, SolveResult};

/// `a ∨ b` with one variable preferred false: CaDiCaL decides it false (its default phase is
/// true), so the other one must be true. Its lucky phases (tried before the search, which
/// find the all-true model here) are switched off through the developer knob.
fn model_with_false(preferred: Lit, other: Lit) -> (bool, bool) {
    set_var(solver_glue::backends::cadical::OPTIONS_ENV, "lucky=0");
    let mut s = make_solver("cadical").unwrap();
    s.add_clause(&[preferred, other]);
    s.prefer_phase(!preferred);
    assert_eq!(s.solve(&[]), SolveResult::Sat);
    (s.value(preferred).unwrap(), s.value(other).unwrap())
}

#[test]
fn cadical_decides_a_preferred_phase() {
    let a = Lit::from_dimacs(1);
    let b = Lit::from_dimacs(2);
    assert_eq!(model_with_false(a, b), (false, true));
    assert_eq!(model_with_false(b, a), (false, true));
}

#[test]
fn a_preferred_phase_does_not_change_the_answer() {
    for name in ["cadical", "batsat", "varisat"] {
        let mut s: Box<dyn SatSolver> = make_solver(name).unwrap();
        let a = Lit::from_dimacs(1);
        s.add_clause(&[a]);
        s.prefer_phase(!a);
        assert_eq!(s.solve(&[]), SolveResult::Sat, "{name}");
        assert_eq!(s.value(a), Some(true), "{name}");
        s.add_clause(&[!a]);
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "{name}");
    }
}
