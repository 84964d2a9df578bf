//! The sharing pass predicts what symbolic execution meets: on every program of
//! tests/programs and every shared SV-COMP task (skipped without the checkout), symbolic
//! execution runs once and meets no object and no second thread on a private object that the
//! pass did not predict; and the pass classifies the objects of small programs as a reader
//! would.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use yogar::frontend;
use yogar::ir::{DataModel, Program};
use yogar::sharing::{AbsObj, Sharing};
use yogar::symex::{self, SymexOptions};

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("c"))
        .collect();
    out.sort();
    out
}

/// Symbolic execution of `prog` at `unwind`: the unpredicted facts (none expected), or `None`
/// when it gave up (unsupported construct, deadline).
fn unpredicted(prog: &Program, unwind: u32, deadline: Option<Instant>) -> Option<Vec<String>> {
    let sharing = Sharing::analyse(prog);
    let opts = SymexOptions {
        unwind,
        deadline,
        ..SymexOptions::default()
    };
    symex::run(prog, &sharing, &opts)
        .ok()
        .map(|o| o.unpredicted)
}

#[test]
fn symbolic_execution_meets_only_what_the_pass_predicted_on_the_test_programs() {
    let mut ran = 0;
    for path in programs() {
        let prog = frontend::load_file(&path, DataModel::Lp64).expect("test program lowers");
        if let Some(u) = unpredicted(&prog, 3, None) {
            assert!(u.is_empty(), "{}: {u:?}", path.display());
            ran += 1;
        }
    }
    assert!(ran >= 100, "only {ran} programs executed");
}

#[test]
fn symbolic_execution_meets_only_what_the_pass_predicted_on_the_shared_tasks() {
    let Some(svb) = yogar::svcomp::sv_benchmarks(None).filter(|p| p.join("tasks.csv").is_file())
    else {
        eprintln!("skipped: no sv-benchmarks checkout at ../shared/sv-benchmarks (set SVB)");
        return;
    };
    let tasks = yogar::svcomp::read_task_list(&svb).unwrap_or_else(|e| panic!("{e}"));
    let mut ran = 0;
    for task in &tasks {
        let input = task.input.display();
        let Ok(prog) = frontend::load_file(&task.input, DataModel::Ilp32) else {
            continue;
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        if let Some(u) = unpredicted(&prog, 2, Some(deadline)) {
            assert!(u.is_empty(), "{input}: {u:?}");
            ran += 1;
        }
    }
    assert!(ran >= 200, "only {ran} tasks executed");
}

fn analyse(name: &str) -> (Program, Sharing) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    let prog = frontend::load_file(&path, DataModel::Lp64).expect("lowers");
    let sharing = Sharing::analyse(&prog);
    (prog, sharing)
}

fn global(prog: &Program, name: &str) -> AbsObj {
    AbsObj::Global(prog.var_by_name(name).expect("global"))
}

fn heap_sites(prog: &Program) -> Vec<AbsObj> {
    (0..prog.alloc_sites)
        .map(|k| AbsObj::Heap(yogar::ir::AllocSite::from_u32(k)))
        .collect()
}

#[test]
fn a_global_one_thread_touches_is_private_and_one_two_threads_touch_is_shared() {
    let (prog, s) = analyse("global_one_thread_private_true.c");
    assert!(!s.is_shared(global(&prog, "count")));
    assert!(s.is_shared(global(&prog, "done")));
    // The same code run by two instances shares its global.
    let (prog, s) = analyse("global_two_instances_race_false.c");
    assert!(s.is_shared(global(&prog, "count")));
}

#[test]
fn per_instance_cells_are_shared_once_a_pointer_to_them_escapes() {
    let (prog, s) = analyse("instances_cross_write_false.c");
    let sites = heap_sites(&prog);
    assert_eq!(sites.len(), 1);
    assert!(s.is_shared(sites[0]));
    assert!(s.made_late(sites[0]));
    // The mutex is an operand of lock operations: its object keeps its events.
    assert!(s.is_shared(global(&prog, "m")));
    // The private locals of a thread function stay private.
    let (prog, s) = analyse("private_locals_true.c");
    let locals: Vec<AbsObj> = prog
        .vars
        .iter()
        .filter(|(_, v)| !v.is_global() && v.in_memory())
        .map(|(id, _)| AbsObj::Local(id))
        .collect();
    assert!(!locals.is_empty());
    for l in locals {
        assert!(!s.is_shared(l), "{l:?}");
    }
}

#[test]
fn a_cell_made_by_a_thread_and_read_by_main_is_made_late() {
    let (prog, s) = analyse("late_object_published_true.c");
    let sites = heap_sites(&prog);
    assert_eq!(sites.len(), 1);
    assert!(s.made_late(sites[0]));
    assert!(s.is_shared(sites[0]));
    let p = global(&prog, "p");
    assert!(s.points_to.content(p).any(|o| o == sites[0]));
}

/// The address-taken locals of `add` in `local_two_roles_*`, which main and the worker call.
fn add_locals(prog: &Program) -> Vec<AbsObj> {
    prog.vars
        .iter()
        .filter(|(_, v)| !v.is_global() && v.in_memory() && v.name == "add::tmp")
        .map(|(id, _)| AbsObj::Local(id))
        .collect()
}

/// Read and write events of locations whose name starts with `prefix`.
fn events_at(prog: &Program, prefix: &str) -> usize {
    let out = yogar::pipeline::equation(prog, 2).expect("symbolic execution runs");
    let eq = &out.equation;
    eq.events
        .values()
        .filter(|e| e.thread != eq.init_thread())
        .filter(|e| eq.locations[e.location].name.starts_with(prefix))
        .count()
}

#[test]
fn a_local_of_a_function_two_roles_call_is_private_unless_its_address_escapes() {
    let (prog, s) = analyse("local_two_roles_private_true.c");
    let locals = add_locals(&prog);
    assert_eq!(locals.len(), 1);
    assert!(!s.is_shared(locals[0]));
    assert_eq!(events_at(&prog, "add::tmp"), 0);
    // Published through a global the worker reads: shared, its accesses stay events (the
    // verdict FALSE, checked by program_verdicts, needs the worker's write to be seen).
    let (prog, s) = analyse("local_two_roles_published_false.c");
    let locals = add_locals(&prog);
    assert_eq!(locals.len(), 1);
    assert!(s.is_shared(locals[0]));
    assert!(events_at(&prog, "add::tmp") >= 3);
}
