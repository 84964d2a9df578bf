//! The enumerative explorers on the seed papers' examples (../shared/design/test-programs.md,
//! sections B, C, E) with the counts the digests state, computed by the explorers.

use std::path::Path;

use yogar::engine::{EngineOptions, Verdict};
use yogar::explore::interp::Bounds;
use yogar::explore::{classes, dpor, Budget};
use yogar::frontend;
use yogar::ir::{DataModel, Program};

fn load(name: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    frontend::load_file(&path, DataModel::Lp64).expect("program lowers")
}

fn bounds() -> Bounds {
    Bounds::asserted(2)
}

/// Every complete run of source-DPOR (all of them, violations included).
fn dpor_all(prog: &Program, constrained: bool) -> dpor::Report {
    dpor::explore(
        prog,
        &dpor::Options {
            bounds: bounds(),
            budget: Budget::default(),
            constrained,
            all: true,
            keep_runs: true,
            concolic: None,
            data_races: false,
        },
    )
}

/// The schedule explorers (both run over the nondet inputs concolically).
const SCHEDULE_EXPLORERS: [yogar::explore::Explorer; 2] = [
    yogar::explore::Explorer::Dpor,
    yogar::explore::Explorer::Cdpor,
];

fn verdict(prog: &Program, e: yogar::explore::Explorer) -> Verdict {
    yogar::explore::verify(prog, &EngineOptions::with_unwind(2), e, None).verdict
}

/// Every schedule explorer answers FALSE on `unsafe_prog` and TRUE on its twin `safe`, if any.
fn assert_schedule_explorers_agree(unsafe_prog: &Program, safe: Option<&Program>) {
    for e in SCHEDULE_EXPLORERS {
        let v = verdict(unsafe_prog, e);
        assert!(matches!(v, Verdict::False { .. }), "{e:?}: {v:?}");
        if let Some(t) = safe {
            let v = verdict(t, e);
            assert!(matches!(v, Verdict::True { .. }), "{e:?}: {v:?}");
        }
    }
}

/// B2: the digest states 12 Mazurkiewicz traces, 5 reads-from and 3 RVF classes. The
/// Mazurkiewicz count is 9, not 12: of the 6 orders of the three accesses to x and the 2 of
/// the two to y, the 3 orders with T2's write of x before T1's read of x force T2's read of
/// y before T1's write of y (program order), so only 3 × 2 + 3 × 1 = 9 combinations exist
/// among the 30 interleavings (checked by enumerating them). The other two counts hold.
#[test]
fn b2_dpor_explores_9_mazurkiewicz_traces_5_reads_from_3_rvf_classes() {
    let r = dpor_all(&load("paper_b2_fig6_safe.c"), false);
    assert_eq!(r.findings.stats.executions, 9, "{:?}", r.findings.stats);
    assert_eq!(classes::count(&r.runs), (9, 5, 3));
}

/// main's handles `t1, t2, t3` (their address is taken by the creations) are private to
/// main by the sharing pass, so their accesses are no scheduling points, as they are no
/// events of the equation: no step logs a memory access at a creation or join line (the
/// creation's handle write, the join's read of its handle), in any of B2's runs.
#[test]
fn main_private_handles_are_no_accesses() {
    use yogar::explore::interp::Target;
    let r = dpor_all(&load("paper_b2_fig6_safe.c"), false);
    assert_eq!(r.runs.len(), 9);
    for run in &r.runs {
        for step in run
            .iter()
            .filter(|s| s.thread == 0 && (30..=35).contains(&s.loc.line))
        {
            assert!(
                !step
                    .accesses
                    .iter()
                    .any(|a| matches!(a.target, Target::Mem { .. })),
                "line {}: {:?}",
                step.loc.line,
                step.accesses
            );
        }
    }
}

#[test]
fn c2_has_6_mazurkiewicz_traces_3_reads_from_2_rvf_classes() {
    let r = dpor_all(&load("paper_c2_dcdpor_safe.c"), false);
    assert_eq!(classes::count(&r.runs), (6, 3, 2));
}

