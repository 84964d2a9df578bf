//! Section `depth` (issue #27): the default engine against the monolithic one on the
//! deep-bound set, each task at the bound it needs, and the default engine on the tasks whose
//! equations are the largest (those that ran out of memory under 4 GB).
//!
//! The deep-bound set runs three configurations side by side per task (`--32
//! --no-unwinding-assertions`, the bounded problem, as in `engines`): the default, and the
//! monolithic engine on CaDiCaL and on batsat. A cell is the verdict, the CPU seconds of the
//! child, the clauses of its formula and its peak resident memory. Under the table, per
//! configuration: the tasks decided right and the total CPU time, a run without a verdict
//! (time-out, UNKNOWN, crash) counted at the limit; then the ratio of the best monolithic
//! configuration's total to the default's ([`DepthTotals`]). Since unfinished runs count at
//! the limit, a ratio with a monolithic time-out is a lower bound (marked `>=`).
//!
//! The large set runs the default alone at each task's bound, with ζ's value clauses the
//! ordering theory enforced instead of clauses (`encoder::ValueEquality`).

use std::path::Path;

use super::runs::{self, bounded_args, ratio, BenchTask, EngineRun};
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

/// The largest equations, at the bounds where they grow past memory.
pub const LARGE: &[(&str, u32)] = &[
    ("pthread-divine/divinefifo_1w1r", 2),
    ("pthread-complex/elimination_backoff_stack", 2),
    ("pthread/queue_ok_longest", 8),
    ("pthread-ext/26_stack_cas_longest-2", 4),
];

/// Seconds of CPU per run by default.
pub const DEFAULT_LIMIT: f64 = 60.0;

/// One configuration of the comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    pub name: &'static str,
    pub args: &'static [&'static str],
    pub monolithic: bool,
}

/// The default first, then the monolithic baselines.
pub const CONFIGS: [Config; 3] = [
    Config {
        name: "default",
        args: &[],
        monolithic: false,
    },
    Config {
        name: "mono-cadical",
        args: &["--engine", "monolithic", "--solver", "cadical"],
        monolithic: true,
    },
    Config {
        name: "mono-batsat",
        args: &["--engine", "monolithic", "--solver", "batsat"],
        monolithic: true,
    },
];

/// Every configuration on one task at its bound.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthRow {
    pub task: String,
    pub bound: u32,
    pub expected: Option<bool>,
    /// One run per configuration, in the order of the configuration list.
    pub runs: Vec<EngineRun>,
}

/// A run's CPU seconds as the totals count them: its own when it gave a verdict, the limit
/// when not (a time-out, an UNKNOWN, a crash), so an unfinished run never looks cheap.
pub fn charged_seconds(run: &EngineRun, limit: f64) -> f64 {
    if run.verdict.finished() {
        run.seconds()
    } else {
        limit
    }
}

/// Decided right: FALSE on a FALSE task, TRUE on a TRUE one (at the bound it needs, the
/// bounded problem's answer is the task's).
pub fn right(run: &EngineRun, expected: Option<bool>) -> bool {
    run.verdict.as_bool().is_some() && run.verdict.as_bool() == expected
}

/// The numbers under the deep-bound table.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthTotals {
    pub tasks: usize,
    /// Per configuration: tasks decided right.
    pub right: Vec<usize>,
    /// Per configuration: runs without a verdict (counted at the limit).
    pub unfinished: Vec<usize>,
    /// Per configuration: total CPU seconds, unfinished runs at the limit.
    pub total: Vec<f64>,
    /// The monolithic configuration with the smallest total (its index).
    pub best_monolithic: Option<usize>,
    /// Its total over the default's.
    pub ratio: Option<f64>,
    /// Whether that ratio is only a lower bound: the best monolithic configuration left a
    /// run unfinished, so its true total is larger.
    pub ratio_is_lower_bound: bool,
}

