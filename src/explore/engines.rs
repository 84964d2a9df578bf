//! The explorers as verification engines: `dpor`, `cdpor` and `rvf` answer with the same
//! [`Outcome`] as the SAT engines, so that the verdict line, the printed trace and the
//! witness come from the same code.

use std::time::Instant;

use super::findings::Budget;
use super::interp::Bounds;
use crate::engine::{EngineOptions, Outcome};
use crate::ir::Program;

/// The enumerative explorers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Explorer {
    /// Source-DPOR with sleep sets.
    Dpor,
    /// Constrained DPOR: source-DPOR with independence constraints.
    Cdpor,
    /// The POWER explorer (under the options' memory model).
    Rsmc,
    /// RVF-SMC: reads-value-from instances.
    Rvf,
    /// Stateful exploration with a visited set (no bound).
    Stateful,
    /// Context-bounded search for violations (no bound on loops, a bound on preemptions).
    ContextBounded,
}

impl Explorer {
    pub fn name(self) -> &'static str {
        match self {
            Explorer::Dpor => "dpor",
            Explorer::Cdpor => "cdpor",
            Explorer::Rsmc => "rsmc",
            Explorer::Rvf => "rvf",
            Explorer::Stateful => "stateful",
            Explorer::ContextBounded => "cbs",
        }
    }
}

/// The bounds of the SAT engines' options.
pub fn bounds(opts: &EngineOptions) -> Bounds {
    Bounds {
        unwind: opts.symex.unwind,
        unwindset: opts.symex.unwindset.clone(),
        assertions: opts.symex.unwinding_assertions,
        spin_reduction: opts.symex.spin_reduction,
        asserts_stop: opts.property != crate::svcomp::Property::UnreachCall,
        overflow_checks: opts.property == crate::svcomp::Property::NoOverflow,
        memsafety: opts.property == crate::svcomp::Property::ValidMemsafety,
    }
}

/// Verifies `prog` with an explorer within the options' bounds and timeout, and at most
/// `max_executions` runs.
pub fn verify(
    prog: &Program,
    opts: &EngineOptions,
    explorer: Explorer,
    max_executions: Option<u64>,
) -> Outcome {
    if explorer == Explorer::Rsmc {
        let Some(model) = super::rsmc::MemoryModel::of(opts.memory_model) else {
            return Outcome::unknown(
                crate::verdict::UnknownReason::UnsupportedMemoryModel {
                    model: opts.memory_model.name().into(),
                    engine: "rsmc".into(),
                },
                Default::default(),
            );
        };
        let mut opts = opts.clone();
        opts.max_executions = max_executions;
        return super::rsmc::engine::verify(prog, &opts, model);
    }
    if explorer == Explorer::Stateful {
        return super::stateful::verify(prog, opts);
    }
    if explorer == Explorer::ContextBounded {
        return super::context_bounded::verify(prog, opts);
    }
    // Faint assignments are dropped under unreach-call only (`ir::faint`): the other
    // properties observe reads and arithmetic themselves.
    let reduced = (opts.property == crate::svcomp::Property::UnreachCall)
        .then(|| crate::ir::faint::without_faint_assignments(prog))
        .flatten();
    let prog = reduced.as_ref().map_or(prog, |(p, _)| p);
    let bounds = bounds(opts);
    let budget = Budget {
        max_executions,
        deadline: opts.timeout.map(|t| Instant::now() + t),
    };
    if explorer == Explorer::Rvf {
        let report = super::rvf::explore(
            prog,
            &super::rvf::Options {
                bounds: bounds.clone(),
                budget,
                all: false,
                count_classes: false,
                causal_maps: opts.causal_maps,
                fixed_reads: true,
                fold_joins: true,
                fold_guarded: true,
                symbolic_inputs: opts.property != crate::svcomp::Property::NoOverflow,
            },
        );
        return report.findings.outcome(&bounds);
    }
    let dpor_opts = super::dpor::Options {
        bounds: bounds.clone(),
        budget,
        constrained: explorer == Explorer::Cdpor,
        all: false,
        keep_runs: false,
        concolic: None,
        data_races: opts.property == crate::svcomp::Property::NoDataRace,
    };
    // The concolic shadow does not record an overflow test as a decision, so under
    // no-overflow the inputs are enumerated (an input of many values gives UNKNOWN) instead
    // of being explored symbolically.
    let report = if opts.property == crate::svcomp::Property::NoOverflow {
        super::dpor::explore(prog, &dpor_opts)
    } else {
        super::concolic::search::explore(prog, &dpor_opts)
    };
    let mut findings = report.findings;
    if opts.property == crate::svcomp::Property::NoOverflow {
        if let Some(t) = &mut findings.violation {
            t.violation = crate::verdict::Violation::Overflow;
        }
    }
    findings.outcome(&bounds)
}
