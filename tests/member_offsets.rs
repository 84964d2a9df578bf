//! Accesses through pointers read from shared memory hit only the members the pointer's
//! provenance allows (`sharing::offsets`): counted on the equations of the test programs
//! `member_offsets_*`, whose verdicts `tests/program_verdicts.rs` checks.

use std::path::Path;

use yogar::frontend;
use yogar::ir::DataModel;
use yogar::symex::SymexOutput;

fn equation(name: &str) -> SymexOutput {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    let prog = frontend::load_file(&path, DataModel::Lp64).expect("test program lowers");
    yogar::pipeline::equation(&prog, 2).expect("symbolic execution runs")
}

/// The offsets (in `slots`) of the popper's read events of `slots`, one per event.
fn slot_reads(out: &SymexOutput) -> Vec<u64> {
    let eq = &out.equation;
    eq.events
        .values()
        .filter(|e| e.is_read() && e.thread != eq.init_thread())
        .filter_map(|e| eq.locations[e.location].name.strip_prefix("slots+"))
        .map(|off| off.parse().expect("an offset"))
        .collect()
}

#[test]
fn a_pointer_to_a_member_reads_only_that_member_of_each_slot() {
    // `struct node` is four 8-byte members (32 bytes); `top` holds `&slots[i]` only, so
    // `t->next`, `t->data` and `u->data` are four alternatives each: `data` (8) and `next`
    // (16) of each slot, never `id` (0) or `tag` (24).
    let reads = slot_reads(&equation("member_offsets_true.c"));
    assert_eq!(reads.len(), 12, "{reads:?}");
    assert!(reads.iter().all(|o| matches!(o % 32, 8 | 16)), "{reads:?}");
}

#[test]
fn a_pointer_moved_by_byte_arithmetic_keeps_the_members_it_may_reach() {
    // `(char *)n - 8` stored in `top`: `top->data` is then some slot's `id`, where the bug is.
    let reads = slot_reads(&equation("member_offsets_shifted_false.c"));
    assert!(reads.iter().any(|o| o % 32 == 0), "{reads:?}");
}
