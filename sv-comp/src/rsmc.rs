//! Section `rsmc`: the POWER explorer on the store-buffering mutual exclusion family of
//! Abdulla et al. (CAV 2016, Fig. 11: SB+kW with and without syncs), k = 2..10 stores per
//! thread: traces explored, blocked runs and CPU time. With syncs every k gives 3 traces;
//! without them `3 + C(2k, k)` (a wrong count is printed loudly and fails the bench).

use yogar::explore::findings::Budget;
use yogar::explore::rsmc::families::{binomial, sb_stores};
use yogar::explore::rsmc::{explore, MemoryModel, Options};

use super::{process_cpu_time, Options as BenchOptions};

/// Runs the family; false when a count is wrong.
pub fn run(options: &BenchOptions) -> bool {
    let top = if options.quick { 6 } else { 10 };
    println!("== rsmc: SB+kW family on POWER (traces, blocked runs, CPU seconds)");
    println!(
        "{:>3} {:>6} {:>10} {:>8} {:>9}",
        "k", "syncs", "traces", "blocked", "cpu_s"
    );
    let mut ok = true;
    for k in 2..=top {
        for syncs in [true, false] {
            let prog = sb_stores(k, syncs);
            let opts = Options {
                model: MemoryModel::Power,
                max_events: 1000,
                budget: Budget::default(),
            };
            let before = process_cpu_time().unwrap_or_default();
            let (stats, halt) = explore(&prog, &opts, &mut |_| false);
            let cpu = process_cpu_time().unwrap_or_default() - before;
            let want = if syncs {
                3
            } else {
                3 + binomial(2 * k as u64, k as u64)
            };
            let mark = if stats.traces == want && halt.is_none() {
                ""
            } else {
                ok = false;
                "  WRONG COUNT"
            };
            println!(
                "{k:>3} {:>6} {:>10} {:>8} {:>9.2}{mark}",
                if syncs { "yes" } else { "no" },
                stats.traces,
                stats.blocked,
                cpu.as_secs_f64()
            );
        }
    }
    ok
}
