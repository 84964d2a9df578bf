//! The RVF-SMC explorer (`--engine rvf`) on the seed examples (../shared/design/test-programs.md,
//! sections B and C), with the counts the explorer itself reports: explored executions (one
//! per explored (events, values) instance) and the reads-value-from classes they stand for.

use std::path::Path;

use yogar::engine::{EngineOptions, Verdict};
use yogar::explore::interp::{ObjId, Scalar, Target, Value};
use yogar::explore::{rvf, Budget, Explorer};
use yogar::frontend;
use yogar::ir::{DataModel, Program};

#[path = "common/rvf.rs"]
mod common;
use common::{bounds, load, options};

/// The whole space, violations included, with the classes counted, as `--engine rvf`
/// explores it (without causal maps).
fn rvf_all(prog: &Program) -> rvf::Report {
    rvf_all_maps(prog, false)
}

/// The same, with causal maps on or off.
fn rvf_all_maps(prog: &Program, causal_maps: bool) -> rvf::Report {
    rvf::explore(
        prog,
        &rvf::Options {
            causal_maps,
            ..options(2, None)
        },
    )
}

fn verdict(name: &str) -> Verdict {
    yogar::explore::verify(
        &load(name),
        &EngineOptions::with_unwind(2),
        Explorer::Rvf,
        None,
    )
    .verdict
}

/// rvf's verdict on the C program `src`.
fn source_verdict(src: &str) -> Verdict {
    let prog = frontend::load_source(src, DataModel::Lp64).expect("program lowers");
    yogar::explore::verify(&prog, &EngineOptions::with_unwind(2), Explorer::Rvf, None).verdict
}

/// Asserts rvf's verdict on each program: TRUE on `safe`, FALSE on `unsafe_`.
fn assert_verdicts(safe: &[&str], unsafe_: &[&str]) {
    for name in safe {
        let v = verdict(name);
        assert!(matches!(v, Verdict::True { .. }), "{name}: {v:?}");
    }
    for name in unsafe_ {
        let v = verdict(name);
        assert!(matches!(v, Verdict::False { .. }), "{name}: {v:?}");
    }
}

/// B2 (the paper's Fig. 6 run): 3 RVF classes, explored in 2 executions, as in the paper's
/// narrated run (its nodes C and E): T2's read of y observes 0 whether it reads the initial
/// value or T1's write, so one instance stands for the two classes that differ only in
/// whether T1's read of x is causally before T2's read of y.
#[test]
fn b2_rvf_explores_2_executions_covering_3_rvf_classes() {
    for name in ["paper_b2_fig6_safe.c", "paper_b2_fig6_unsafe.c"] {
        let r = rvf_all(&load(name));
        assert_eq!(
            r.findings.stats.executions, 2,
            "{name}: {:?}",
            r.findings.stats
        );
        assert_eq!(r.classes, Some(3), "{name}");
    }
}

#[test]
fn b2_verdicts() {
    assert_verdicts(&["paper_b2_fig6_safe.c"], &["paper_b2_fig6_unsafe.c"]);
}

/// C2: the read of x observes 0 or 5 (3 reads-from classes: the initial value, p's or q's
/// write; 2 values): 2 executions, 2 classes.
#[test]
fn c2_rvf_explores_2_executions_and_2_classes() {
    let r = rvf_all(&load("paper_c2_dcdpor_safe.c"));
    assert_eq!(r.findings.stats.executions, 2, "{:?}", r.findings.stats);
    assert_eq!(r.classes, Some(2));
    assert_verdicts(&["paper_c2_dcdpor_safe.c"], &["paper_c2_dcdpor_unsafe.c"]);
}

/// B3 with 3 threads (`x = 1; a_i = x;`): every read observes 1, one class, one execution.
#[test]
fn b3_rvf_explores_one_execution() {
    let r = rvf_all(&load("paper_b3_exponential_n3.c"));
    assert_eq!(r.findings.stats.executions, 1, "{:?}", r.findings.stats);
    assert_eq!(r.classes, Some(1));
    assert_verdicts(&["paper_b3_exponential_n3.c"], &[]);
}