/// The totals of `rows` under `configs` (the default first) at CPU limit `limit`.
pub fn totals(rows: &[DepthRow], configs: &[Config], limit: f64) -> DepthTotals {
    let per = |f: &dyn Fn(usize) -> usize| (0..configs.len()).map(f).collect::<Vec<_>>();
    let right = per(&|k| {
        rows.iter()
            .filter(|r| right(&r.runs[k], r.expected))
            .count()
    });
    let unfinished = per(&|k| {
        rows.iter()
            .filter(|r| !r.runs[k].verdict.finished())
            .count()
    });
    let total: Vec<f64> = (0..configs.len())
        .map(|k| {
            rows.iter()
                .map(|r| charged_seconds(&r.runs[k], limit))
                .fold(0.0, |a, b| a + b)
        })
        .collect();
    let best_monolithic = (0..configs.len())
        .filter(|&k| configs[k].monolithic)
        .min_by(|&a, &b| total[a].total_cmp(&total[b]));
    DepthTotals {
        tasks: rows.len(),
        ratio: best_monolithic.and_then(|m| ratio(total[m], total[0])),
        ratio_is_lower_bound: best_monolithic.is_some_and(|m| unfinished[m] > 0),
        best_monolithic,
        right,
        unfinished,
        total,
    }
}

/// The lines under the table.
pub fn render_totals(t: &DepthTotals, configs: &[Config], limit: f64) -> String {
    let mut out = format!(
        "-- deep-bound set, {} tasks at the bound each needs; a run without a verdict counts \
         {limit} s --\n",
        t.tasks
    );
    for (k, c) in configs.iter().enumerate() {
        out.push_str(&format!(
            "{:<13} right {} of {}  unfinished {}  total CPU s {:.2}\n",
            c.name, t.right[k], t.tasks, t.unfinished[k], t.total[k]
        ));
    }
    if let (Some(m), Some(r)) = (t.best_monolithic, t.ratio) {
        let bound = if t.ratio_is_lower_bound { ">=" } else { "" };
        out.push_str(&format!(
            "best monolithic ({}) total / default total: {bound}{r:.2}\n",
            configs[m].name
        ));
    }
    out
}

fn peak(run: &EngineRun) -> String {
    run.output
        .peak_mib
        .map_or("-".into(), |m| format!("{m:.0}"))
}

fn clauses(run: &EngineRun) -> String {
    run.output.clauses.map_or("-".into(), |c| c.to_string())
}

fn cell(run: &EngineRun, expected: Option<bool>) -> String {
    let mut v = run.verdict.short();
    if run.verdict.finished() && !right(run, expected) {
        v.push('!');
    }
    format!(
        "{v:<8} {:>6.2} {:>9} {:>6}",
        run.seconds(),
        clauses(run),
        peak(run)
    )
}

fn header(configs: &[Config]) -> String {
    let mut s = format!("{:<40} {:>3} {:<5}", "task", "k", "exp");
    for c in configs {
        s.push_str(&format!(
            " | {:<32}",
            format!("{}: verdict cpu clauses MiB", c.name)
        ));
    }
    s
}

fn row_line(r: &DepthRow) -> String {
    let exp = match r.expected {
        Some(true) => "true",
        Some(false) => "false",
        None => "?",
    };
    let mut s = format!("{:<40} {:>3} {exp:<5}", r.task, r.bound);
    for run in &r.runs {
        s.push_str(&format!(" | {:<32}", cell(run, r.expected)));
    }
    s
}

fn find<'a>(tasks: &'a [BenchTask], name: &str) -> Option<&'a BenchTask> {
    let found = tasks.iter().find(|t| t.stem() == name);
    if found.is_none() {
        println!("{name:<40} not in tasks.csv");
    }
    found
}

/// The deep-bound comparison: one row per task as it ends, then the totals.
fn deep(yogar: &Path, tasks: &[BenchTask], options: &Options, limit: f64) {
    println!("{}", header(&CONFIGS));
    let wanted = |name: &str| options.filter.as_ref().is_none_or(|f| name.contains(f));
    let mut rows = Vec::new();
    for &(name, k) in DEEP.iter().filter(|(n, _)| wanted(n)) {
        let Some(task) = find(tasks, name) else {
            continue;
        };
        let runs = CONFIGS
            .iter()
            .map(|c| runs::run_verify(yogar, &bounded_args(k, c.args), &task.input, limit))
            .collect();
        let row = DepthRow {
            task: name.to_string(),
            bound: k,
            expected: task.expected,
            runs,
        };
        println!("{}", row_line(&row));
        rows.push(row);
    }
    if !rows.is_empty() {
        print!(
            "{}",
            render_totals(&totals(&rows, &CONFIGS, limit), &CONFIGS, limit)
        );
    }
}