/// C1 from z = -2 (bodies as atomic blocks): SAFE for both. Source-DPOR with the exact
/// access sets runs 4 complete sequences (the digest's "exact unconditional dependency"
/// count). cdpor prunes: once q has run, p's and r's blocks (which conflict on x) commute in
/// the state, and no live thread can write x or z any more (transitive uniformity), so the
/// second of them stays asleep after the first and 2 complete runs remain (the paper's CDPOR
/// runs 1, also pruning races, which is unsound with dynamic access sets: see
/// `c1_cdpor_is_false_from_z_minus_1`).
#[test]
fn c1_cdpor_prunes_and_is_true_from_z_minus_2() {
    let prog = load("paper_c1_atomic_zm2_true.c");
    let c = dpor_all(&prog, true);
    let d = dpor_all(&prog, false);
    assert!(matches!(
        verdict(&prog, yogar::explore::Explorer::Cdpor),
        Verdict::True { .. }
    ));
    assert!(matches!(
        verdict(&prog, yogar::explore::Explorer::Dpor),
        Verdict::True { .. }
    ));
    assert_eq!(d.findings.stats.executions, 4);
    assert_eq!(c.findings.stats.executions, 2, "{:?}", c.findings.stats);
    assert!(c.findings.stats.constrained > 0);
    assert!(c.findings.stats.executions < d.findings.stats.executions);
}

/// C1 from z = -1: r's increment makes q's test pass, so the order matters through q; the
/// p/r commutation is not uniform there (q may write z, which the two orders read), so cdpor
/// must not prune it. Naive conditional independence (commuting in the state at hand)
/// would, and would answer SAFE.
#[test]
fn c1_cdpor_is_false_from_z_minus_1() {
    let prog = load("paper_c1_working_example_zm1.c");
    let r = dpor_all(&prog, true);
    assert!(r.findings.violation.is_some());
    let v = verdict(&prog, yogar::explore::Explorer::Cdpor);
    assert!(
        matches!(v, Verdict::False { .. }),
        "{v:?} {:?}",
        r.findings.violation.is_some()
    );
    assert!(matches!(
        verdict(&prog, yogar::explore::Explorer::Dpor),
        Verdict::False { .. }
    ));
}

/// Schedules × symbolic inputs over the whole space (violations included).
fn concolic_all(prog: &Program, constrained: bool) -> dpor::Report {
    yogar::explore::concolic::search::explore(
        prog,
        &dpor::Options {
            bounds: bounds(),
            budget: Budget::default(),
            constrained,
            all: true,
            keep_runs: false,
            concolic: None,
            data_races: false,
        },
    )
}

/// E1: two 32-bit inputs choose T1's write; only (i <= 0, j > 0) with T1 before T2 fails.
/// The explorers find it (inputs solved, not enumerated), and the search covers exactly the
/// 4 reachable paths: (a, ¬c), (¬a b, ¬c), (¬a ¬b, ¬c), (¬a b, c); (a, c) and (¬a ¬b, c)
/// cannot happen. It needs 3 input classes (one per way through T1's branches).
#[test]
fn e1_is_unsafe_and_covers_exactly_the_4_reachable_paths() {
    let prog = load("paper_e1_mpc_example.c");
    assert_schedule_explorers_agree(&prog, None);
    for constrained in [false, true] {
        let r = concolic_all(&prog, constrained);
        let s = &r.findings.stats;
        assert!(r.findings.violation.is_some());
        assert!(
            r.findings.incomplete.is_none(),
            "{:?}",
            r.findings.incomplete
        );
        assert_eq!(s.paths, 4, "{s:?}");
        assert_eq!(s.input_classes, 3, "{s:?}");
    }
}

/// E2: no inputs; the violation needs the order T2.w, T1.r, T1.w, T2.r.
#[test]
fn e2_is_unsafe() {
    let prog = load("paper_e2_mpc_vs_mcm.c");
    assert_schedule_explorers_agree(&prog, None);
    let r = concolic_all(&prog, false);
    assert_eq!(r.findings.stats.input_classes, 1);
}

/// Inputs through arithmetic, shared memory, an assumption and a division whose divisor
/// depends on the input and the order: FALSE needs a solved input (n <= -3) and T2 reading
/// y before T1 writes it; the TRUE twin differs only in the bound the assumption excludes.
#[test]
fn symbolic_inputs_through_arithmetic_and_shared_memory() {
    let f = load("mpc_input_arith_false.c");
    let t = load("mpc_input_arith_true.c");
    assert_schedule_explorers_agree(&f, Some(&t));
    let r = concolic_all(&t, false);
    assert!(r.findings.stats.input_classes > 1, "{:?}", r.findings.stats);
}

