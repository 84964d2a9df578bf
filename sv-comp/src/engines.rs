//! Section `engines`: every verification engine configuration on the shared SV-COMP tasks at
//! unwind 2, then on a deep-bound set (the tasks that need a larger bound to be decided, each at
//! the bound it needs).
//!
//! The configurations are the default (the ordering theory inside the SAT search, on its
//! default back end), `--engine cegar` (the refinement loop of the Yogar paper) and the
//! monolithic engine (the exact encoding with ξ, one solve) on each SAT back end. Each run is a
//! child `yogar verify --32 --unwind N --no-unwinding-assertions … --stats` under a CPU limit
//! (`--jobs N` runs N tasks side by side; CPU times stay each child's own), so a crash or a
//! runaway task costs one cell. All configurations decide the same bounded problem, so all
//! give TRUE or FALSE wherever they finish: a TRUE/FALSE disagreement means one verdict is wrong;
//! it is printed loudly and fails the bench.
//!
//! The summary gives, per configuration, medians and totals over the tasks every
//! configuration finished, and the speed-up of the default over the best monolithic
//! configuration on the tasks where that one needs more than [`HARD_SECONDS`]. A monolithic run
//! that hits the limit counts with the limit as its time, so such ratios are lower bounds and
//! are marked `>=`.

use std::path::Path;

use super::runs::{self, median, ratio, wrong, BenchTask, EngineRun, RunVerdict};
use super::Options;

/// Tasks taken by default (without `--all`, `--tasks` or `--filter`).
pub const DEFAULT_TASKS: usize = 40;
/// Tasks taken with `--quick`.
pub const QUICK_TASKS: usize = 4;
/// Seconds per engine run by default.
pub const DEFAULT_LIMIT: f64 = 10.0;
/// Best monolithic CPU time above which a task counts as hard for the restricted ratio.
pub const HARD_SECONDS: f64 = 2.0;
/// Loop bound of every run by default.
pub const DEFAULT_UNWIND: u32 = 2;

/// One way of running `yogar verify`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Column name.
    pub name: &'static str,
    /// Arguments that select it (none: what a user gets by default).
    pub args: &'static [&'static str],
    /// One of the monolithic baselines.
    pub monolithic: bool,
}

/// The configurations, the default first.
pub const CONFIGS: [Config; 4] = [
    Config {
        name: "default",
        args: &[],
        monolithic: false,
    },
    Config {
        name: "cegar",
        args: &["--engine", "cegar"],
        monolithic: false,
    },
    Config {
        name: "mono-batsat",
        args: &["--engine", "monolithic", "--solver", "batsat"],
        monolithic: true,
    },
    Config {
        name: "mono-cadical",
        args: &["--engine", "monolithic", "--solver", "cadical"],
        monolithic: true,
    },
];

/// The deep-bound set: tasks whose verdict needs a bound above 2, with the bound each needs
/// (one more than the iterations of its longest loop, or the bound at which its error shows).
pub const DEEP: &[(&str, u32)] = &[
    ("pthread/triangular-1", 6),
    ("pthread/triangular-2", 6),
    ("pthread/triangular-longer-2", 11),
    ("pthread/triangular-longest-1", 21),
    ("pthread/triangular-longest-2", 21),
    ("pthread/queue_ok", 21),
    ("pthread-lit/qw2004_variant", 11),
    ("pthread-lit/fkp2013-1", 51),
    ("pthread-divine/ring_1w1r-2", 9),
    ("pthread-divine/barrier_2t", 3),
    ("pthread-divine/barrier_3t", 3),
    ("pthread-complex/workstealqueue_mutex-1", 9),
    ("pthread-complex/workstealqueue_mutex-2", 9),
];

/// Every configuration on one task at one bound.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskRow {
    pub task: String,
    pub unwind: u32,
    pub expected: Option<bool>,
    /// One run per entry of the configuration list, in its order.
    pub runs: Vec<EngineRun>,
}

impl TaskRow {
    pub fn all_finished(&self) -> bool {
        self.runs.iter().all(|r| r.verdict.finished())
    }

    /// Some configuration says TRUE and another FALSE.
    pub fn disagrees(&self) -> bool {
        let verdicts: Vec<bool> = self
            .runs
            .iter()
            .filter_map(|r| r.verdict.as_bool())
            .collect();
        verdicts.windows(2).any(|w| w[0] != w[1])
    }

