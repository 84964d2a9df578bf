//! What the rvf test binaries share: the programs of tests/programs, and the options
//! `--engine rvf` explores with, whole-space and with classes counted.

// Each rvf test binary uses part of this.
#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use yogar::explore::interp::Bounds;
use yogar::explore::{rvf, Budget};
use yogar::frontend;
use yogar::ir::{DataModel, Program};

/// The program `name` of tests/programs, lowered.
pub fn load(name: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    frontend::load_file(&path, DataModel::Lp64).expect("program lowers")
}

/// Loops unrolled `unwind` times, the bound asserted.
pub fn bounds(unwind: u32) -> Bounds {
    Bounds::asserted(unwind)
}

/// The whole space at bound `unwind`, violations included, classes counted, every reduction
/// `--engine rvf` makes on (no causal maps, which it leaves off), within `limit` of
/// wall-clock time when one is given. Tests switch single fields off with struct update.
pub fn options(unwind: u32, limit: Option<Duration>) -> rvf::Options {
    rvf::Options {
        bounds: bounds(unwind),
        budget: Budget {
            max_executions: None,
            deadline: limit.map(|d| Instant::now() + d),
        },
        all: true,
        count_classes: true,
        causal_maps: false,
        fixed_reads: true,
        fold_joins: true,
        fold_guarded: true,
        symbolic_inputs: true,
    }
}
