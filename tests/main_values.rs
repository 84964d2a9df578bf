//! Reads of cells only `main` writes take `main`'s value without an event
//! (`symex::main_values`): counted on the equations of the test programs `main_value_*`, whose
//! verdicts `tests/program_verdicts.rs` checks (the TRUE programs and their FALSE twins).

use std::path::Path;

use yogar::frontend;
use yogar::ir::DataModel;
use yogar::symex::SymexOutput;

fn equation(name: &str) -> SymexOutput {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    let prog = frontend::load_file(&path, DataModel::Lp64).expect("test program lowers");
    yogar::pipeline::equation(&prog, 3).expect("symbolic execution runs")
}

/// How many read events threads other than `main` (and the initial values) make of the
/// location named `loc`.
fn thread_reads(out: &SymexOutput, loc: &str) -> usize {
    reads(out, loc, false)
}

/// How many read events `main` makes of the location named `loc`.
fn main_reads(out: &SymexOutput, loc: &str) -> usize {
    reads(out, loc, true)
}

/// How many read events of the location named `loc` `main` makes (`by_main`) or the other
/// threads make (not the initial values).
fn reads(out: &SymexOutput, loc: &str, by_main: bool) -> usize {
    let eq = &out.equation;
    let main = out.threads.iter().find(|t| t.number == 0).map(|t| t.thread);
    eq.events
        .values()
        .filter(|e| e.is_read() && e.thread != eq.init_thread())
        .filter(|e| (Some(e.thread) == main) == by_main)
        .filter(|e| eq.locations[e.location].name == loc)
        .count()
}

#[test]
fn fields_only_main_writes_are_read_without_events_and_the_others_keep_theirs() {
    let out = equation("main_value_struct_true.c");
    assert_eq!(thread_reads(&out, "s+0"), 0, "limit");
    assert_eq!(thread_reads(&out, "s+4"), 0, "scale");
    // `count` is written by the threads: its reads stay events (two per worker).
    assert_eq!(thread_reads(&out, "s+8"), 4, "count");
}

#[test]
fn a_write_of_main_after_the_create_keeps_the_read_an_event() {
    let out = equation("main_value_late_write_false.c");
    // Only the first worker is created before `limit = 20`: its reads (the condition and the
    // assertion) stay events; the second worker, created after, reads 20 without one.
    assert_eq!(thread_reads(&out, "s+0"), 2, "limit");
    assert_eq!(thread_reads(&out, "s+4"), 0, "scale");
}

#[test]
fn a_wrong_guess_about_a_field_another_thread_writes_is_redone_with_events() {
    let out = equation("main_value_thread_writes_false.c");
    // The tuner (run after the workers) writes `scale`: both workers' reads of it (two each)
    // are events again; `limit` still needs none.
    assert_eq!(thread_reads(&out, "s+4"), 4, "scale");
    assert_eq!(thread_reads(&out, "s+0"), 0, "limit");
}

#[test]
fn an_argument_struct_only_main_writes_gives_the_threads_constant_pointers() {
    let out = equation("main_value_arg_pointer_true.c");
    // Neither the id nor the slot pointer is read through an event, and each worker writes
    // exactly one slot (a symbolic pointer would give a write per possible slot).
    let names: Vec<&str> = out
        .equation
        .locations
        .values()
        .map(|l| l.name.as_str())
        .collect();
    for n in names.iter().filter(|n| n.starts_with("args+")) {
        assert_eq!(thread_reads(&out, n), 0, "{n}");
    }
    let slot_writes = out
        .equation
        .events
        .values()
        .filter(|e| !e.is_read() && out.equation.locations[e.location].name.starts_with("slots"))
        .filter(|e| e.thread != out.equation.init_thread())
        .count();
    assert_eq!(slot_writes, 2);
    // The twin, where main re-points the first thread's slot after creating it, reads it
    // through an event.
    let twin = equation("main_value_arg_pointer_false.c");
    assert!(thread_reads(&twin, "args+8") >= 1);
}

/// Under no-data-race a `free` writes the freed object's cells as events made after the
/// threads ran, which the check of the guesses does not see: a thread's read of a heap cell
/// main wrote before the create stays an event there, and the race with main's later free
/// is found (its twin joins the thread first and has no race).
#[test]
fn heap_reads_stay_events_under_no_data_race_so_a_free_races_with_them() {
    use yogar::engine::{Engine, EngineOptions, Verdict};
    use yogar::svcomp::Property;
    for (name, racy) in [("free_false.c", true), ("free_true.c", false)] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/programs/main_value_races")
            .join(name);
        let prog = frontend::load_file(&path, DataModel::Lp64).expect("test program lowers");
        let opts = EngineOptions {
            property: Property::NoDataRace,
            ..EngineOptions::with_unwind(2)
        };
        let out = Engine::Yogar.verify(&prog, &opts);
        match out.verdict {
            Verdict::False { .. } => assert!(racy, "{name}: FALSE"),
            Verdict::True { .. } => assert!(!racy, "{name}: TRUE"),
            v => panic!("{name}: {v:?}"),
        }
    }
}

#[test]
fn main_reads_a_field_only_it_writes_without_events() {
    let out = equation("own_value_index_true.c");
    assert_eq!(main_reads(&out, "q+0"), 0, "mask");
    // `tail` is written by the worker: main's read of it stays an event, and so does the
    // worker's read of `mask` (main writes it after the create).
    assert_eq!(main_reads(&out, "q+4"), 1, "tail");
    assert_eq!(thread_reads(&out, "q+0"), 1, "the worker's mask");
}

#[test]
fn main_reads_a_field_another_thread_writes_as_events() {
    let out = equation("own_value_thread_writes_false.c");
    // The worker writes `mask`: the guess is found wrong and main's two reads (the
    // assertion's two comparisons read it once each) are events again.
    assert!(main_reads(&out, "q+0") >= 1, "mask");
}