/// C1 (bodies as atomic blocks): TRUE from z = -2, FALSE from z = -1 (only r.q.p ends with
/// z == -1 there: an exploration that merged q's runs wrongly would miss it).
#[test]
fn c1_verdicts() {
    assert_verdicts(
        &[
            "paper_c1_atomic_zm2_true.c",
            "paper_c1_working_example_zm2.c",
        ],
        &["paper_c1_working_example_zm1.c"],
    );
}

/// The instances explored are never more than the runs source-DPOR explores (one per
/// Mazurkiewicz trace), and on B2 strictly fewer.
#[test]
fn rvf_explores_no_more_than_dpor() {
    for name in [
        "paper_b2_fig6_safe.c",
        "paper_c2_dcdpor_safe.c",
        "paper_b3_exponential_n3.c",
        "paper_c1_atomic_zm2_true.c",
    ] {
        let prog = load(name);
        let r = rvf_all(&prog);
        let d = yogar::explore::dpor::explore(
            &prog,
            &yogar::explore::dpor::Options {
                bounds: bounds(2),
                budget: Budget::default(),
                constrained: false,
                all: true,
                keep_runs: false,
                concolic: None,
                data_races: false,
            },
        );
        assert!(
            r.findings.stats.executions <= d.findings.stats.executions,
            "{name}: rvf {} dpor {}",
            r.findings.stats.executions,
            d.findings.stats.executions
        );
    }
}

/// A write through a thread-local pointer to a heap object another thread frees: the order
/// in which the write meets the dead object is a real run that traps, so the answer is
/// UNKNOWN (as dpor's), never TRUE. Were such writes non-read events, every extension would
/// run the write before the free and never meet that order.
#[test]
fn write_after_a_concurrent_free_is_not_true() {
    // The freeing thread finds the pointer in a global (a read) or in its argument.
    for (how, arg, freed) in [("global", "0", "p"), ("argument", "q", "a")] {
        let src = format!(
            "#include <pthread.h>\n#include <stdlib.h>\nint *p;\n\
             void *t1(void *a) {{ free({freed}); return 0; }}\n\
             int main(void) {{ pthread_t t; int *q = malloc(sizeof(int)); p = q;\n\
             pthread_create(&t, 0, t1, {arg}); *q = 1; pthread_join(t, 0); return 0; }}\n"
        );
        let v = source_verdict(&src);
        assert!(matches!(v, Verdict::Unknown(_)), "{how}: {v:?}");
    }
}

/// A release after another thread's `pthread_mutex_init` of the held mutex traps (as dpor
/// finds: the thread no longer holds it), so the answer is UNKNOWN, never TRUE. The init
/// runs only once the critical section's write is seen; were the release a non-read event,
/// every extension would run it right after the acquisition, before the init.
#[test]
fn release_after_a_concurrent_init_is_not_true() {
    let src = "#include <pthread.h>\n\
               pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint x;\n\
               void *t1(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); \
               return 0; }\n\
               void *t2(void *a) { if (x == 1) pthread_mutex_init(&m, 0); return 0; }\n\
               int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0);\n\
               pthread_create(&b, 0, t2, 0); pthread_join(a, 0); pthread_join(b, 0); \
               return 0; }\n";
    let v = source_verdict(src);
    assert!(matches!(v, Verdict::Unknown(_)), "{v:?}");
}

/// A budget of executions answers UNKNOWN with that reason.
#[test]
fn budget_gives_unknown() {
    let v = yogar::explore::verify(
        &load("paper_c1_working_example_zm2.c"),
        &EngineOptions::with_unwind(2),
        Explorer::Rvf,
        Some(1),
    )
    .verdict;
    assert!(matches!(v, Verdict::Unknown(_)), "{v:?}");
}

