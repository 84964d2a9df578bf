//! Section `depth` (issue #27): how the default engine's CPU time, formula size and peak
//! memory grow with the unwind bound on the deep-bound set, up to the bound each task needs,
//! and on the tasks whose equations are the largest (those that ran out of memory under 4 GB).
//!
//! Each task is run at a few bounds up to its own (`--32 --no-unwinding-assertions`, the
//! bounded problem, as in `engines`); a bound that ends without a verdict stops the task's row
//! (a deeper one would only hit the limit again). The columns are the verdict, the CPU seconds
//! of the child, the clauses of its formula, ζ's value clauses the ordering theory enforced
//! instead of clauses (`encoder::ValueEquality`), and the peak resident memory. The summary
//! gives, at each task's own bound, how many were decided right and their total CPU time
//! (a run without a verdict counted at the limit).

use super::runs::{self, bounded_args, EngineRun};
use super::Options;

/// The deep-bound set of issue #27 with the bound each task needs.
pub const DEEP: &[(&str, u32)] = &[
    ("pthread/triangular-1", 6),
    ("pthread/triangular-longer-2", 11),
    ("pthread-lit/qw2004_variant", 11),
    ("pthread-divine/ring_1w1r-2", 9),
    ("pthread-complex/workstealqueue_mutex-2", 9),
    ("pthread-divine/barrier_2t", 3),
    ("pthread-complex/bounded_buffer", 5),
];

/// The largest equations, at the bounds where they grow past memory (the last bound listed).
pub const LARGE: &[(&str, u32)] = &[
    ("pthread-divine/divinefifo_1w1r", 2),
    ("pthread-complex/elimination_backoff_stack", 2),
    ("pthread/queue_ok_longest", 8),
    ("pthread-ext/26_stack_cas_longest-2", 4),
];

/// Seconds of CPU per run by default.
pub const DEFAULT_LIMIT: f64 = 60.0;

/// The bounds a task is run at: a few evenly spread ones below `k` (from 2), then `k`.
pub fn bounds_up_to(k: u32) -> Vec<u32> {
    let mut out: Vec<u32> = [k / 3, 2 * k / 3].into_iter().filter(|&b| b >= 2).collect();
    out.push(k);
    out.dedup();
    out
}

fn cell(run: &EngineRun) -> String {
    let o = &run.output;
    format!(
        "{:<8} {:>7.2} {:>10} {:>10} {:>8}",
        run.verdict.short(),
        run.seconds(),
        o.clauses.map_or("-".into(), |c| c.to_string()),
        o.zeta_in_theory.map_or("-".into(), |c| c.to_string()),
        o.peak_mib.map_or("-".into(), |m| format!("{m:.0}")),
    )
}

pub fn run(options: &Options) {
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    println!("== depth: the default engine against the bound, limit {limit} s CPU per run ==");
    let Some((_, yogar, tasks)) = runs::setup(options) else {
        return;
    };
    println!(
        "{:<44} {:>5} | {:<8} {:>7} {:>10} {:>10} {:>8}",
        "task", "bound", "verdict", "cpu s", "clauses", "zeta thy", "peak MiB"
    );
    let wanted = |name: &str| options.filter.as_ref().is_none_or(|f| name.contains(f));
    let (mut right, mut total, mut count) = (0, 0.0, 0);
    for (set, list) in [("deep", DEEP), ("large", LARGE)] {
        for &(name, k) in list.iter().filter(|(n, _)| wanted(n)) {
            let Some(task) = tasks.iter().find(|t| t.stem() == name) else {
                println!("{name:<44} not in tasks.csv");
                continue;
            };
            let bounds = if options.quick {
                vec![k]
            } else {
                bounds_up_to(k)
            };
            for &b in &bounds {
                let run = runs::run_verify(&yogar, &bounded_args(b, &[]), &task.input, limit);
                println!("{name:<44} {b:>5} | {}", cell(&run));
                if b == k && set == "deep" {
                    count += 1;
                    total += if run.verdict.finished() {
                        run.seconds()
                    } else {
                        limit
                    };
                    // Decided right: FALSE on a FALSE task, TRUE on a TRUE one (at the
                    // bound it needs, the bounded problem's answer is the task's).
                    if run.verdict.as_bool().is_some() && run.verdict.as_bool() == task.expected {
                        right += 1;
                    }
                }
                if !run.verdict.finished() {
                    break;
                }
            }
        }
    }
    if count > 0 {
        println!(
            "-- deep-bound set at each task's bound: {right} of {count} right, {total:.1} s CPU \
             in total (a run without a verdict counted at {limit} s) --"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_grow_to_the_task_bound() {
        assert_eq!(bounds_up_to(11), vec![3, 7, 11]);
        assert_eq!(bounds_up_to(3), vec![2, 3]);
        assert_eq!(bounds_up_to(2), vec![2]);
    }
}
