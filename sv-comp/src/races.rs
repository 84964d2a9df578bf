//! Section `races`: what the data-race check costs. The default engine on the shared SV-COMP
//! tasks at unwind 2 (ILP32, no unwinding assertions), once under unreach-call and once under
//! no-data-race; per task both CPU times, then the medians and the median of the per-task
//! ratio (no-data-race / unreach-call) over the tasks both runs decided. The race check must
//! not cost more than [`MAX_MEDIAN_RATIO`] times the reachability check on the median task
//! (issue #25); above it the section fails.

use std::path::Path;

use super::engines::{DEFAULT_LIMIT, DEFAULT_TASKS, DEFAULT_UNWIND, QUICK_TASKS};
use super::runs::{self, median, ratio, EngineRun};
use super::Options;

/// The bound on the median ratio of no-data-race to unreach-call CPU time.
pub const MAX_MEDIAN_RATIO: f64 = 2.0;

/// CPU seconds below which a run counts as this much (the resolution of the measurement), so
/// that ratios of runs of a few milliseconds do not swing on noise.
const FLOOR_SECONDS: f64 = 0.01;

/// The per-task ratios of `race` to `reach` CPU seconds over the pairs both decided, and
/// their median.
pub fn median_ratio(pairs: &[(EngineRun, EngineRun)]) -> (usize, Option<f64>) {
    let ratios: Vec<f64> = pairs
        .iter()
        .filter(|(reach, race)| reach.verdict.finished() && race.verdict.finished())
        .filter_map(|(reach, race)| {
            ratio(
                race.seconds().max(FLOOR_SECONDS),
                reach.seconds().max(FLOOR_SECONDS),
            )
        })
        .collect();
    (ratios.len(), median(&ratios))
}

fn prp(dir: &Path, name: &str, spec: &str) -> Option<String> {
    let path = dir.join(format!("{name}.prp"));
    std::fs::write(&path, format!("{spec}\n")).ok()?;
    Some(path.display().to_string())
}

/// Runs the section; false when the median ratio is above [`MAX_MEDIAN_RATIO`].
pub fn run(options: &Options) -> bool {
    let unwind = options.unwind.unwrap_or(DEFAULT_UNWIND);
    println!("== races: CPU of no-data-race against unreach-call (default engine) ==");
    let Some((_, yogar, all)) = runs::setup(options) else {
        return true;
    };
    let filtered: Vec<_> = all
        .iter()
        .filter(|t| options.filter.as_ref().is_none_or(|f| t.stem().contains(f)))
        .cloned()
        .collect();
    let count = match (options.all, options.tasks) {
        (true, _) => filtered.len(),
        (false, Some(n)) => n,
        (false, None) if options.quick => QUICK_TASKS,
        (false, None) => DEFAULT_TASKS,
    };
    let tasks = runs::spread_subset(&filtered, count);
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT);
    let dir = std::env::temp_dir().join(format!("yogar-bench-races-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let (Some(reach_prp), Some(race_prp)) = (
        prp(&dir, "unreach-call", yogar::svcomp::UNREACH_CALL_SPEC),
        prp(&dir, "no-data-race", yogar::svcomp::NO_DATA_RACE_SPEC),
    ) else {
        println!("skipped: cannot write property files in {}", dir.display());
        return true;
    };
    println!(
        "-- {} of {} tasks at unwind {unwind}, limit {limit} s CPU per run --",
        tasks.len(),
        filtered.len()
    );
    println!(
        "{:<50} {:>14} {:>14} {:>7}",
        "task", "unreach-call", "no-data-race", "ratio"
    );
    let mut pairs = Vec::new();
    for t in &tasks {
        let one = |prp: &str| {
            runs::run_verify(
                &yogar,
                &runs::bounded_args(unwind, &["--property", prp]),
                &t.input,
                limit,
            )
        };
        let (reach, race) = (one(&reach_prp), one(&race_prp));
        let cell = |r: &EngineRun| format!("{} {:.2}", r.verdict.short(), r.seconds());
        let q = ratio(
            race.seconds().max(FLOOR_SECONDS),
            reach.seconds().max(FLOOR_SECONDS),
        );
        println!(
            "{:<50} {:>14} {:>14} {:>7}",
            t.stem(),
            cell(&reach),
            cell(&race),
            q.map_or("-".into(), |q| format!("{q:.2}"))
        );
        pairs.push((reach, race));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (n, med) = median_ratio(&pairs);
    let cpu = |pick: fn(&(EngineRun, EngineRun)) -> &EngineRun| {
        let v: Vec<f64> = pairs.iter().map(|p| pick(p).seconds()).collect();
        (median(&v).unwrap_or(0.0), v.iter().sum::<f64>())
    };
    let (reach_med, reach_sum) = cpu(|p| &p.0);
    let (race_med, race_sum) = cpu(|p| &p.1);
    println!(
        "-- summary: unreach-call median {reach_med:.2} s, total {reach_sum:.1} s; \
         no-data-race median {race_med:.2} s, total {race_sum:.1} s --"
    );
    match med {
        Some(m) => {
            println!(
                "median ratio no-data-race / unreach-call over {n} tasks both decided: {m:.2} \
                 (at most {MAX_MEDIAN_RATIO})"
            );
            if m > MAX_MEDIAN_RATIO {
                println!("RACE CHECK TOO SLOW: median ratio {m:.2} > {MAX_MEDIAN_RATIO}");
                return false;
            }
            true
        }
        None => {
            println!("no task decided under both properties: no ratio");
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::RunVerdict;

    fn run(verdict: RunVerdict, secs: f64) -> EngineRun {
        EngineRun::took(verdict, secs)
    }

    #[test]
    fn median_over_the_tasks_both_runs_decided() {
        let pairs = vec![
            (run(RunVerdict::True, 1.0), run(RunVerdict::False, 3.0)),
            (run(RunVerdict::True, 2.0), run(RunVerdict::True, 2.0)),
            (run(RunVerdict::True, 0.0), run(RunVerdict::True, 0.001)),
            // A timeout on one side: not compared.
            (
                run(RunVerdict::True, 1.0),
                run(RunVerdict::Unknown("timeout".into()), 10.0),
            ),
        ];
        let (n, m) = median_ratio(&pairs);
        assert_eq!(n, 3);
        // Ratios 3, 1 and 1 (both below the floor): median 1.
        assert_eq!(m, Some(1.0));
        assert_eq!(median_ratio(&[]).1, None);
    }
}