/// An event of the closure tests: it reads the mutex `M` observing `seen` and writes it
/// (an acquisition), or only writes it (a release).
fn mutex_event(seen: Option<Option<(usize, u32)>>) -> rvf::event::Ev {
    const M: rvf::event::SyncKey = (0, 0, 0, 0);
    rvf::event::Ev::from(rvf::event::EvData {
        obs: seen.map(rvf::event::Obs::Sync).into_iter().collect(),
        choices: Vec::new(),
        pure_read: false,
        sync_reads: seen.map(|w| (M, w)).into_iter().collect(),
        sync_writes: vec![M],
        reads: Vec::new(),
        writes: Vec::new(),
        writes_symbolic: false,
    })
}

/// The closure keeps the instance where the second acquisition follows the first release,
/// and rejects its twins in which both acquisitions observe the same writer (two atomic
/// read-writes of one object cannot both follow the same write).
#[test]
fn closure_rejects_two_acquisitions_of_one_release() {
    let t0 = vec![mutex_event(Some(None)), mutex_event(None)];
    let ok = [t0.clone(), vec![mutex_event(Some(Some((0, 1))))]];
    assert!(rvf::closure::consistent(&ok, None, &|_| None));
    let both_first = [t0.clone(), vec![mutex_event(Some(None))]];
    assert!(!rvf::closure::consistent(&both_first, None, &|_| None));
    // The same, with the second acquisition as the candidate of VerifySC.
    let cand = mutex_event(Some(None));
    assert!(!rvf::closure::consistent(
        std::slice::from_ref(&t0),
        Some((1, &cand)),
        &|_| None
    ));
    let cand = mutex_event(Some(Some((0, 1))));
    assert!(rvf::closure::consistent(
        std::slice::from_ref(&t0),
        Some((1, &cand)),
        &|_| None
    ));
    // Three acquisitions after the one release: two of them observe the same writer.
    let three = [
        t0,
        vec![mutex_event(Some(Some((0, 1))))],
        vec![mutex_event(Some(Some((0, 1))))],
    ];
    assert!(!rvf::closure::consistent(&three, None, &|_| None));
}

/// Two threads that write x and read it back: at the node where both reads are next, the
/// causal map forbids the second thread's children to have the first read observe only
/// events of that node. Without it the same instances are reached again and dropped by the
/// memo; with it they are never reached (no instance twice, `redundant` 0), and the explored
/// instances, executions, classes and verdicts are the same. The FALSE twin stays FALSE.
/// (Witness-search steps are not compared: greedy rule 1b is off under a map, and saves
/// about as many steps without one as the map does.)
#[test]
fn causal_maps_cut_revisits_and_keep_the_verdict() {
    for (name, violation) in [
        ("rvf_two_readers_true.c", false),
        ("rvf_two_readers_false.c", true),
    ] {
        let prog = load(name);
        let with = rvf_all_maps(&prog, true);
        let without = rvf_all_maps(&prog, false);
        let (w, wo) = (&with.findings.stats, &without.findings.stats);
        assert!(wo.redundant > 0, "{name}: {wo:?}");
        assert_eq!(w.redundant, 0, "{name}: {w:?}");
        assert!(w.causal_cuts > 0, "{name}: {w:?}");
        assert_eq!(wo.causal_cuts, 0, "{name}: {wo:?}");
        assert_eq!(w.nodes, wo.nodes, "{name}: {w:?} vs {wo:?}");
        assert_eq!(w.executions, wo.executions, "{name}");
        // After a violation a witness search stops (`verify_sc::search` returns at the first
        // violating run): the rest of the space is not covered then, in either exploration.
        if without.findings.violation.is_none() {
            assert_eq!(with.classes, without.classes, "{name}");
        }
        assert_eq!(with.findings.violation.is_some(), violation, "{name}");
        assert_eq!(without.findings.violation.is_some(), violation, "{name}");
    }
    assert_verdicts(&["rvf_two_readers_true.c"], &["rvf_two_readers_false.c"]);
}

/// rvf over the whole space of `prog` at bound 2 within half a second, joins of finished
/// threads folded into the extension (`rvf::joins`) or not.
fn joins_folded(prog: &Program, fold: bool) -> rvf::Report {
    rvf::explore(
        prog,
        &rvf::Options {
            fold_joins: fold,
            ..options(2, Some(std::time::Duration::from_millis(500)))
        },
    )
}