/// Input decisions branch inside the one schedule tree: each (schedule class, input path)
/// pair is run once. Two threads race on x (2 schedule classes: the order of the writes), and
/// main then tests i when x == 1, j when x == 2 (2 input paths in each class): 2 × 2 = 4
/// complete runs, none blocked, 4 input paths. A search that explores the whole schedule
/// space once per input class runs 8 here: the classes of (i, j) split by the decisions of
/// both schedule classes are 4, and each runs both schedule classes. The FALSE twin fails
/// only for T1 before T2 with j > 0.
#[test]
fn each_schedule_class_and_input_path_is_run_once() {
    for constrained in [false, true] {
        let r = concolic_all(&load("mpc_race_then_input_true.c"), constrained);
        let s = &r.findings.stats;
        assert!(r.findings.violation.is_none());
        assert!(
            r.findings.incomplete.is_none(),
            "{:?}",
            r.findings.incomplete
        );
        assert_eq!(s.executions, 2 * 2, "{s:?}");
        assert_eq!(s.blocked, 0, "{s:?}");
        assert_eq!(s.input_classes, 4, "{s:?}");
        assert_eq!(s.paths, 4, "{s:?}");
    }
    let f = load("mpc_race_then_input_false.c");
    let t = load("mpc_race_then_input_true.c");
    assert_schedule_explorers_agree(&f, Some(&t));
}

/// Enumerated choices and input decisions interleaved in one step: a _Bool b picks the test
/// of i, and a second _Bool c is chosen only when i < -3. Each outcome is one run: (b, i > 0),
/// (b, i <= 0), (!b, i < -3, c), (!b, i < -3, !c), (!b, i >= -3), so 5 runs with 4 input
/// paths. The FALSE twin fails on (!b, i < -3, !c) only.
#[test]
fn choices_and_input_decisions_in_one_step_are_each_run_once() {
    let r = concolic_all(&load("mpc_choice_and_input_in_one_step_true.c"), false);
    let s = &r.findings.stats;
    assert!(r.findings.violation.is_none());
    assert!(
        r.findings.incomplete.is_none(),
        "{:?}",
        r.findings.incomplete
    );
    assert_eq!(s.executions, 5, "{s:?}");
    assert_eq!(s.input_classes, 4, "{s:?}");
    let f = load("mpc_choice_and_input_in_one_step_false.c");
    assert_schedule_explorers_agree(&f, None);
    let r = concolic_all(&f, false);
    assert!(r.findings.violation.is_some());
}

/// Failing assumptions of threads that did nothing visible are cut where the assumption can
/// hold (`concolic::stops`): the TRUE twin is decided with cuts, the FALSE twin (two inputs
/// on one path differing in a value the assertion reads later) keeps its violation, and an
/// assumption that can never hold is not cut (below it is the only place the other thread
/// runs from that node).
#[test]
fn failing_assumptions_of_silent_threads_are_cut_where_they_can_hold() {
    for constrained in [false, true] {
        let r = concolic_all(&load("stop_value_read_later_true.c"), constrained);
        let s = &r.findings.stats;
        assert!(r.findings.violation.is_none() && r.findings.incomplete.is_none());
        assert!(s.pruned_stops > 0, "{s:?}");
        let r = concolic_all(&load("stop_value_read_later_false.c"), constrained);
        assert!(r.findings.violation.is_some(), "{:?}", r.findings.stats);
        let r = concolic_all(&load("stop_unsat_assume_false.c"), constrained);
        assert!(r.findings.violation.is_some(), "{:?}", r.findings.stats);
        assert_eq!(r.findings.stats.pruned_stops, 0);
    }
    assert_schedule_explorers_agree(
        &load("stop_value_read_later_false.c"),
        Some(&load("stop_value_read_later_true.c")),
    );
}

