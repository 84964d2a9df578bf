//! The POWER explorer as a verification engine on C programs (`--engine rsmc`): translate
//! the program (`from_ir`), explore every allowed trace under the chosen model, answer FALSE
//! for a complete trace that fails an assertion, TRUE when every trace was explored without
//! one, UNKNOWN otherwise.

use std::time::Instant;

use super::from_ir::{run_epilogue, translate, CProgram};
use super::program::Instr;
use super::state::State;
use super::{explore, Halt, MemoryModel, Options};
use crate::engine::{EngineOptions, EngineStats, Outcome, Trace, TraceEvent, Verdict};
use crate::explore::findings::{Budget, ExploreStats};
use crate::explore::interp::norm;
use crate::ir::{Loc, Program};
use crate::verdict::UnknownReason;

/// Verifies `prog` under `model`.
pub fn verify(prog: &Program, opts: &EngineOptions, model: MemoryModel) -> Outcome {
    let start = Instant::now();
    let c = match translate(prog) {
        Ok(c) => c,
        Err(why) => return Outcome::unknown(why, EngineStats::default()),
    };
    let options = Options {
        model,
        max_events: 100_000,
        budget: Budget {
            max_executions: opts.max_executions,
            deadline: opts.timeout.map(|t| start + t),
        },
    };
    let mut violation: Option<Trace> = None;
    let (stats, halt) = explore(&c.program, &options, &mut |s| {
        let failed = match s.violation {
            Some((t, pc)) => Some((t, c.locs[t][pc])),
            None => c.epilogue.as_ref().and_then(|(th, locs)| {
                let mem = (0..c.program.locs.len()).map(|l| s.final_loc(l)).collect();
                run_epilogue(th, &c.program, mem).map(|pc| (c.program.threads.len(), locs[pc]))
            }),
        };
        match failed {
            Some((t, loc)) => {
                violation = Some(trace(prog, &c, s, t, loc));
                true
            }
            None => false,
        }
    });
    let explore_stats = ExploreStats {
        executions: stats.traces,
        blocked: stats.blocked,
        steps: stats.commits,
        time: stats.time,
        ..ExploreStats::default()
    };
    let es = EngineStats {
        total_time: start.elapsed(),
        explore: Some(explore_stats),
        ..EngineStats::default()
    };
    let verdict = if let Some(trace) = violation {
        Verdict::False { trace }
    } else {
        match halt {
            None => Verdict::True { complete: true },
            Some(Halt::Asked) => Verdict::Unknown(UnknownReason::Internal(
                "the exploration stopped without a violation".into(),
            )),
            Some(Halt::Stuck(s)) => {
                Verdict::Unknown(UnknownReason::unsupported(format!("POWER run: {s:?}")))
            }
            Some(Halt::TooBig) => Verdict::Unknown(UnknownReason::unsupported(
                "more than 128 events in one trace, or 63 loads waiting for one store, in the POWER explorer",
            )),
            Some(Halt::Budget { deadline: true }) => Verdict::Unknown(UnknownReason::Timeout),
            Some(Halt::Budget { deadline: false }) => {
                Verdict::Unknown(UnknownReason::ExecutionBudget {
                    runs: stats.traces + stats.blocked,
                })
            }
        }
    };
    Outcome::new(verdict, es)
}

/// The violating trace: the committed accesses in commit order (an order the model allows
/// them to become visible in), then the failing check.
fn trace(prog: &Program, c: &CProgram, s: &State, thread: usize, loc: Loc) -> Trace {
    let mut events = Vec::new();
    for e in &s.committed {
        let ev = s.ev(*e);
        let l = ev.loc.expect("committed accesses are located");
        let v = c.vars[l];
        let bits = prog.types.bits(prog.vars[v].ty);
        events.push(TraceEvent {
            thread: e.thread + 1,
            loc: c.locs[e.thread as usize][ev.pc],
            what: prog.vars[v].name.clone(),
            write: matches!(s.instr(*e), Instr::Store { .. }),
            value: norm(ev.value as u64, bits, false),
            bits,
        });
    }
    let main = prog.main.expect("main");
    let mut threads = vec![(prog.funcs[main].name.clone(), prog.funcs[main].loc)];
    threads.extend(
        c.entries
            .iter()
            .map(|f| (prog.funcs[*f].name.clone(), prog.funcs[main].loc)),
    );
    let n = threads.len();
    Trace {
        events,
        inputs: Vec::new(),
        violation_loc: loc,
        violation: crate::verdict::Violation::UnreachCall,
        race: None,
        // Thread numbers of the trace: main is 0, the created threads follow.
        violation_thread: if thread == c.program.threads.len() {
            0
        } else {
            thread as u32 + 1
        },
        threads,
        parents: vec![0; n],
        created_after: vec![Some(0); n],
    }
}