/// The join twins: a violation that needs main's join of a finished thread late (another
/// thread reads between the joined thread's write and main's write after the join) and one
/// that needs it early are both found with the joins folded, and the TRUE twin stays TRUE;
/// the folded exploration of the lock counter's joins reaches fewer instances.
#[test]
fn folded_joins_keep_the_join_twins() {
    assert_verdicts(
        &["join_fold_order_true.c"],
        &["join_fold_late_false.c", "join_fold_early_false.c"],
    );
    for name in ["join_fold_late_false.c", "join_fold_early_false.c"] {
        let prog = load(name);
        for fold in [true, false] {
            let r = joins_folded(&prog, fold);
            assert!(r.findings.violation.is_some(), "{name}, fold {fold}");
        }
    }
    let prog = load("join_fold_order_true.c");
    let (with, without) = (joins_folded(&prog, true), joins_folded(&prog, false));
    assert!(with.findings.violation.is_none() && without.findings.violation.is_none());
    assert_eq!(with.classes, without.classes);
    assert!(
        with.findings.stats.nodes < without.findings.stats.nodes,
        "{} vs {}",
        with.findings.stats.nodes,
        without.findings.stats.nodes
    );
}

/// The 4-byte global cell `x` of the memory closure tests.
const X: Target = Target::Mem {
    obj: ObjId { owner: 0, index: 0 },
    off: 0,
    len: 4,
};

/// An event of the memory closure tests: it reads `x` observing `read`, or writes `write`
/// into it.
fn mem_event(read: Option<u64>, write: Option<u64>) -> rvf::event::Ev {
    rvf::event::Ev::from(rvf::event::EvData {
        obs: read
            .map(|v| rvf::event::Obs::Mem(Value::Scalar(Scalar::int(v))))
            .into_iter()
            .collect(),
        choices: Vec::new(),
        pure_read: write.is_none(),
        sync_reads: Vec::new(),
        sync_writes: Vec::new(),
        reads: read.map(|_| X).into_iter().collect(),
        writes: write.map(|v| (X, v)).into_iter().collect(),
        writes_symbolic: false,
    })
}

fn rd(v: u64) -> rvf::event::Ev {
    mem_event(Some(v), None)
}

fn wr(v: u64) -> rvf::event::Ev {
    mem_event(None, Some(v))
}

/// The closure over memory reads: a read needs a visible write of its value (or the initial
/// value), and reads in program order cannot go back to an overwritten value. Each rejected
/// instance has a consistent twin that differs in one value or in the order of two reads.
#[test]
fn closure_rejects_memory_reads_without_a_visible_write_of_their_value() {
    let zero = |_: &Target| Some(0u64);
    let closure = |inst: &[Vec<rvf::event::Ev>]| rvf::closure::consistent(inst, None, &zero);
    // A value no one writes, the initial value 0 aside.
    assert!(closure(&[vec![wr(1)], vec![rd(1)]]));
    assert!(closure(&[vec![wr(1)], vec![rd(0)]]));
    assert!(!closure(&[vec![wr(1)], vec![rd(2)]]));
    // A cell `init` does not know (not a global variable's) is left alone.
    assert!(rvf::closure::consistent(
        &[vec![wr(1)], vec![rd(2)]],
        None,
        &|_| None
    ));
    // Coherence: once 1 is read, the initial 0 is overwritten for good.
    assert!(closure(&[vec![wr(1)], vec![rd(0), rd(1)]]));
    assert!(!closure(&[vec![wr(1)], vec![rd(1), rd(0)]]));
    // Rule 4 and hiding: reading 2 puts x = 2 after x = 1, so 1 cannot be read later.
    assert!(closure(&[vec![wr(1), wr(2)], vec![rd(1), rd(2)]]));
    assert!(!closure(&[vec![wr(1), wr(2)], vec![rd(2), rd(1)]]));
    // A thread's own write hides the initial value from its later read.
    assert!(!closure(&[vec![wr(1), rd(0)]]));
    // The same as VerifySC's candidate event.
    let t0 = vec![wr(1), wr(2)];
    let t1 = vec![rd(2)];
    assert!(!rvf::closure::consistent(
        &[t0.clone(), t1.clone()],
        Some((1, &rd(1))),
        &zero
    ));
    assert!(rvf::closure::consistent(
        &[t0, t1],
        Some((1, &rd(2))),
        &zero
    ));
    // A write that covers x and more mixes bytes: the read is left to VerifySC.
    let mut wide = wr(7);
    wide.writes = vec![(
        Target::Mem {
            obj: ObjId { owner: 0, index: 0 },
            off: 0,
            len: 8,
        },
        7,
    )];
    assert!(closure(&[vec![wide], vec![rd(2)]]));
    // A write of a symbolic value (its bytes this run's only) or a read of one is left to
    // VerifySC: the same instance must be judged alike under every input on its path.
    let mut sym = wr(1);
    sym.writes_symbolic = true;
    assert!(closure(&[vec![sym], vec![rd(2)]]));
    let mut sym_read = rd(2);
    sym_read.obs = vec![rvf::event::Obs::Mem(Value::Scalar(Scalar {
        sym: Some(yogar::explore::concolic::term::Terms::default().input(
            yogar::explore::concolic::term::InputKey {
                thread: 0,
                index: 0,
            },
            32,
        )),
        ..Scalar::int(2)
    }))];
    assert!(closure(&[vec![wr(1)], vec![sym_read]]));
}

