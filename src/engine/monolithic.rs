//! The monolithic engine: φ_init ∧ ρ ∧ ζ ∧ ξ ∧ φ_err in one solver, as CBMC does. It is the
//! baseline the Yogar engine is measured and cross-checked against.
//!
//! Real properties are decided first (a model there is a real counterexample: ξ is exact);
//! only when none can fail are the other checks asked for (a loop running past its bound, an
//! unsupported construct reached), which turn TRUE into UNKNOWN.

use super::{
    ask, Answer, Checks, Deadline, EngineOptions, EngineStats, Outcome, Trace, UnknownReason,
    Verdict,
};
use crate::ir::Program;
use crate::symex::SymexOutput;
use encoder::{Encoder, LiteralMode, ScheduleEncoding};

/// The sharing pass, symbolic execution, then [`decide`].
pub fn verify(prog: &Program, opts: &EngineOptions) -> Outcome {
    super::Engine::Monolithic.verify(prog, opts)
}

/// Decides the bounded problem of one equation.
pub fn decide(prog: &Program, out: &SymexOutput, opts: &EngineOptions) -> Outcome {
    super::with_equation(out, opts, |enc, deadline, stats| {
        solve_exactly(prog, opts, out, enc, deadline, stats)
    })
}

fn solve_exactly(
    prog: &Program,
    opts: &EngineOptions,
    out: &SymexOutput,
    enc: &mut Encoder,
    deadline: &Deadline,
    stats: &mut EngineStats,
) -> Verdict {
    let eq = &out.equation;
    let (po, links) = match super::order_and_links(out, enc, stats, encoder::ValueEquality::Clauses)
    {
        Ok(x) => x,
        Err(why) => return Verdict::Unknown(why),
    };
    let encoding = std::time::Instant::now();
    let xi = match ScheduleEncoding::encode(eq, &po, &links, enc, LiteralMode::Shared) {
        Ok(x) => x,
        Err(e) => return Verdict::Unknown(UnknownReason::unsupported(e.to_string())),
    };
    stats.encode_time += encoding.elapsed();
    stats.xi_clauses = xi.size().clauses;

    let checks = Checks::new(out, enc);
    match ask(prog, out, enc, &checks, deadline) {
        Answer::Violation => {
            let failed = out
                .property_checks()
                .find(|c| enc.value(c.lit))
                .expect("a property literal holds in the model")
                .clone();
            let order = xi.order(eq, enc);
            let trace = Trace::build(prog, out, enc, &order, (failed.loc, failed.thread));
            Verdict::False { trace }
        }
        Answer::Unknown(why) => Verdict::Unknown(why),
        Answer::Holds => Verdict::True {
            complete: opts.symex.unwinding_assertions,
        },
    }
}
