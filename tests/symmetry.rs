//! Symmetry breaking between identical threads (`symex::symmetry`): counts the search orders
//! the equations of the test programs `symmetry_*` get, whose verdicts
//! `tests/program_verdicts.rs` checks (a TRUE program with twins, and FALSE twins whose error
//! would be lost if their threads were taken as interchangeable).

use std::path::Path;

use yogar::frontend;
use yogar::ir::DataModel;
use yogar::symex::SymexOutput;

/// The shared SV-COMP task `c/<rel>` (`../shared/sv-benchmarks` or `$SVB`), or `None` with a
/// message when there is no checkout.
fn shared_task(rel: &str) -> Option<std::path::PathBuf> {
    let Some(svb) = yogar::svcomp::sv_benchmarks(None) else {
        eprintln!("skipped: no sv-benchmarks checkout (../shared/sv-benchmarks or $SVB)");
        return None;
    };
    Some(svb.join("c").join(rel))
}

fn equation(name: &str, unwind: u32) -> SymexOutput {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    let prog = frontend::load_file(&path, DataModel::Lp64).expect("test program lowers");
    yogar::pipeline::equation(&prog, unwind).expect("symbolic execution runs")
}

/// The (creation number of the thread before, of the thread after) of each search order.
fn ordered_pairs(out: &SymexOutput) -> Vec<(u32, u32)> {
    let eq = &out.equation;
    let number = |e: encoder::Event| {
        let t = eq.events[e].thread;
        out.threads
            .iter()
            .find(|i| i.thread == t)
            .expect("thread")
            .number
    };
    eq.search_orders
        .iter()
        .map(|o| (number(o.before), number(o.after)))
        .collect()
}

#[test]
fn three_identical_adders_get_two_orders_in_creation_order() {
    // main is 0, the stopper 1, the adders 2, 3, 4 (a different entry: no twin of theirs).
    let out = equation("symmetry_twins_true.c", 4);
    let pairs = ordered_pairs(&out);
    // The anchors: consecutive twins. Then (twin_segments) the read of `stopped` and the
    // leaving block, for every pair of twins.
    let every = [(2, 3), (2, 4), (3, 4)];
    let mut expected = vec![(2, 3), (3, 4)];
    expected.extend(every);
    expected.extend(every);
    assert_eq!(pairs, expected);
    // The anchor orders go from a first event to a first event of its thread; every order
    // joins events at the same position of their threads.
    let eq = &out.equation;
    let position = |e: encoder::Event| {
        let t = eq.events[e].thread;
        eq.threads[t]
            .items
            .iter()
            .position(|i| *i == encoder::ThreadItem::Event(e))
            .expect("event of its thread")
    };
    for (i, o) in eq.search_orders.iter().enumerate() {
        assert_eq!(position(o.before), position(o.after));
        if i < 2 {
            assert_eq!(position(o.before), 0);
        } else {
            assert!(position(o.before) > 0);
        }
    }
}

#[test]
fn twins_whose_state_differs_get_a_guarded_segment_order() {
    // The ticket read in the first block decides the second: the second blocks' order is
    // guarded by the equality of the tickets, not by reaching alone.
    let out = equation("twin_segments_state_false.c", 2);
    assert_eq!(ordered_pairs(&out), vec![(1, 2), (1, 2)]);
    let eq = &out.equation;
    let o = &eq.search_orders[1];
    let reach = [o.before, o.after].map(|e| eq.events[e].guard);
    assert!(!reach.contains(&o.guard), "{:?} {reach:?}", o.guard);
}

#[test]
fn twins_that_may_start_in_either_order_get_one_anchor_order() {
    // The anchors, then the four later segments (each guarded by equal tickets, which never
    // holds: the error stays reachable, see program_verdicts).
    let out = equation("symmetry_created_last_first_false.c", 2);
    assert_eq!(ordered_pairs(&out), vec![(1, 2); 5]);
}