/// A settled read (no thread can write what it reads any more) is processed alone, and the
/// FALSE twins show that doing so keeps every value it can read and every order of the
/// other threads' reads.
#[test]
fn settled_reads_are_taken_alone_and_lose_no_run() {
    for (name, violation) in [
        ("settled_read_after_joins_true.c", false),
        ("settled_read_after_joins_false.c", true),
        ("settled_read_beside_reader_false.c", true),
    ] {
        let r = rvf_all(&load(name));
        assert!(
            r.findings.stats.settled >= 1,
            "{name}: the rule never applied"
        );
        assert_eq!(r.findings.violation.is_some(), violation, "{name}");
    }
    assert_verdicts(
        &["settled_read_after_joins_true.c"],
        &[
            "settled_read_after_joins_false.c",
            "settled_read_beside_reader_false.c",
        ],
    );
}

/// A settled read whose step ends the run at an asserted loop bound does not stand for the
/// runs that end before it: the node processes the other reads too and meets the violation.
/// Its twin with a safe reader has no TRUE verdict (every run that lets `a` spin hits the
/// bound), and the fallback must not make one: it stays UNKNOWN.
#[test]
fn a_settled_read_that_hits_the_bound_keeps_the_other_reads() {
    let name = "settled_read_hits_bound_false.c";
    let r = rvf_all(&load(name));
    assert!(r.findings.stats.settled >= 1, "the rule never applied");
    assert!(r.findings.violation.is_some(), "violation lost");
    assert_verdicts(&[], &[name]);
    let safe = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/programs")
            .join(name),
    )
    .expect("readable")
    .replace("if (v != 1) reach_error();", "if (v > 1) reach_error();");
    let v = source_verdict(&safe);
    assert!(matches!(v, Verdict::Unknown(_)), "{v:?}");
}

/// The program on which the paper's backtrack signals, applied to our events, would lose
/// the violation: a step that reads x and writes y atomically runs before the node's events.
#[test]
fn a_write_only_possible_before_the_node_is_not_lost() {
    assert_verdicts(
        &["atomic_write_before_read_true.c"],
        &["atomic_write_before_read_false.c"],
    );
}