/// An input-dependent array index splits the run on the cells it can select: the twins (a
/// cell picked by an input, a pointer to it, cells of 12 bytes) are decided by both schedule
/// explorers, and the FALSE ones need the branch where both threads pick one cell.
#[test]
fn input_dependent_index_splits_on_its_cells() {
    for (t, f) in [
        ("array_var_index_true.c", "array_var_index_false.c"),
        (
            "array_input_index_locked_true.c",
            "array_input_index_locked_false.c",
        ),
        (
            "array_input_index_struct_true.c",
            "array_input_index_struct_false.c",
        ),
    ] {
        assert_schedule_explorers_agree(&load(f), Some(&load(t)));
    }
}

/// Each feasible cell is one branch, no more: in the locked twin, the first thread's index
/// selects 4 cells and the second's 4 ((y + 1) % 4 over y in 0..5), and each thread's
/// assumption failing would be one more input path of its own (a run that ends there): 5 × 5
/// input paths. Failing assumptions of threads that did nothing visible yet are cut where
/// they can hold (`concolic::stops`), which leaves 20 here (the runs where a thread's
/// assumption fails from inputs solved before it drew its own are not all cut); an index over
/// two cells of eight gives 2 + 1.
#[test]
fn input_dependent_index_covers_each_feasible_cell_once() {
    let r = concolic_all(&load("array_input_index_locked_true.c"), false);
    let s = &r.findings.stats;
    assert!(r.findings.violation.is_none() && r.findings.incomplete.is_none());
    assert_eq!(s.input_classes, 20, "{s:?}");
    assert!(s.pruned_stops > 0, "{s:?}");
    let prog = frontend::load_source(
        "#include <assert.h>
         extern int __VERIFIER_nondet_int(void);
         extern void __VERIFIER_assume(int);
         int a[8];
         int main(void) {
           int x = __VERIFIER_nondet_int();
           __VERIFIER_assume(x == 1 || x == 6);
           a[x] = 1;
           assert(a[1] + a[6] == 1);
           return 0;
         }",
        DataModel::Lp64,
    )
    .expect("program lowers");
    let r = concolic_all(&prog, false);
    assert!(r.findings.violation.is_none() && r.findings.incomplete.is_none());
    assert_eq!(r.findings.stats.input_classes, 3, "{:?}", r.findings.stats);
}

/// Input-dependent pointer offsets and sizes are pinned to each feasible value (`interp::pin`):
/// pointer arithmetic `a + i` and `p - 1` on it, a pointer chosen by a condition on an input,
/// an allocation of an input-dependent size, a struct cell reached as `(p + i)->b`. Both
/// schedule explorers decide the twins, and each FALSE one needs one value of the input.
#[test]
fn input_dependent_pointers_and_sizes_split_on_their_values() {
    for (t, f) in [
        ("ptr_input_offset_true.c", "ptr_input_offset_false.c"),
        ("ptr_input_choice_true.c", "ptr_input_choice_false.c"),
        ("malloc_input_size_true.c", "malloc_input_size_false.c"),
        ("ptr_input_struct_true.c", "ptr_input_struct_false.c"),
    ] {
        assert_schedule_explorers_agree(&load(f), Some(&load(t)));
    }
}

/// The verdict of both schedule explorers on a C source at unwind 2.
fn source_verdicts(src: &str) -> Vec<Verdict> {
    let prog = frontend::load_source(src, DataModel::Lp64).expect("program lowers");
    SCHEDULE_EXPLORERS
        .iter()
        .map(|e| verdict(&prog, *e))
        .collect()
}

/// The input classes of the concolic search over a C source.
fn source_input_classes(src: &str) -> u64 {
    let prog = frontend::load_source(src, DataModel::Lp64).expect("program lowers");
    let r = concolic_all(&prog, false);
    assert!(r.findings.violation.is_none() && r.findings.incomplete.is_none());
    r.findings.stats.input_classes
}