pub fn run(options: &Options) {
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    println!("== depth: default against monolithic at the bound each task needs, limit {limit} s CPU per run ==");
    let Some((_, yogar, tasks)) = runs::setup(options) else {
        return;
    };
    deep(&yogar, &tasks, options, limit);
    if options.quick {
        return;
    }
    println!("-- the largest equations, default engine --");
    println!(
        "{:<40} {:>3} | {:<8} {:>7} {:>10} {:>10} {:>8}",
        "task", "k", "verdict", "cpu s", "clauses", "zeta thy", "peak MiB"
    );
    let wanted = |name: &str| options.filter.as_ref().is_none_or(|f| name.contains(f));
    for &(name, k) in LARGE.iter().filter(|(n, _)| wanted(n)) {
        let Some(task) = find(&tasks, name) else {
            continue;
        };
        let run = runs::run_verify(&yogar, &bounded_args(k, &[]), &task.input, limit);
        println!(
            "{name:<40} {k:>3} | {:<8} {:>7.2} {:>10} {:>10} {:>8}",
            run.verdict.short(),
            run.seconds(),
            clauses(&run),
            run.output
                .zeta_in_theory
                .map_or("-".into(), |c| c.to_string()),
            peak(&run)
        );
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::runs::RunVerdict;

    fn run(verdict: RunVerdict, secs: f64) -> EngineRun {
        EngineRun::took(verdict, secs)
    }

    fn timeout(secs: f64) -> EngineRun {
        run(RunVerdict::Unknown("timeout (CPU limit)".into()), secs)
    }

    fn row(expected: bool, runs: Vec<EngineRun>) -> DepthRow {
        DepthRow {
            task: "t".into(),
            bound: 3,
            expected: Some(expected),
            runs,
        }
    }

    #[test]
    fn unfinished_runs_count_at_the_limit_and_the_best_monolithic_total_is_taken() {
        let rows = vec![
            // Default 2 s; cadical times out after 61.3 s (charged 60); batsat 30 s.
            row(
                true,
                vec![
                    run(RunVerdict::True, 2.0),
                    timeout(61.3),
                    run(RunVerdict::True, 30.0),
                ],
            ),
            // Default 4 s; cadical 5 s; batsat gives up early (charged 60).
            row(
                false,
                vec![
                    run(RunVerdict::False, 4.0),
                    run(RunVerdict::False, 5.0),
                    run(RunVerdict::Unknown("unsupported: x".into()), 0.1),
                ],
            ),
        ];
        let t = totals(&rows, &CONFIGS, 60.0);
        assert_eq!(t.tasks, 2);
        assert_eq!(t.right, vec![2, 1, 1]);
        assert_eq!(t.unfinished, vec![0, 1, 1]);
        assert_eq!(t.total, vec![6.0, 65.0, 90.0]);
        assert_eq!(t.best_monolithic, Some(1));
        assert!((t.ratio.unwrap() - 65.0 / 6.0).abs() < 1e-9);
        assert!(t.ratio_is_lower_bound);
        let text = render_totals(&t, &CONFIGS, 60.0);
        assert!(text.contains("best monolithic (mono-cadical) total / default total: >=10.83"));
        assert!(text.contains("default       right 2 of 2  unfinished 0  total CPU s 6.00"));
    }

    #[test]
    fn a_wrong_or_unfinished_default_is_not_right_and_an_exact_ratio_is_unmarked() {
        let rows = vec![row(
            true,
            vec![
                run(RunVerdict::False, 1.0),
                run(RunVerdict::True, 3.0),
                run(RunVerdict::True, 2.0),
            ],
        )];
        let t = totals(&rows, &CONFIGS, 60.0);
        assert_eq!(t.right, vec![0, 1, 1]);
        assert_eq!(t.best_monolithic, Some(2));
        assert_eq!(t.ratio, Some(2.0));
        assert!(!t.ratio_is_lower_bound);
        assert!(render_totals(&t, &CONFIGS, 60.0).contains("default total: 2.00\n"));
        // A default time-out is charged the limit too.
        let rows = vec![row(true, vec![timeout(70.0), timeout(70.0), timeout(70.0)])];
        let t = totals(&rows, &CONFIGS, 60.0);
        assert_eq!(t.total, vec![60.0, 60.0, 60.0]);
        assert_eq!(t.ratio, Some(1.0));
        assert_eq!(charged_seconds(&run(RunVerdict::True, 7.5), 60.0), 7.5);
    }

    #[test]
    fn no_rows_give_no_ratio() {
        let t = totals(&[], &CONFIGS, 60.0);
        assert_eq!(t.total, vec![0.0, 0.0, 0.0]);
        assert_eq!(t.ratio, None);
        assert!(!render_totals(&t, &CONFIGS, 60.0).contains("best monolithic"));
    }
}