/// VerifySC's greedy rule for writes (rule 1b, `verify_sc::quiet_write`): a write to
/// global memory whose cells' current and new values no event left to run needs is taken
/// without branching. It applies on B3 (each thread's write of its own `a_i` while main's
/// reads of them are not yet in the instance) and on the twins. In the first FALSE twin the
/// write is read by the event whose values the search enumerates: taken alone there, it
/// would hide the value 0 from that read. In the second, a later read of the instance needs
/// the value the write puts: taken first, another write's value would be lost in between.
/// Each FALSE twin turns TRUE when the rule ignores its case.
#[test]
fn unneeded_writes_are_taken_alone_and_lose_no_value() {
    for (name, violation) in [
        ("paper_b3_exponential_n3.c", false),
        ("unneeded_write_read_by_candidate_true.c", false),
        ("unneeded_write_read_by_candidate_false.c", true),
        ("unneeded_write_value_needed_later_true.c", false),
        ("unneeded_write_value_needed_later_false.c", true),
    ] {
        let r = rvf_all(&load(name));
        assert!(
            r.findings.stats.quiet_writes >= 1,
            "{name}: the rule never applied"
        );
        assert_eq!(r.findings.violation.is_some(), violation, "{name}");
    }
    assert_verdicts(
        &[
            "unneeded_write_read_by_candidate_true.c",
            "unneeded_write_value_needed_later_true.c",
        ],
        &[
            "unneeded_write_read_by_candidate_false.c",
            "unneeded_write_value_needed_later_false.c",
        ],
    );
}

/// A lock whose mutex is named through a pointer that two threads write: the run the node's
/// witness makes ends with the lock waiting, but another witness of the same instance lets
/// it pass. The node must search that lock's read (and not count the run as its only end).
#[test]
fn a_wait_named_through_memory_two_threads_write_is_searched() {
    assert_verdicts(
        &["lock_through_pointer_true.c"],
        &["lock_through_pointer_false.c"],
    );
}

/// A wait named through memory that a single other thread writes: every witness of the
/// node's instance ends after that write, where the wait blocks, but the wait's read can
/// run before it and name a mutex or thread that lets it pass. Only a cell no other thread
/// writes (besides thread 0 before its first thread creation) fixes what it waits for.
#[test]
fn a_wait_named_through_memory_one_other_thread_writes_is_searched() {
    assert_verdicts(
        &["lock_through_pointer_one_writer_true.c"],
        &[
            "lock_through_pointer_one_writer_false.c",
            "join_through_memory_one_writer_false.c",
        ],
    );
}

/// main's locals belong to owner 0 like the globals, but start indeterminate, and a read of
/// indeterminate bytes fills them with a nondet value without a logged write. The closure
/// (and greedy rule 1b) must leave their reads alone: taking the initial zero bytes and the
/// logged writes as all the values such a local can hold rejects the read of 1. The
/// programs live in `tests/programs/indeterminate`, outside the folder every engine and
/// `yogar replay` run: a witness records no value for a read of indeterminate memory, so
/// replay cannot confirm their FALSE (left for the witness work).
#[test]
fn reads_of_main_locals_are_not_constrained_by_their_logged_writes() {
    assert_verdicts(
        &["indeterminate/main_local_read_by_thread_true.c"],
        &[
            "indeterminate/main_local_read_by_thread_false.c",
            "indeterminate/main_local_read_by_main_false.c",
        ],
    );
}

/// An atomic section that, run from a node's witness state, blocks right after it opens (its
/// lock's mutex is named through memory that the witness left pointing at a held mutex)
/// is cut short there: it is no non-read event of the extension, and the cells it reads are
/// not known from that run (`event::next_cells`), so greedy rule 1b must not take a write
/// of what the whole section would read alone.
#[test]
fn an_atomic_section_cut_short_at_a_node_is_searched_whole() {
    assert_verdicts(
        &["atomic_lock_blocked_at_node_true.c"],
        &["atomic_lock_blocked_at_node_false.c"],
    );
}

