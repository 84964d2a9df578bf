//! The CaDiCaL back end (CaDiCaL 2.1), through the `cadical-sys` crate.
//!
//! That crate compiles CaDiCaL's C++ sources and a `cxx` bridge with a C++ compiler only (no
//! bindgen, hence no libclang), and it exposes CaDiCaL's C++ interface, including the external
//! propagator (IPASIR-UP) that runs the ordering theory inside the search (see `cadical_theory`).
//! Budgets are exact: the conflict limit is CaDiCaL's own per-solve `conflicts` limit, the time
//! limit its terminator. CaDiCaL exposes no conflict counter, so [`Stats::conflicts`] counts
//! learned clauses through its learner: one per analysed conflict, but conflicts that need no
//! new clause learn none, so it runs slightly low. The limit itself is exact.

use std::time::Instant;

use cadical_sys::{CaDiCal, Learner, Status, Terminator};

use super::cadical_theory::UpAdapter;
use super::{deadline, Tally, CLOCK_STRIDE};
use crate::{
    Budget, Lit, Propagator, PropagatorUnsupported, SatSolver, SolveResult, Stats,
    UnsupportedBudget, Var,
};

/// The time limit of the running solve.
struct Watch {
    deadline: Option<Instant>,
    ticks: u32,
}

impl Terminator for Watch {
    fn terminated(&mut self) -> bool {
        let Some(deadline) = self.deadline else {
            return false;
        };
        self.ticks += 1;
        if self.ticks < CLOCK_STRIDE {
            return false;
        }
        self.ticks = 0;
        Instant::now() >= deadline
    }
}

/// Counts learned clauses (one per analysed conflict that learns one).
#[derive(Default)]
struct Count {
    learned: u64,
}

impl Learner for Count {
    fn learning(&mut self, _size: i32) -> bool {
        self.learned += 1;
        false
    }

    fn learn(&mut self, _lit: i32) {}
}

/// [`SatSolver`] over CaDiCaL.
pub struct CadicalSolver {
    // Declared first so that it is dropped first: it points into the boxes below.
    solver: CaDiCal,
    watch: Box<Watch>,
    count: Box<Count>,
    propagator: Option<Box<UpAdapter>>,
    tally: Tally,
    budget: Budget,
    /// The answer of the last solve, while still valid (CaDiCaL aborts the process when asked
    /// for a model or a core in the wrong state).
    last: Option<SolveResult>,
    /// The model of the last `Sat` answer, by variable index.
    model: Vec<bool>,
    core: Vec<Lit>,
    scratch: Vec<i32>,
}

impl Default for CadicalSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl CadicalSolver {
    /// A fresh solver with CaDiCaL's default configuration.
    pub fn new() -> Self {
        let mut this = CadicalSolver {
            solver: CaDiCal::new(),
            watch: Box::new(Watch {
                deadline: None,
                ticks: 0,
            }),
            count: Box::new(Count::default()),
            propagator: None,
            tally: Tally::default(),
            budget: Budget::default(),
            last: None,
            model: Vec::new(),
            core: Vec::new(),
            scratch: Vec::new(),
        };
        // SAFETY: the boxes live as long as `solver` (dropped first) and never move.
        let watch: *mut Watch = &mut *this.watch;
        this.solver.connect_terminator(unsafe { &mut *watch });
        let count: *mut Count = &mut *this.count;
        this.solver.connect_learner(unsafe { &mut *count });
        let lazy = this.solver.set(EAGER_REASONS.to_string(), 0);
        debug_assert!(lazy, "CaDiCaL has the option {EAGER_REASONS}");
        this.apply_env_options();
        this
    }
}

/// CaDiCaL's option whether the reasons of externally propagated literals are asked for
/// eagerly (1, the default) or only when conflict analysis needs one (0). Set to 0: the
/// ordering theory's reasons are paths in its graph, and explaining propagations eagerly was
/// 9–20 % of the CPU on the deep-bound tasks (`perf`: `explain_external_propagations` and
/// `explain_reason`). The answers are the same (a reason is still given whenever the solver
/// uses one); only the search differs. Measured (issue #27, CPU s at the deep-bound set's
/// bounds, one run each, eager → lazy): triangular-longer-2@11 3.23 → 2.61 (35,808 → 43,194
/// conflicts), qw2004_variant@11 2.32 → 1.23, workstealqueue_mutex-2@9 9.98 → 7.71,
/// bounded_buffer@5 3.86 → 0.96, the rest within 0.05 s; in total 19.79 → 12.83. Not
/// everywhere: fkp2013-1 at 64 6.14 → 7.38 (69,267 → 77,725 conflicts); the whole regression
/// (281 tasks, `--unwind auto`) 955.7 → 955.5 s, the same verdicts.
const EAGER_REASONS: &str = "exteagerreasons";