    /// The fastest monolithic run (by CPU; an unfinished run counts with its CPU time, i.e.
    /// about the limit): its seconds and whether it finished.
    pub fn best_monolithic(&self, configs: &[Config]) -> Option<(f64, bool)> {
        configs
            .iter()
            .zip(&self.runs)
            .filter(|(c, _)| c.monolithic)
            .map(|(_, r)| (r.seconds(), r.verdict.finished()))
            .min_by(|a, b| {
                // A finished run beats an unfinished one of the same time.
                a.0.total_cmp(&b.0).then(b.1.cmp(&a.1))
            })
    }
}

/// Speed-up of the default over the best monolithic configuration on the hard tasks.
#[derive(Clone, Debug, PartialEq)]
pub struct HardRatio {
    /// Tasks whose best monolithic run takes more than [`HARD_SECONDS`] (finished or not).
    pub tasks: usize,
    /// Of those, where the default finished.
    pub default_finished: usize,
    /// Of those, where no monolithic run finished (their time is the limit: a lower bound).
    pub monolithic_unfinished: usize,
    /// Tasks where neither finished, left out of the ratios.
    pub neither: usize,
    /// Σ best monolithic / Σ default over the hard tasks where one of them finished.
    pub total_ratio: Option<f64>,
    /// Median of the per-task ratios over the same tasks.
    pub median_ratio: Option<f64>,
}

/// The numbers under a table, all computed from its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub tasks: usize,
    pub all_finished: usize,
    /// Per configuration: runs that gave TRUE or FALSE.
    pub finished: Vec<usize>,
    /// Per configuration, over the tasks all finished.
    pub median_cpu: Vec<Option<f64>>,
    pub total_cpu: Vec<f64>,
    pub hard: HardRatio,
    /// Per configuration: FALSE on a task expected TRUE.
    pub wrong: Vec<usize>,
    /// Tasks where configurations gave TRUE and FALSE.
    pub disagreements: Vec<String>,
    /// Per configuration: how many runs ended how (TRUE, FALSE, timeout, ...), by label.
    pub outcomes: Vec<Vec<(String, usize)>>,
}

/// Counts of each verdict label, sorted by label.
fn tally<'a>(runs: impl Iterator<Item = &'a EngineRun>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for run in runs {
        let label = run.verdict.short();
        match counts.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => counts.push((label, 1)),
        }
    }
    counts.sort();
    counts
}

fn hard_ratio(rows: &[&TaskRow], configs: &[Config], hard_seconds: f64) -> HardRatio {
    let mut h = HardRatio {
        tasks: 0,
        default_finished: 0,
        monolithic_unfinished: 0,
        neither: 0,
        total_ratio: None,
        median_ratio: None,
    };
    let (mut sum_m, mut sum_d, mut per_task) = (0.0, 0.0, Vec::new());
    for row in rows {
        let Some((m, m_done)) = row.best_monolithic(configs) else {
            continue;
        };
        // By time, not by verdict: a run that stops early on an unsupported construct is
        // not hard, one that hits the limit is.
        if m <= hard_seconds {
            continue;
        }
        h.tasks += 1;
        let d = &row.runs[0];
        let d_done = d.verdict.finished();
        h.default_finished += usize::from(d_done);
        h.monolithic_unfinished += usize::from(!m_done);
        if !d_done && !m_done {
            h.neither += 1;
            continue;
        }
        sum_m += m;
        sum_d += d.seconds();
        per_task.extend(ratio(m, d.seconds()));
    }
    h.total_ratio = ratio(sum_m, sum_d);
    h.median_ratio = median(&per_task);
    h
}

pub fn summarize(rows: &[TaskRow], configs: &[Config], hard_seconds: f64) -> Summary {
    let all: Vec<&TaskRow> = rows.iter().filter(|r| r.all_finished()).collect();
    let per_config = |f: &dyn Fn(usize) -> f64| (0..configs.len()).map(f).collect::<Vec<_>>();
    let secs = |k: usize| {
        all.iter()
            .map(|r| r.runs[k].seconds())
            .collect::<Vec<f64>>()
    };
    let every: Vec<&TaskRow> = rows.iter().collect();
    Summary {
        tasks: rows.len(),
        all_finished: all.len(),
        finished: (0..configs.len())
            .map(|k| rows.iter().filter(|r| r.runs[k].verdict.finished()).count())
            .collect(),
        median_cpu: (0..configs.len()).map(|k| median(&secs(k))).collect(),
        // Folded from +0.0: an empty float `sum()` is -0.0, which would print as "-0.00".
        total_cpu: per_config(&|k| secs(k).iter().fold(0.0, |a, b| a + b)),
        hard: hard_ratio(&every, configs, hard_seconds),
        wrong: (0..configs.len())
            .map(|k| {
                rows.iter()
                    .filter(|r| wrong(&r.runs[k], r.expected))
                    .count()
            })
            .collect(),
        disagreements: rows
            .iter()
            .filter(|r| r.disagrees())
            .map(|r| format!("{}@{}", r.task, r.unwind))
            .collect(),
        outcomes: (0..configs.len())
            .map(|k| tally(rows.iter().map(|r| &r.runs[k])))
            .collect(),
    }
}