/// Symbolic inputs (`rvf::inputs`): the whole space of each twin, every input class, with
/// the explored executions and the input classes (explorations) counted. In the `read or
/// initial` twins the read of the stored input and the reads of the constants have the
/// same bits under the first inputs (all 0) and are told apart by the input's term (with
/// the terms stripped from the observations, the FALSE twin is answered TRUE); in the
/// `two inputs, one cell` twins both stores write the initial bytes under the first inputs,
/// which the closure and greedy rule 1b must not compare. The input classes: in range or
/// not for each input (an assumption of both bounds is one condition), and in the FALSE
/// twins the class of the failing values on top (x = 5; x = 3 with y = 4).
#[test]
fn symbolic_inputs_cover_every_input_class() {
    for (name, violation, executions, classes) in [
        ("rvf_input_read_or_initial_false.c", true, 5, 3),
        ("rvf_input_read_or_initial_true.c", false, 3, 2),
        ("rvf_two_inputs_one_cell_false.c", true, 28, 6),
        ("rvf_two_inputs_one_cell_true.c", false, 14, 4),
    ] {
        let r = rvf_all(&load(name));
        let s = &r.findings.stats;
        assert!(
            r.findings.incomplete.is_none(),
            "{name}: {:?}",
            r.findings.incomplete
        );
        assert_eq!(r.findings.violation.is_some(), violation, "{name}");
        assert_eq!(
            (s.executions, s.input_classes),
            (executions, classes),
            "{name}"
        );
    }
    assert_verdicts(
        &[
            "rvf_input_read_or_initial_true.c",
            "rvf_two_inputs_one_cell_true.c",
            "array_input_index_locked_true.c",
        ],
        &[
            "rvf_input_read_or_initial_false.c",
            "rvf_two_inputs_one_cell_false.c",
            "array_input_index_locked_false.c",
        ],
    );
}

/// Under no-overflow the inputs are enumerated (the shadow records no overflow test as a
/// decision): an input of many values gives UNKNOWN there, never a verdict from classes
/// that an overflow test would have split.
#[test]
fn inputs_are_not_symbolic_without_decisions_for_overflow_tests() {
    let r = rvf::explore(
        &load("rvf_input_read_or_initial_false.c"),
        &rvf::Options {
            count_classes: false,
            symbolic_inputs: false,
            ..options(2, None)
        },
    );
    let why = format!("{:?}", r.findings.incomplete);
    assert!(why.contains("too many values"), "{why}");
}

/// rvf over the whole space of `prog` within `millis` of wall-clock time, as `--engine rvf`
/// explores it: classes not counted, so children whose read stops its thread silently are
/// not explored (`rvf::stopping`); with `count`, classes counted and every child explored.
fn pruned_within(prog: &Program, unwind: u32, count: bool, millis: u64) -> rvf::Report {
    rvf::explore(
        prog,
        &rvf::Options {
            count_classes: count,
            ..options(unwind, Some(std::time::Duration::from_millis(millis)))
        },
    )
}

/// A child whose read makes main abort with nothing the workers can see (a guard in a global
/// only main touches) is not explored, and the exploration is smaller for it; the FALSE
/// twin, whose main writes a global the workers read before it aborts, keeps that child and
/// its violation.
#[test]
fn silent_stops_are_not_explored() {
    let prog = load("silent_stop_guard_true.c");
    // A small program (done in a fraction of half a second), but one program alone: a wall
    // limit of half a second made the test fail on a loaded CI machine.
    let pruned = pruned_within(&prog, 2, false, 30_000);
    let whole = pruned_within(&prog, 2, true, 30_000);
    assert!(pruned.findings.incomplete.is_none() && whole.findings.incomplete.is_none());
    assert!(pruned.findings.violation.is_none() && whole.findings.violation.is_none());
    let (p, w) = (&pruned.findings.stats, &whole.findings.stats);
    assert!(p.silent_stops >= 1, "{p:?}");
    assert_eq!(w.silent_stops, 0);
    assert!(
        p.executions < w.executions,
        "{} vs {}",
        p.executions,
        w.executions
    );
    assert!(p.nodes < w.nodes, "{} vs {}", p.nodes, w.nodes);
    assert_verdicts(&["silent_stop_guard_true.c"], &["silent_stop_seen_false.c"]);
}