#[test]
fn threads_told_apart_get_no_order() {
    for name in [
        "symmetry_args_differ_false.c",
        "symmetry_joined_false.c",
        "symmetry_self_false.c",
        "symmetry_private_address_false.c",
    ] {
        let pairs = ordered_pairs(&equation(name, 2));
        assert!(pairs.is_empty(), "{name}: {pairs:?}");
    }
}

#[test]
fn twins_that_only_access_their_own_objects_through_pointers_are_twins() {
    // main is 0, the workers 1 and 2: each makes a local and a heap cell of its own, whose
    // numbers differ, but no use observes their addresses. The anchor order only: a
    // worker's events are one atomic block, its first segment.
    let out = equation("symmetry_private_objects_true.c", 2);
    assert_eq!(ordered_pairs(&out), vec![(1, 2)]);
}

#[test]
fn entries_with_the_same_body_are_twins() {
    // main is 0, the stopper 1, adder0..adder2 (three functions, one body) 2, 3, 4.
    let out = equation("symmetry_same_body_true.c", 2);
    assert_eq!(ordered_pairs(&out), vec![(2, 3), (3, 4)]);
    // The error whose witness starts the second-created twin first keeps its orders.
    let out = equation("symmetry_same_body_false.c", 2);
    assert_eq!(ordered_pairs(&out), vec![(1, 2)]);
}

#[test]
fn entries_told_apart_by_their_code_or_name_get_no_order() {
    for name in [
        "symmetry_same_body_one_token_false.c",
        "symmetry_same_body_func_false.c",
    ] {
        let pairs = ordered_pairs(&equation(name, 2));
        assert!(pairs.is_empty(), "{name}: {pairs:?}");
    }
}

#[test]
fn twins_joined_in_one_block_keep_their_orders() {
    // The anchors, then (twin_segments, which the join block does not stop) every pair at
    // each of the three later segments.
    let out = equation("symmetry_joined_all_true.c", 4);
    let every = [(1, 2), (1, 3), (2, 3)];
    let mut expected = vec![(1, 2), (2, 3)];
    for _ in 0..3 {
        expected.extend(every);
    }
    assert_eq!(ordered_pairs(&out), expected);
    let out = equation("symmetry_joined_all_false.c", 2);
    assert_eq!(ordered_pairs(&out), vec![(1, 2)]);
}

#[test]
fn joins_that_tell_twins_apart_drop_the_joined_ones() {
    // A check between the joins, a return value read: no order.
    for name in [
        "symmetry_joined_check_between_false.c",
        "symmetry_joined_retval_false.c",
    ] {
        let pairs = ordered_pairs(&equation(name, 2));
        assert!(pairs.is_empty(), "{name}: {pairs:?}");
    }
    // Only t[0] (thread 1) is joined: the other two are still twins of each other.
    let out = equation("symmetry_joined_some_false.c", 4);
    assert_eq!(ordered_pairs(&out), vec![(2, 3)]);
}

#[test]
fn the_elimination_stack_task_orders_its_pushers_and_its_poppers() {
    // instrPush0..2 and instrPop3..6 are seven functions of two bodies (threads 1-3, 4-7).
    let Some(path) = shared_task("pthread-complex/elimination_backoff_stack.i") else {
        return;
    };
    let prog = frontend::load_file(&path, DataModel::Ilp32).expect("task lowers");
    let out = yogar::pipeline::equation(&prog, 1).expect("symbolic execution runs");
    assert_eq!(
        ordered_pairs(&out),
        vec![(1, 2), (2, 3), (4, 5), (5, 6), (6, 7)]
    );
}

#[test]
fn the_deep_driver_task_orders_its_ten_adders_at_three_segments() {
    let Some(path) = shared_task("pthread-lit/qw2004_variant.i") else {
        return;
    };
    let prog = frontend::load_file(&path, DataModel::Ilp32).expect("task lowers");
    let out = yogar::pipeline::equation(&prog, 11).expect("symbolic execution runs");
    let pairs = ordered_pairs(&out);
    // 9 anchor orders, then 45 pairs at the read of `stopped` and at the decrement.
    assert_eq!(pairs.len(), 9 + 2 * 45, "{pairs:?}");
}