fn opt_f(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.digits$}"))
}

fn expected_str(e: Option<bool>) -> &'static str {
    match e {
        Some(true) => "true",
        Some(false) => "false",
        None => "?",
    }
}

fn header(configs: &[Config]) -> String {
    let mut s = format!("{:<46} {:>3} {:<5}", "task", "k", "exp");
    for c in configs {
        s.push_str(&format!(" | {:<22}", c.name));
    }
    s.push_str(" | mono/default");
    s
}

fn row_line(r: &TaskRow, configs: &[Config]) -> String {
    let name: String = if r.task.len() > 46 {
        format!("..{}", &r.task[r.task.len() - 44..])
    } else {
        r.task.clone()
    };
    let mut s = format!("{name:<46} {:>3} {:<5}", r.unwind, expected_str(r.expected));
    for run in &r.runs {
        let mut v = run.verdict.short();
        if wrong(run, r.expected) {
            v.push_str("(WRONG)");
        }
        s.push_str(&format!(" | {v:<13} {:>8.3}", run.seconds()));
    }
    let speedup = r.best_monolithic(configs).and_then(|(m, m_done)| {
        let d = &r.runs[0];
        (d.verdict.finished() || m_done)
            .then(|| ratio(m, d.seconds()).map(|x| (x, !m_done)))
            .flatten()
    });
    match speedup {
        Some((x, true)) => s.push_str(&format!(" | >={x:.2}")),
        Some((x, false)) => s.push_str(&format!(" | {x:.2}")),
        None => s.push_str(" | -"),
    }
    s
}

/// The summary as printed under a table.
pub fn render_summary(s: &Summary, configs: &[Config], hard_seconds: f64) -> String {
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line(format!(
        "tasks: {}  finished by every configuration: {}",
        s.tasks, s.all_finished
    ));
    for (k, c) in configs.iter().enumerate() {
        let outcomes = s.outcomes[k]
            .iter()
            .map(|(label, n)| format!("{label} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        line(format!(
            "{:<13} finished {:>4}  median CPU s {:>7}  total CPU s {:>9.2}  wrong {}  ({outcomes})",
            c.name,
            s.finished[k],
            opt_f(s.median_cpu[k], 3),
            s.total_cpu[k],
            s.wrong[k]
        ));
    }
    let best_mono_total = configs
        .iter()
        .zip(&s.total_cpu)
        .filter(|(c, _)| c.monolithic)
        .map(|(_, t)| *t)
        .fold(f64::INFINITY, f64::min);
    line(format!(
        "total CPU best monolithic / default (tasks all finished): {}",
        opt_f(ratio(best_mono_total, s.total_cpu[0]), 2)
    ));
    let h = &s.hard;
    let bound = if h.monolithic_unfinished > h.neither {
        ">="
    } else {
        ""
    };
    line(format!(
        "hard tasks (best monolithic run > {hard_seconds} s CPU): {}; default finished {}; \
         no monolithic finished {}; neither finished {} (left out)",
        h.tasks, h.default_finished, h.monolithic_unfinished, h.neither
    ));
    line(format!(
        "  best monolithic / default on them: total {bound}{}  median per task {bound}{}",
        opt_f(h.total_ratio, 2),
        opt_f(h.median_ratio, 2)
    ));
    if s.disagreements.is_empty() {
        line("engine disagreements (TRUE vs FALSE): 0".into());
    } else {
        line(format!(
            "!!! ENGINE DISAGREEMENTS (TRUE vs FALSE) on {} task(s): {} — one verdict is wrong",
            s.disagreements.len(),
            s.disagreements.join(", ")
        ));
    }
    out
}

/// Runs every configuration on each (task, bound), `jobs` tasks side by side, printing rows
/// as they end; returns the rows.
fn run_rows(
    yogar: &Path,
    work: &[(BenchTask, u32)],
    configs: &[Config],
    limit: f64,
    jobs: usize,
) -> Vec<TaskRow> {
    println!("{}", header(configs));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    let mut rows = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(work.len()) {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((t, unwind)) = work.get(k) else {
                    break;
                };
                let runs = configs
                    .iter()
                    .map(|c| {
                        runs::run_verify(
                            yogar,
                            &runs::bounded_args(*unwind, c.args),
                            &t.input,
                            limit,
                        )
                    })
                    .collect();
                let row = TaskRow {
                    task: t.stem().to_string(),
                    unwind: *unwind,
                    expected: t.expected,
                    runs,
                };
                if send.send(row).is_err() {
                    break;
                }
            });
        }
        drop(send);
        for row in receive {
            print_row(&row, configs);
            rows.push(row);
        }
    });
    rows
}