/// Under symbolic inputs, a node whose extension stops a silent thread at a failed assumption
/// that could hold is cut (`rvf::assume_stops`): fewer input classes, the same violations. An
/// assumption that never holds (`stop_unsat_assume_false.c`) or cannot hold after its thread
/// branched the other way on the same condition is not cut; with classes counted nothing is.
#[test]
fn silent_failed_assumptions_that_could_hold_are_cut() {
    let cases = [
        ("stop_value_read_later_false.c", true),
        ("stop_value_read_later_true.c", true),
        ("silent_stop_input_false.c", true),
        ("silent_stop_input_true.c", true),
        ("stop_unsat_assume_false.c", false),
        ("stop_assume_after_branch_false.c", false),
        ("stop_assume_after_branch_true.c", false),
    ];
    for (name, cut) in cases {
        let prog = load(name);
        let pruned = pruned_within(&prog, 2, false, 30_000);
        let whole = pruned_within(&prog, 2, true, 30_000);
        assert!(pruned.findings.incomplete.is_none(), "{name}");
        assert!(whole.findings.incomplete.is_none(), "{name}");
        let unsafe_ = name.ends_with("_false.c");
        assert_eq!(pruned.findings.violation.is_some(), unsafe_, "{name}");
        assert_eq!(whole.findings.violation.is_some(), unsafe_, "{name}");
        let (p, w) = (&pruned.findings.stats, &whole.findings.stats);
        assert_eq!(w.pruned_stops, 0, "{name}");
        assert_eq!(p.pruned_stops > 0, cut, "{name}: {p:?}");
        if cut {
            assert!(p.input_classes < w.input_classes, "{name}: {p:?} {w:?}");
        }
    }
    assert_verdicts(
        &[
            "stop_value_read_later_true.c",
            "silent_stop_input_true.c",
            "stop_assume_after_branch_true.c",
        ],
        &[
            "stop_value_read_later_false.c",
            "silent_stop_input_false.c",
            "stop_unsat_assume_false.c",
            "stop_assume_after_branch_false.c",
        ],
    );
}

/// `ir::faint` (what `--engine rvf` explores under unreach-call): the workers' reads whose
/// value reaches nothing are dropped, so the exploration has fewer executions and the same
/// verdict; in the FALSE twin the value reaches an assertion, nothing is dropped and the bug
/// is found; a read that may leave its array stays (it traps: UNKNOWN, never TRUE).
#[test]
fn faint_reads_are_dropped_only_where_nothing_observes_them() {
    use yogar::ir::faint::without_faint_assignments;
    let prog = load("faint_read_true.c");
    let (reduced, dropped) = without_faint_assignments(&prog).expect("faint reads dropped");
    assert_eq!(dropped, 4, "v = 0 and the three reads into v");
    let (full, less) = (rvf_all(&prog), rvf_all(&reduced));
    assert!(full.findings.violation.is_none() && less.findings.violation.is_none());
    assert!(full.findings.incomplete.is_none() && less.findings.incomplete.is_none());
    let (n_full, n_less) = (
        full.findings.stats.executions,
        less.findings.stats.executions,
    );
    assert!(
        n_less < n_full,
        "{n_less} executions with the drop, {n_full} without"
    );
    assert!(matches!(verdict("faint_read_true.c"), Verdict::True { .. }));

    let twin = load("faint_read_false.c");
    assert!(without_faint_assignments(&twin).is_none());
    assert!(matches!(
        verdict("faint_read_false.c"),
        Verdict::False { .. }
    ));

    // x up to 3 indexes a[3] out of bounds: the read of a[x] may trap, so v stays.
    let oob = "#include <pthread.h>\n#include <assert.h>\n\
        extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\n\
        int a[3];\n\
        void *w(void *arg) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x >= 0 && x <= 3);\n\
          int v = 0; v = v + a[x]; a[x % 3] = 1; return 0; }\n\
        int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);\n\
          assert(a[0] <= 1); return 0; }\n";
    let p = frontend::load_source(oob, DataModel::Lp64).expect("program lowers");
    assert!(without_faint_assignments(&p).is_none());
    let v = source_verdict(oob);
    assert!(matches!(v, Verdict::Unknown(_)), "{v:?}");
}
