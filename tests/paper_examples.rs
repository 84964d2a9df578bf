//! The Yogar paper's examples (../shared/design/test-programs.md, A1–A4) through the engine,
//! with the refinement behaviour the paper describes.

use std::path::Path;

use yogar::engine::{cegar, monolithic, EngineOptions, Verdict};
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