/// Environment variable with CaDiCaL options for experiments, `name=value` separated by commas
/// (e.g. `exteagerreasons=0,elim=0`): a developer knob to measure option changes without a
/// rebuild (issue #27), not a user option. A malformed or unknown entry is reported on stderr
/// and skipped.
pub const OPTIONS_ENV: &str = "YOGAR_CADICAL";

impl CadicalSolver {
    fn apply_env_options(&mut self) {
        let Ok(opts) = std::env::var(OPTIONS_ENV) else {
            return;
        };
        for entry in opts.split(',').filter(|s| !s.is_empty()) {
            let parsed = entry
                .split_once('=')
                .and_then(|(k, v)| Some((k.trim(), v.trim().parse::<i32>().ok()?)));
            let applied = parsed.is_some_and(|(k, v)| self.solver.set(k.to_string(), v));
            if !applied {
                eprintln!(
                    "yogar: {OPTIONS_ENV}: ignored `{entry}` (not name=value of a CaDiCaL option)"
                );
            }
        }
    }
}

impl SatSolver for CadicalSolver {
    fn name(&self) -> &'static str {
        "cadical"
    }

    fn prefer_phase(&mut self, lit: Lit) {
        self.solver.phase(lit.to_dimacs());
    }

    fn new_var(&mut self) -> Var {
        // Variables come into being with the first clause that names them, or, for those in no
        // clause, by one `reserve` before the next solve: reserving one at a time copies
        // CaDiCaL's per-variable tables each time.
        let var = self.tally.new_var();
        self.last = None;
        var
    }

    fn num_vars(&self) -> u32 {
        self.tally.num_vars
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.tally.see(lits);
        self.tally.clauses += 1;
        self.last = None;
        // One call across the C++ bridge per clause, not one per literal.
        self.scratch.clear();
        self.scratch.extend(lits.iter().map(|l| l.to_dimacs()));
        self.solver.clause6(&self.scratch);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        let start = Instant::now();
        self.tally.see(assumptions);
        let budget = self.budget;
        if let Some(conflicts) = budget.conflicts {
            // The limit is an i32 in CaDiCaL; anything larger is as good as unlimited.
            let limit = i32::try_from(conflicts).unwrap_or(i32::MAX);
            let known = self.solver.limit("conflicts".to_string(), limit);
            debug_assert!(known, "CaDiCaL knows the conflicts limit");
        }
        self.watch.deadline = deadline(start, &budget);
        self.watch.ticks = 0;
        // Every variable the caller made must exist, also those in no clause.
        self.solver.reserve(self.tally.num_vars as i32);
        for l in assumptions {
            self.solver.assume(l.to_dimacs());
        }
        let result = match self.solver.solve() {
            Status::SATISFIABLE => SolveResult::Sat,
            Status::UNSATISFIABLE => SolveResult::Unsat,
            Status::UNKNOWN => SolveResult::Interrupted,
        };
        self.core.clear();
        self.model.clear();
        match result {
            SolveResult::Sat => {
                let n = self.tally.num_vars as i32;
                self.model = (1..=n).map(|v| self.solver.val(v) > 0).collect();
            }
            SolveResult::Unsat => {
                for &lit in assumptions {
                    if self.solver.failed(lit.to_dimacs()) {
                        self.core.push(lit);
                    }
                }
                self.core.sort_unstable();
                self.core.dedup();
            }
            SolveResult::Interrupted => {}
        }
        self.last = Some(result);
        self.tally.solves += 1;
        self.tally.solve_time += start.elapsed();
        result
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        if self.last != Some(SolveResult::Sat) {
            return None;
        }
        let v = *self.model.get(lit.var().index())?;
        Some(v == lit.is_positive())
    }

    fn failed_core(&self) -> Vec<Lit> {
        if self.last == Some(SolveResult::Unsat) {
            self.core.clone()
        } else {
            Vec::new()
        }
    }

    fn set_budget(&mut self, budget: Budget) -> Result<(), UnsupportedBudget> {
        self.budget = budget;
        Ok(())
    }

    fn stats(&self) -> Stats {
        let mut stats = self.tally.stats(Some(self.count.learned));
        if let Some(p) = &self.propagator {
            stats.theory_time = p.time;
        }
        stats
    }

    fn connect_propagator(
        &mut self,
        propagator: Box<dyn Propagator>,
    ) -> Result<(), PropagatorUnsupported> {
        let observed = propagator.observed();
        let mut adapter = Box::new(UpAdapter::new(propagator));
        let ptr: *mut UpAdapter = &mut *adapter;
        // SAFETY: the box lives as long as `solver` (dropped first) and never moves; a second
        // connection replaces the first inside CaDiCaL before the old box is dropped.
        self.solver
            .connect_external_propagator(unsafe { &mut *ptr });
        for v in observed {
            self.tally.see(&[v.pos()]);
            self.solver.add_observed_var(v.to_dimacs() as i32);
        }
        self.propagator = Some(adapter);
        self.last = None;
        Ok(())
    }

    fn propagator(&mut self) -> Option<&mut dyn Propagator> {
        self.propagator.as_mut().map(|a| a.inner())
    }
}