/// Runs the section; returns false when configurations disagreed on some task.
pub fn run(options: &Options) -> bool {
    let unwind = options.unwind.unwrap_or(DEFAULT_UNWIND);
    println!("== engines: every configuration (--32 --no-unwinding-assertions) ==");
    let Some((svb, yogar, all)) = runs::setup(options) else {
        return true;
    };
    let filtered: Vec<BenchTask> = all
        .iter()
        .filter(|t| options.filter.as_ref().is_none_or(|f| t.stem().contains(f)))
        .cloned()
        .collect();
    let count = match (options.all, options.tasks, &options.filter) {
        (true, _, _) => filtered.len(),
        (false, Some(n), _) => n,
        (false, None, Some(_)) => filtered.len(),
        (false, None, None) if options.quick => QUICK_TASKS,
        (false, None, None) => DEFAULT_TASKS,
    };
    let tasks = runs::spread_subset(&filtered, count);
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    let jobs = options.jobs.unwrap_or(1).max(1);
    println!(
        "-- {} of {} tasks from {} at unwind {unwind}, limit {limit} s CPU per run (user+sys of \
         the child) --",
        tasks.len(),
        filtered.len(),
        svb.display()
    );
    let work: Vec<(BenchTask, u32)> = tasks.into_iter().map(|t| (t, unwind)).collect();
    let rows = run_rows(&yogar, &work, &CONFIGS, limit, jobs);
    let summary = summarize(&rows, &CONFIGS, HARD_SECONDS);
    println!("-- summary at unwind {unwind} --");
    print!("{}", render_summary(&summary, &CONFIGS, HARD_SECONDS));
    let mut agreed = summary.disagreements.is_empty();

    // The deep-bound set, unless the task selection excludes it.
    let deep: Vec<(BenchTask, u32)> = DEEP
        .iter()
        .filter(|(name, _)| options.filter.as_ref().is_none_or(|f| name.contains(f)))
        .filter(|_| !options.quick)
        .filter_map(|(name, k)| {
            all.iter()
                .find(|t| t.stem() == *name)
                .map(|t| (t.clone(), *k))
        })
        .collect();
    if !deep.is_empty() {
        println!(
            "-- deep-bound set: {} tasks at the bound each needs --",
            deep.len()
        );
        let deep_rows = run_rows(&yogar, &deep, &CONFIGS, limit, jobs);
        let deep_summary = summarize(&deep_rows, &CONFIGS, HARD_SECONDS);
        println!("-- summary of the deep-bound set --");
        print!("{}", render_summary(&deep_summary, &CONFIGS, HARD_SECONDS));
        agreed &= deep_summary.disagreements.is_empty();
        let both: Vec<TaskRow> = rows.into_iter().chain(deep_rows).collect();
        let every: Vec<&TaskRow> = both.iter().collect();
        let h = hard_ratio(&every, &CONFIGS, HARD_SECONDS);
        println!(
            "-- both sets: {} hard tasks, default finished {}, best monolithic / default total {}{} \
             median {} --",
            h.tasks,
            h.default_finished,
            if h.monolithic_unfinished > h.neither {
                ">="
            } else {
                ""
            },
            opt_f(h.total_ratio, 2),
            opt_f(h.median_ratio, 2)
        );
    }
    agreed
}

