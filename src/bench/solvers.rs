//! Section `solvers`: every SAT back end on the same seeded formulas, to choose
//! [`solver_glue::DEFAULT_SOLVER`] by measurement rather than reputation.
//!
//! Workloads: one-shot random 3-SAT at the threshold ratio 4.26, pigeonhole, a multiplier
//! commutativity miter (structured arithmetic, like the encoder's bit-vectors), and
//! incremental scripts imitating the Yogar loop — thousands of easy solves under changing
//! assumptions with clauses added between them, the pattern that dominates a Yogar run.
//! Every back end must give the same answers; a disagreement is printed loudly.

use std::time::{Duration, Instant};

use solver_glue::dimacs::Cnf;
use solver_glue::gen::{
    incremental_script, multiplier_miter, pigeonhole, random_ksat, IncrementalScript, ScriptShape,
};
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
        &[(150, 10), (200, 10), (250, 6)]
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
                vars: if quick { 500 } else { 30000 },
                block: 30,
                ratio: 5.0,
                cross_ratio: 0.5,
                steps: if quick { 50 } else { 1500 },
                clauses_per_step: 10,
                assumptions_per_step: 40,
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

/// Runs every workload on every back end and prints the table, the ratios and the back end
/// the incremental workloads favour.
pub fn run(options: &Options) {
    let quick = options.quick;
    let cap = if quick {
        Duration::from_secs(10)
    } else {
        Duration::from_secs(60)
    };
    let names = solver_names();
    println!("== solvers: SAT back ends on the same seeded formulas ==");
    println!(
        "wall s / cpu s per back end (cpu counts all threads); x = wall over the fastest; \
         each solve capped at {}s",
        cap.as_secs()
    );
    print!("{:<52} {:<18}", "workload", "answers");
    for name in names {
        print!(" {:>24}", name);
    }
    println!();
    // Totals over the incremental workloads, per back end, for the recommendation.
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
            .map(|m| m.wall)
            .min()
            .unwrap_or_default()
            .max(Duration::from_micros(1));
        // Interrupted solves may differ; decided ones must not.
        let disagree = results.iter().any(|m| {
            m.answers.iter().zip(&results[0].answers).any(|(a, b)| {
                a != b && *a != SolveResult::Interrupted && *b != SolveResult::Interrupted
            })
        });
        print!(
            "{:<52} {:<18}",
            workload.name(),
            summary(&results[0].answers)
        );
        for (i, m) in results.iter().enumerate() {
            let cpu = m.cpu.map_or("-".to_string(), seconds);
            let mark = if m.interrupted() { ">" } else { "" };
            let ratio = m.wall.as_secs_f64() / best.as_secs_f64();
            print!(
                " {:>24}",
                format!("{mark}{}/{cpu} x{ratio:.2}", seconds(m.wall))
            );
            all_total[i] += m.wall;
            if workload.is_incremental() {
                incremental_total[i] += m.wall;
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
    print!("{:<52} {:<18}", "total, incremental workloads", "");
    for t in &incremental_total {
        print!(" {:>24}", seconds(*t));
    }
    println!();
    print!("{:<52} {:<18}", "total, all workloads", "");
    for t in &all_total {
        print!(" {:>24}", seconds(*t));
    }
    println!();
    let fastest = names
        .iter()
        .zip(&incremental_total)
        .min_by_key(|(_, t)| **t)
        .map(|(n, _)| *n)
        .unwrap_or(DEFAULT_SOLVER);
    println!(
        "fastest on the incremental (Yogar-loop) workloads: {fastest}; DEFAULT_SOLVER is {DEFAULT_SOLVER}"
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
