//! The Yogar paper's examples (../shared/design/test-programs.md, A1–A4) through the engines:
//! the refinement behaviour the paper describes (`cegar`), and the same verdicts with the
//! ordering checked inside the search (the default engine), every theory clause checked
//! against the exact encoding.

use std::path::Path;

use yogar::engine::{cegar, monolithic, yogar as theory_engine, EngineOptions, Verdict};
use yogar::frontend;
use yogar::ir::{DataModel, Program};

fn load(name: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    frontend::load_file(&path, DataModel::Lp64).expect("program lowers")
}

fn options() -> EngineOptions {
    EngineOptions {
        check_refinements: true,
        ..EngineOptions::with_unwind(2)
    }
}

#[test]
fn running_example_is_true_after_a_few_graph_refinements() {
    let out = cegar::verify(&load("paper_a1_running_example.c"), &options());
    assert!(
        matches!(out.verdict, Verdict::True { complete: true }),
        "{:?}",
        out.verdict
    );
    let s = &out.stats;
    assert!(
        s.refinements >= 1 && s.refinements <= 10,
        "{} refinements",
        s.refinements
    );
    // Every counterexample is refuted by a cycle of the event order graph.
    assert_eq!(s.exact_refinements, 0);
    assert_eq!(s.graph_refinements, s.refinements);
    // Kernel reasons are short: the paper's are pairs of links.
    assert!(s.refinement_literals <= 3 * s.refinement_clauses);
}

#[test]
fn running_example_unsafe_twin_passes_the_exact_check() {
    let out = cegar::verify(&load("paper_a2_running_example_unsafe.c"), &options());
    match out.verdict {
        Verdict::False { trace } => assert!(!trace.events.is_empty()),
        v => panic!("expected FALSE, got {v:?}"),
    }
    assert!(out.stats.exact_checks >= 1);
}

#[test]
fn butterfly_needs_the_exact_check_and_is_true() {
    let out = cegar::verify(&load("paper_a4_butterfly.c"), &options());
    assert!(
        matches!(out.verdict, Verdict::True { .. }),
        "{:?}",
        out.verdict
    );
    let s = &out.stats;
    assert!(
        s.exact_refinements >= 1,
        "the closure alone refuted the butterfly"
    );
    // The refuted read-from map is pinned by six reads: its core names them.
    assert!(s.refinement_literals >= 6);
}

#[test]
fn abstraction_is_smaller_than_the_monolithic_formula() {
    let prog = load("paper_a1_running_example.c");
    let y = cegar::verify(&prog, &options());
    let m = monolithic::verify(&prog, &options());
    assert!(matches!(m.verdict, Verdict::True { .. }));
    assert!(m.stats.xi_clauses > 0);
    assert!(
        y.stats.clauses < m.stats.clauses,
        "{} vs {}",
        y.stats.clauses,
        m.stats.clauses
    );
}

#[test]
fn running_example_is_true_by_short_theory_conflicts() {
    let out = theory_engine::verify(&load("paper_a1_running_example.c"), &options());
    assert!(
        matches!(out.verdict, Verdict::True { complete: true }),
        "{:?}",
        out.verdict
    );
    let s = &out.stats;
    let explained = s.theory_conflicts + s.theory_propagations;
    assert!(explained >= 1, "no cycle was ever found or avoided");
    // The paper's kernel reasons are pairs of links; a cycle (or a link that would close one)
    // names its links and at most the guards and coherence literals of its edges.
    let literals = s.theory_conflict_literals + s.theory_reason_literals;
    assert!(
        literals <= 3 * explained,
        "{literals} literals in {explained} explanations"
    );
}

#[test]
fn running_example_unsafe_twin_has_a_validated_schedule() {
    let out = theory_engine::verify(&load("paper_a2_running_example_unsafe.c"), &options());
    match out.verdict {
        Verdict::False { trace } => assert!(!trace.events.is_empty()),
        v => panic!("expected FALSE, got {v:?}"),
    }
}

#[test]
fn butterfly_is_true_with_coherence_literals_deciding_it() {
    let out = theory_engine::verify(&load("paper_a4_butterfly.c"), &options());
    assert!(
        matches!(out.verdict, Verdict::True { .. }),
        "{:?}",
        out.verdict
    );
    // No closure rule decides the butterfly; the order of the two writes of each of its three
    // variables is a literal the solver branches on.
    let s = &out.stats;
    assert!(
        s.coherence_vars >= 3,
        "{} coherence variables",
        s.coherence_vars
    );
    assert!(
        s.theory_conflicts + s.theory_propagations >= 2,
        "{} conflicts, {} propagations",
        s.theory_conflicts,
        s.theory_propagations
    );
}
