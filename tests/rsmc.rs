//! The POWER explorer: the seed examples D1-D4 (trace counts, each trace once), SC against
//! POWER, and the classic litmus families against the outcomes the POWER model prescribes.

use std::collections::HashSet;

use yogar::explore::findings::Budget;
use yogar::explore::rsmc::families::{binomial, sb_stores};
use yogar::explore::rsmc::state::{Src, State};
use yogar::explore::rsmc::{explore, MemoryModel, Options, Stats};

fn opts(model: MemoryModel) -> Options {
    Options {
        model,
        max_events: 1000,
        budget: Budget::default(),
    }
}

/// The read-from and coherence choices of a complete state: two runs reach the same trace
/// exactly when these are equal.
fn trace_key(s: &State) -> String {
    let mut k = String::new();
    for e in &s.committed {
        if let Some(src) = s.ev(*e).rf {
            let src = match src {
                Src::Init(l) => format!("i{l}"),
                Src::Store(w) => format!("{}.{}", w.thread, w.index),
            };
            k += &format!("{}.{}<-{src};", e.thread, e.index);
        }
    }
    for (l, co) in s.co.iter().enumerate() {
        k += &format!("co{l}:{co:?};");
    }
    k
}

/// Explores, checking that no trace is reached twice; returns the stats.
fn once(p: &yogar::explore::rsmc::program::Program, model: MemoryModel) -> Stats {
    let mut seen = HashSet::new();
    let (stats, halt) = explore(p, &opts(model), &mut |s| {
        assert!(seen.insert(trace_key(s)), "a trace explored twice");
        false
    });
    assert_eq!(halt, None);
    assert_eq!(stats.traces as usize, seen.len());
    stats
}

#[test]
fn d4_sb_stores_with_syncs_has_three_traces() {
    for model in [MemoryModel::Power, MemoryModel::Sc] {
        assert_eq!(once(&sb_stores(10, true), model).traces, 3);
    }
}

#[test]
fn d4_sb_stores_without_syncs_under_sc_has_three_traces() {
    assert_eq!(once(&sb_stores(10, false), MemoryModel::Sc).traces, 3);
}

#[test]
fn d4_family_without_syncs_on_power_counts_3_plus_binomial() {
    for k in 1..=5u64 {
        let s = once(&sb_stores(k as usize, false), MemoryModel::Power);
        assert_eq!(s.traces, 3 + binomial(2 * k, k), "k = {k}");
    }
}
