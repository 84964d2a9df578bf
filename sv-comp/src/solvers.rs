//! Section `solvers`: every SAT back end on the same seeded formulas, to choose
//! [`solver_glue::DEFAULT_SOLVER`] by measurement rather than reputation.
//!
//! Workloads: one-shot random 3-SAT at the threshold ratio 4.26, pigeonhole, a multiplier
//! commutativity miter (structured arithmetic, like the encoder's bit-vectors), and
//! incremental scripts imitating the Yogar loop — thousands of easy solves under changing
//! assumptions with clauses added between them, the pattern that dominates a Yogar run.
//! Every back end must give the same answers; a disagreement is printed loudly.

use std::time::{Duration, Instant};

use cnf_gen::{
    circuit_script, incremental_script, multiplier_miter, pigeonhole, random_ksat,
    IncrementalScript, ScriptShape,
};
use solver_glue::dimacs::Cnf;
use solver_glue::{make_solver, solver_names, Budget, SolveResult, DEFAULT_SOLVER};

use super::{process_cpu_time, Options};

/// One row of the table: formulas every back end solves.
pub enum Workload {
    /// Independent formulas, each solved once on a fresh solver.
    OneShot { name: String, formulas: Vec<Cnf> },
    /// One solver through a whole script.
    Incremental {
        name: String,
        script: IncrementalScript,
    },
}

impl Workload {
    pub fn name(&self) -> &str {
        match self {
            Workload::OneShot { name, .. } | Workload::Incremental { name, .. } => name,
        }
    }

    fn is_incremental(&self) -> bool {
        matches!(self, Workload::Incremental { .. })
    }
}

/// What one back end did on one workload.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub wall: Duration,
    pub cpu: Option<Duration>,
    pub answers: Vec<SolveResult>,
}

impl Measurement {
    fn interrupted(&self) -> bool {
        self.answers.contains(&SolveResult::Interrupted)
    }
}

/// The workloads of `make bench` (`quick`: small versions, for a smoke test).
pub fn workloads(quick: bool) -> Vec<Workload> {
    let mut list = Vec::new();
    let sizes: &[(u32, u64)] = if quick {
        &[(50, 3)]
    } else {
        &[(150, 10), (200, 10), (250, 3)]
    };
    for &(vars, count) in sizes {
        let clauses = (4.26 * f64::from(vars)).round() as usize;
        list.push(Workload::OneShot {
            name: format!("random 3-SAT n={vars} r=4.26 x{count}"),
            formulas: (0..count)
                .map(|seed| random_ksat(vars, clauses, 3, 7000 + u64::from(vars) * 100 + seed))
                .collect(),
        });
    }
    let holes: &[u32] = if quick { &[5] } else { &[8, 9] };
    for &h in holes {
        list.push(Workload::OneShot {
            name: format!("pigeonhole {}->{h}", h + 1),
            formulas: vec![pigeonhole(h + 1, h)],
        });
    }
    let bits: &[usize] = if quick { &[4] } else { &[6, 7] };
    for &b in bits {
        list.push(Workload::OneShot {
            name: format!("multiplier miter {b}x{b} bits"),
            formulas: vec![multiplier_miter(b)],
        });
    }
    let shapes: &[(&str, ScriptShape)] = &[
        (
            "incremental: many small solves",
            ScriptShape {
                vars: if quick { 200 } else { 2000 },
                block: 20,
                ratio: 5.0,
                cross_ratio: 0.5,
                steps: if quick { 100 } else { 4000 },
                clauses_per_step: 2,
                assumptions_per_step: 8,
                flip: 0.5,
            },
        ),
        (
            "incremental: big formula",
            ScriptShape {
                vars: if quick { 500 } else { 10000 },
                block: 30,
                ratio: 5.0,
                cross_ratio: 0.5,
                steps: if quick { 50 } else { 1000 },
                clauses_per_step: 10,
                assumptions_per_step: 20,
                flip: 0.5,
            },
        ),
    ];
    for (i, (name, shape)) in shapes.iter().enumerate() {
        list.push(Workload::Incremental {
            name: format!("{name} ({} solves, {} vars)", shape.steps, shape.vars),
            script: incremental_script(*shape, 500 + i as u64),
        });
    }
    let circuits: &[(usize, usize, usize)] = if quick {
        &[(3, 6, 100)]
    } else {
        &[(20, 8, 2000), (100, 8, 500), (400, 8, 150)]
    };
    for &(count, bits, steps) in circuits {
        let script = circuit_script(count, bits, steps, 900 + count as u64);
        list.push(Workload::Incremental {
            name: format!(
                "incremental: circuits {count}x mul{bits} ({steps} solves, {} vars)",
                script.base.num_vars
            ),
            script,
        });
    }
    list
}