/// A task's line, and below it what went wrong or needs a look.
fn print_row(row: &TaskRow, configs: &[Config]) {
    println!("{}", row_line(row, configs));
    for (config, run) in configs.iter().zip(&row.runs) {
        match &run.verdict {
            RunVerdict::Failed(why) => println!("    {}: {why}", config.name),
            RunVerdict::Unknown(why)
                if !why.starts_with("timeout") && !why.starts_with("unwind bound") =>
            {
                println!("    {}: UNKNOWN ({why})", config.name)
            }
            _ => {}
        }
    }
    if row.disagrees() {
        println!(
            "    !!! DISAGREEMENT: the configurations gave TRUE and FALSE on {} at unwind {}",
            row.task, row.unwind
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(verdict: RunVerdict, secs: f64) -> EngineRun {
        EngineRun::took(verdict, secs)
    }

    fn timeout(secs: f64) -> EngineRun {
        run(RunVerdict::Unknown("timeout".into()), secs)
    }

    fn row(task: &str, expected: bool, runs: Vec<EngineRun>) -> TaskRow {
        TaskRow {
            task: task.into(),
            unwind: 2,
            expected: Some(expected),
            runs,
        }
    }

    use RunVerdict::{False, True};

    #[test]
    fn summary_medians_hard_ratio_and_disagreements() {
        let rows = vec![
            // All finish; monolithic slow (hard): best mono 4.0.
            row(
                "a",
                true,
                vec![
                    run(True, 1.0),
                    run(True, 2.0),
                    run(True, 5.0),
                    run(True, 4.0),
                ],
            ),
            // All finish, fast.
            row(
                "b",
                false,
                vec![
                    run(False, 0.5),
                    run(False, 1.0),
                    run(False, 1.0),
                    run(False, 3.0),
                ],
            ),
            // Monolithic times out on both back ends: hard, a lower bound of 10 / 2.
            row(
                "c",
                true,
                vec![run(True, 2.0), timeout(3.0), timeout(10.0), timeout(10.0)],
            ),
            // Nobody finishes but cegar, which disagrees with nobody.
            row(
                "d",
                true,
                vec![timeout(10.0), run(True, 9.0), timeout(10.0), timeout(10.0)],
            ),
        ];
        let unsupported = || run(RunVerdict::Unknown("unsupported: x".into()), 0.1);
        let mut rows = rows;
        // Every configuration stops at once on an unsupported construct: not a hard task.
        rows.push(row(
            "u",
            true,
            vec![unsupported(), unsupported(), unsupported(), unsupported()],
        ));
        let s = summarize(&rows, &CONFIGS, 2.0);
        assert_eq!(s.tasks, 5);
        assert_eq!(s.all_finished, 2);
        assert_eq!(s.finished, vec![3, 3, 2, 2]);
        assert_eq!(s.outcomes[0].last(), Some(&("unsupported".to_string(), 1)));
        assert_eq!(s.median_cpu[0], Some(0.75));
        assert_eq!(s.median_cpu[3], Some(3.5));
        assert!((s.total_cpu[2] - 6.0).abs() < 1e-9);
        assert_eq!(s.hard.tasks, 3);
        assert_eq!(s.hard.default_finished, 2);
        assert_eq!(s.hard.monolithic_unfinished, 2);
        assert_eq!(s.hard.neither, 1);
        // (4 + 10) / (1 + 2); per task 4 and 5.
        assert!((s.hard.total_ratio.unwrap() - 14.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.hard.median_ratio, Some(4.5));
        assert!(s.disagreements.is_empty());
        assert_eq!(s.wrong, vec![0, 0, 0, 0]);
        let text = render_summary(&s, &CONFIGS, 2.0);
        assert!(text.contains(">=4.67"), "{text}");

        // One FALSE against TRUEs on an expected-TRUE task: a disagreement and a wrong verdict.
        let bad = row(
            "e",
            true,
            vec![
                run(True, 1.0),
                run(False, 1.0),
                run(True, 3.0),
                run(True, 3.0),
            ],
        );
        let s = summarize(&[bad], &CONFIGS, 2.0);
        assert_eq!(s.disagreements, vec!["e@2".to_string()]);
        assert_eq!(s.wrong, vec![0, 1, 0, 0]);
        assert!(render_summary(&s, &CONFIGS, 2.0).contains("ENGINE DISAGREEMENTS"));

        let empty = summarize(&[], &CONFIGS, 2.0);
        assert_eq!(empty.hard.total_ratio, None);
        assert!(!render_summary(&empty, &CONFIGS, 2.0).contains("-0.00"));
    }

    #[test]
    fn best_monolithic_prefers_finished_runs() {
        let r = row(
            "x",
            true,
            vec![run(True, 1.0), run(True, 1.0), timeout(3.0), run(True, 3.0)],
        );
        assert_eq!(r.best_monolithic(&CONFIGS), Some((3.0, true)));
        let line = row_line(&r, &CONFIGS);
        assert!(line.ends_with("| 3.00"), "{line}");
    }

    #[test]
    fn every_run_decides_the_same_bounded_problem() {
        for c in &CONFIGS {
            let args = runs::bounded_args(7, c.args);
            assert!(args.windows(2).any(|w| w[0] == "--unwind" && w[1] == "7"));
            assert!(args.iter().any(|a| a == "--no-unwinding-assertions"));
        }
        assert!(
            CONFIGS[0].args.is_empty(),
            "the first column is what users get"
        );
    }
}