/// Each feasible pointer offset or size is one branch, no more: an offset over two cells of
/// eight gives 2 + 1 input paths (the assumption failing is one), whatever the decisions
/// that locate it; an allocation of n ints for n in 1..4 gives 4 + 1, a memset of n bytes
/// for n in 0..8 gives 9 + 1.
#[test]
fn input_dependent_pointer_offsets_and_sizes_cover_each_value_once() {
    let offset = "#include <assert.h>
         extern int __VERIFIER_nondet_int(void);
         extern void __VERIFIER_assume(int);
         int a[8];
         int main(void) {
           int x = __VERIFIER_nondet_int();
           __VERIFIER_assume(x == 1 || x == 6);
           int *p = a + x;
           *p = 1;
           assert(a[1] + a[6] == 1);
           return 0;
         }";
    assert_eq!(source_input_classes(offset), 3);
    assert_eq!(
        source_input_classes(&load_text("malloc_input_size_true.c")),
        5
    );
    let memset = "#include <assert.h>
         #include <string.h>
         extern int __VERIFIER_nondet_int(void);
         extern void __VERIFIER_assume(int);
         char a[8];
         int main(void) {
           int n = __VERIFIER_nondet_int();
           __VERIFIER_assume(n >= 0 && n <= 8);
           memset(a, 1, n);
           assert(a[7] == 0 || n == 8);
           return 0;
         }";
    assert_eq!(source_input_classes(memset), 10);
    for v in source_verdicts(memset) {
        assert!(matches!(v, Verdict::True { .. }), "{v:?}");
    }
    for v in source_verdicts(&memset.replace("n == 8", "n == 7")) {
        assert!(matches!(v, Verdict::False { .. }), "{v:?}");
    }
}

/// A pointer offset that can leave its object ends that branch as unsupported (pinning
/// every offset out there would enumerate the input's values): UNKNOWN, not TRUE, although
/// the access through it is guarded.
#[test]
fn input_dependent_pointer_outside_its_object_is_unknown() {
    let src = "#include <assert.h>
         extern int __VERIFIER_nondet_int(void);
         int a[4];
         int main(void) {
           int x = __VERIFIER_nondet_int();
           int *p = a + x;
           if (x >= 0 && x < 4)
             *p = 1;
           assert(a[0] + a[1] + a[2] + a[3] <= 1);
           return 0;
         }";
    for v in source_verdicts(src) {
        let Verdict::Unknown(why) = &v else {
            panic!("{v:?}")
        };
        assert!(format!("{why:?}").contains("outside its object"), "{why:?}");
    }
}

fn load_text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    std::fs::read_to_string(path).expect("test program exists")
}

/// An index that can leave its array is a branch of its own, which traps as a constant
/// out-of-bounds index does: not TRUE.
#[test]
fn input_dependent_index_out_of_bounds_is_not_true() {
    assert_not_true(
        "#include <assert.h>
         extern int __VERIFIER_nondet_int(void);
         extern void __VERIFIER_assume(int);
         int a[4];
         int main(void) {
           int x = __VERIFIER_nondet_int();
           __VERIFIER_assume(x >= 0 && x <= 4);
           a[x] = 1;
           return 0;
         }",
    );
}

/// The verdict of the schedule explorer on a C source.
fn source_verdict(src: &str) -> Verdict {
    let prog = frontend::load_source(src, DataModel::Lp64).expect("program lowers");
    verdict(&prog, yogar::explore::Explorer::Dpor)
}

/// The schedule explorer does not answer TRUE on a C source.
fn assert_not_true(src: &str) {
    let v = source_verdict(src);
    assert!(!matches!(v, Verdict::True { .. }), "{v:?}");
}

/// A byte store into an input-dependent `long` keeps the other seven bytes input-dependent:
/// the shadow must not drop them (the first run, with the input 0, would see a constant and
/// record no decision, and the search would answer TRUE).
#[test]
fn input_dependent_bytes_survive_a_partial_overwrite() {
    assert_not_true(
        "#include <assert.h>
         extern long __VERIFIER_nondet_long(void);
         int main(void) {
           long x = __VERIFIER_nondet_long();
           *(char *)&x = 0;
           assert(x != 256);
           return 0;
         }",
    );
}

/// `free` of an input-dependent integer: NULL for the input 0, not a pointer otherwise. The
/// test of the null case is a decision, or the non-null inputs are never tried.
#[test]
fn free_of_an_input_dependent_value_is_a_decision() {
    assert_not_true(
        "#include <stdlib.h>
         extern long __VERIFIER_nondet_long(void);
         int main(void) {
           long x = __VERIFIER_nondet_long();
           free((void *)x);
           return 0;
         }",
    );
}