/// Runs `workload` on a fresh solver of back end `solver`, each solve capped at `cap`.
pub fn measure(solver: &str, workload: &Workload, cap: Duration) -> Measurement {
    let budget = Budget {
        time: Some(cap),
        conflicts: None,
    };
    let cpu_before = process_cpu_time();
    let start = Instant::now();
    let mut answers = Vec::new();
    match workload {
        Workload::OneShot { formulas, .. } => {
            for cnf in formulas {
                let mut s = make_solver(solver).expect("a listed back end");
                s.set_budget(budget).expect("time budgets are supported");
                for clause in &cnf.clauses {
                    s.add_clause(clause);
                }
                answers.push(s.solve(&[]));
            }
        }
        Workload::Incremental { script, .. } => {
            let mut s = make_solver(solver).expect("a listed back end");
            s.set_budget(budget).expect("time budgets are supported");
            for clause in &script.base.clauses {
                s.add_clause(clause);
            }
            for step in &script.steps {
                for clause in &step.add {
                    s.add_clause(clause);
                }
                answers.push(s.solve(&step.assume));
            }
        }
    }
    let wall = start.elapsed();
    let cpu = process_cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    Measurement { wall, cpu, answers }
}

fn summary(answers: &[SolveResult]) -> String {
    let count = |r| answers.iter().filter(|&&a| a == r).count();
    let (sat, unsat, open) = (
        count(SolveResult::Sat),
        count(SolveResult::Unsat),
        count(SolveResult::Interrupted),
    );
    let mut text = format!("{sat} sat {unsat} unsat");
    if open > 0 {
        text += &format!(" {open} open");
    }
    text
}

fn seconds(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

impl Measurement {
    /// What the comparison uses: CPU time, which other processes on a shared machine disturb
    /// far less than wall time; wall time where CPU time cannot be read.
    fn cost(&self) -> Duration {
        self.cpu.unwrap_or(self.wall)
    }
}

/// Runs every workload on every back end and prints the table, the ratios and the back end
/// the incremental workloads favour.
pub fn run(options: &Options) {
    let quick = options.quick;
    let cap = if quick {
        Duration::from_secs(10)
    } else {
        Duration::from_secs(60)
    };
    let names: Vec<&str> = solver_names()
        .iter()
        .copied()
        .filter(|n| options.solvers.is_empty() || options.solvers.iter().any(|s| s == n))
        .collect();
    println!("== solvers: SAT back ends on the same seeded formulas ==");
    println!(
        "per back end: cpu s (wall s) xR, R = cpu time over the fastest back end's; cpu counts \
         all threads; '>' = some solve hit the {}s cap",
        cap.as_secs()
    );
    let width = 24;
    print!("{:<60} {:<16}", "workload", "answers");
    for name in &names {
        print!(" {name:>width$}");
    }
    println!();
    let mut incremental_total = vec![Duration::ZERO; names.len()];
    let mut all_total = vec![Duration::ZERO; names.len()];
    let selected = workloads(quick).into_iter().filter(|w| {
        options
            .only
            .as_ref()
            .is_none_or(|text| w.name().contains(text.as_str()))
    });
    for workload in selected {
        let results: Vec<Measurement> = names
            .iter()
            .map(|name| measure(name, &workload, cap))
            .collect();
        let best = results
            .iter()
            .map(Measurement::cost)
            .min()
            .unwrap_or_default()
            .max(Duration::from_millis(10));
        // Interrupted solves may differ; decided ones must not.
        let disagree = results.iter().any(|m| {
            m.answers.iter().zip(&results[0].answers).any(|(a, b)| {
                a != b && *a != SolveResult::Interrupted && *b != SolveResult::Interrupted
            })
        });
        print!(
            "{:<60} {:<16}",
            workload.name(),
            summary(&results[0].answers)
        );
        for (i, m) in results.iter().enumerate() {
            let mark = if m.interrupted() { ">" } else { "" };
            let ratio = m.cost().as_secs_f64() / best.as_secs_f64();
            let cell = format!(
                "{mark}{} ({}) x{ratio:.2}",
                seconds(m.cost()),
                seconds(m.wall)
            );
            print!(" {cell:>width$}");
            all_total[i] += m.cost();
            if workload.is_incremental() {
                incremental_total[i] += m.cost();
            }
        }
        println!();
        if disagree {
            println!("!! DISAGREEMENT between back ends on '{}'", workload.name());
            for (name, m) in names.iter().zip(&results) {
                println!("!!   {name}: {}", summary(&m.answers));
            }
        }
    }
    for (label, totals) in [
        ("total cpu s, incremental workloads", &incremental_total),
        ("total cpu s, all workloads", &all_total),
    ] {
        let best = totals.iter().min().copied().unwrap_or_default();
        let best = best.max(Duration::from_millis(10));
        print!("{label:<60} {:<16}", "");
        for t in totals {
            let cell = format!(
                "{} x{:.2}",
                seconds(*t),
                t.as_secs_f64() / best.as_secs_f64()
            );
            print!(" {cell:>width$}");
        }
        println!();
    }
    let fastest = names
        .iter()
        .zip(&incremental_total)
        .min_by_key(|(_, t)| **t)
        .map(|(n, _)| *n)
        .unwrap_or(DEFAULT_SOLVER);
    println!(
        "fastest on the incremental (Yogar-loop) workloads: {fastest}; \
         DEFAULT_SOLVER is {DEFAULT_SOLVER}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_workloads_agree_on_every_back_end() {
        for workload in workloads(true) {
            let results: Vec<Measurement> = solver_names()
                .iter()
                .map(|name| measure(name, &workload, Duration::from_secs(20)))
                .collect();
            for m in &results {
                assert!(!m.interrupted(), "{}", workload.name());
                assert_eq!(m.answers, results[0].answers, "{}", workload.name());
            }
        }
    }
}