/// The part of an input-dependent `long` a store leaves keeps its own shadow: its exact read
/// is an input-dependent value, so the search solves for the input that fails.
#[test]
fn the_part_a_store_leaves_is_still_an_input() {
    let v = source_verdict(
        "#include <assert.h>
         extern long __VERIFIER_nondet_long(void);
         int main(void) {
           long x = __VERIFIER_nondet_long();
           int *p = (int *)&x;
           p[0] = 0;
           assert(p[1] != 7);
           return 0;
         }",
    );
    assert!(matches!(v, Verdict::False { .. }), "{v:?}");
}

/// Two writes of x that commute for the input 0 (the first run's) and for no other input:
/// cdpor's commutation probes compare the symbolic shadows too, so they do not put the
/// second order to sleep, and the order b then a with an input other than 0 fails.
#[test]
fn writes_commuting_only_for_the_first_input_are_both_ordered() {
    let prog = frontend::load_source(
        "#include <assert.h>
         #include <pthread.h>
         extern int __VERIFIER_nondet_int(void);
         int x = 1, in;
         void *a(void *p) { x = x + in; return 0; }
         void *b(void *p) { x = x * 2; return 0; }
         int main(void) {
           in = __VERIFIER_nondet_int();
           pthread_t t1, t2;
           pthread_create(&t1, 0, a, 0);
           pthread_create(&t2, 0, b, 0);
           pthread_join(t1, 0);
           pthread_join(t2, 0);
           assert(in == 0 || x != 2 + in);
           return 0;
         }",
        DataModel::Lp64,
    )
    .expect("program lowers");
    assert_schedule_explorers_agree(&prog, None);
}

/// A counterexample names every thread by its entry function, threads that finished before
/// the violation included.
#[test]
fn traces_name_finished_threads_by_their_entry() {
    let prog = load("settled_read_after_joins_false.c");
    for explorer in [
        yogar::explore::Explorer::Dpor,
        yogar::explore::Explorer::Cdpor,
        yogar::explore::Explorer::Rvf,
    ] {
        let out = yogar::explore::verify(&prog, &EngineOptions::with_unwind(2), explorer, None);
        let Verdict::False { trace, .. } = &out.verdict else {
            panic!("{explorer:?}: {:?}", out.verdict);
        };
        let names: Vec<&str> = trace.threads.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["main", "one", "two"], "{explorer:?}");
    }
}

/// rvf over its whole space (violations included), classes counted; `fixed_reads`: a read
/// whose observation the closure fixes is taken without a witness search (`rvf::fixed`).
fn rvf_all(prog: &Program, unwind: u32, fixed_reads: bool) -> yogar::explore::rvf::Report {
    yogar::explore::rvf::explore(
        prog,
        &yogar::explore::rvf::Options {
            bounds: Bounds { unwind, ..bounds() },
            budget: Budget::default(),
            all: true,
            count_classes: true,
            causal_maps: false,
            fixed_reads,
            fold_joins: true,
            fold_guarded: true,
            symbolic_inputs: false,
        },
    )
}

/// The lock counter of the bench (`yogar-bench explore`): `n` threads each increment a
/// counter under one mutex; `check` is main's assertion after joining them. Each thread
/// also records its place in the order of the critical sections in `order`.
fn lock_counter(n: u32, check: &str) -> Program {
    let src = format!(
        "#include <pthread.h>\n#include <assert.h>\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint counter = 0;\nint order = 0;\n\
         void *t(void *arg) {{ int id = (int)(long)arg; pthread_mutex_lock(&m);\n\
         counter = counter + 1; order = order * 8 + id; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{\n  pthread_t th[{n}];\n\
         for (int i = 0; i < {n}; i++) pthread_create(&th[i], 0, t, (void *)(long)(i + 1));\n\
         for (int i = 0; i < {n}; i++) pthread_join(th[i], 0);\n\
         assert({check});\n  return 0;\n}}\n"
    );
    frontend::load_source(&src, DataModel::Lp64).expect("program lowers")
}

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

/// The lock counter's RVF classes are the n! orders of its critical sections (each
/// acquisition observes one release): rvf explores exactly n! executions standing for n!
/// classes, as many as dpor's Mazurkiewicz traces, with and without the reads the closure
/// fixes taken alone. A reduction that dropped an order would fail here.
#[test]
fn rvf_lock_counter_explores_every_order_of_the_critical_sections() {
    for n in 2..=4u32 {
        let prog = lock_counter(n, &format!("counter == {n}"));
        let want = factorial(n as u64);
        let d = dpor::explore(
            &prog,
            &dpor::Options {
                bounds: Bounds {
                    unwind: n + 1,
                    ..bounds()
                },
                budget: Budget::default(),
                constrained: false,
                all: true,
                keep_runs: false,
                concolic: None,
                data_races: false,
            },
        );
        assert_eq!(d.findings.stats.executions, want, "dpor, {n} threads");
        for fixed_reads in [true, false] {
            let r = rvf_all(&prog, n + 1, fixed_reads);
            assert!(
                r.findings.incomplete.is_none(),
                "{n}: {:?}",
                r.findings.incomplete
            );
            assert!(r.findings.violation.is_none(), "{n} threads");
            assert_eq!(r.findings.stats.executions, want, "rvf, {n} threads");
            assert_eq!(r.classes, Some(want), "rvf classes, {n} threads");
        }
    }
}

/// A bug in one class of 24: the assertion fails only when the four critical sections run
/// in the order 4, 3, 2, 1 (`order` is then 04321 in octal). rvf finds it (FALSE, with the
/// closure-fixed reads taken alone or searched), and its twin, whose assertion holds in
/// every order, is TRUE with all 24 classes explored; so are dpor and cdpor.
#[test]
fn rvf_finds_a_bug_in_one_order_of_the_critical_sections() {
    let rare = lock_counter(4, "order != 04321");
    let twin = lock_counter(4, "order != 01111");
    for fixed_reads in [true, false] {
        let r = rvf_all(&rare, 5, fixed_reads);
        assert!(r.findings.violation.is_some(), "fixed_reads {fixed_reads}");
        let t = rvf_all(&twin, 5, fixed_reads);
        assert!(t.findings.violation.is_none(), "fixed_reads {fixed_reads}");
        assert_eq!(t.findings.stats.executions, 24);
        assert_eq!(t.classes, Some(24));
    }
    let opts = EngineOptions::with_unwind(5);
    for e in [
        yogar::explore::Explorer::Rvf,
        yogar::explore::Explorer::Dpor,
        yogar::explore::Explorer::Cdpor,
    ] {
        let v = yogar::explore::verify(&rare, &opts, e, None).verdict;
        assert!(matches!(v, Verdict::False { .. }), "{e:?}: {v:?}");
        let v = yogar::explore::verify(&twin, &opts, e, None).verdict;
        assert!(matches!(v, Verdict::True { .. }), "{e:?}: {v:?}");
    }
}

/// A value read without a lock, rare in the RVF classes: thread 1 writes x = 1 then x = 2,
/// thread 2 reads x twice; only the class in which thread 2 reads 1 and then 2 fails. The
/// reads the closure cannot fix are searched, the others are taken alone, and the bug is
/// found either way; the twin (2 then 1, impossible: x only grows) is TRUE with the same
/// 6 classes either way, one per pair a <= b of {0, 1, 2}.
#[test]
fn rvf_finds_a_bug_in_one_value_class_of_unlocked_reads() {
    let program = |check: &str| {
        let src = format!(
            "#include <pthread.h>\n#include <assert.h>\nint x = 0;\nint a = 0;\nint b = 0;\n\
             void *w(void *arg) {{ x = 1; x = 2; return 0; }}\n\
             void *r(void *arg) {{ a = x; b = x; return 0; }}\n\
             int main(void) {{ pthread_t t1, t2;\n\
             pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, r, 0);\n\
             pthread_join(t1, 0); pthread_join(t2, 0);\n\
             assert({check});\n  return 0; }}\n"
        );
        frontend::load_source(&src, DataModel::Lp64).expect("program lowers")
    };
    let rare = program("!(a == 1 && b == 2)");
    let twin = program("!(a == 2 && b == 1)");
    for fixed_reads in [true, false] {
        let r = rvf_all(&rare, 2, fixed_reads);
        assert!(r.findings.violation.is_some(), "fixed_reads {fixed_reads}");
        let t = rvf_all(&twin, 2, fixed_reads);
        assert!(t.findings.violation.is_none(), "fixed_reads {fixed_reads}");
        assert_eq!(t.findings.stats.executions, 6, "fixed_reads {fixed_reads}");
        assert_eq!(t.classes, Some(6), "fixed_reads {fixed_reads}");
    }
}
