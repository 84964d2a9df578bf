//! Failed assumptions of a thread that has done nothing visible yet: the concolic schedule
//! explorer (`dpor::explore`) does not explore below them.
//!
//! `x = nondet(); assume(2 <= x && x <= 7);` splits the thread's step in two outcomes: the
//! assumption holds, or it fails and the thread stops for good. Below the second the rest of
//! the program is explored again with the thread gone, for every input path of the other
//! threads: with a few workers each starting so, the input classes multiply (seed 2 of
//! `yogar-bench explore-gen`: 231 classes against 8 branch paths, 11 × 3 × 11 input paths of
//! which 9 × 1 × 9 have every assumption hold). Such an outcome is cut (not run further,
//! counted as `pruned_stops`) when:
//! 1. the step stopped its thread `p` at an assumption whose condition depends on an input,
//!    taken false by a decision of this step (the last one it made, recorded fresh here);
//! 2. the other way of that decision, after the same earlier decisions, is explored at the
//!    same node: solved for by this step, or this outcome is itself that other way of an
//!    outcome where the assumption held;
//! 3. `p` is *silent* so far: none of its steps, this one included, made an access another
//!    thread can observe (no read, no write, no lock, no creation), an enumerated choice, or
//!    ran inside an atomic section.
//!
//! # Why no behaviour is lost
//!
//! A silent thread reads nothing shared, so its steps and decisions are a function of its
//! own inputs `X_p` alone (its argument and start are fixed by its creator; a value turned
//! into a pointer would be unsupported): its *silent prefix* is the same in every schedule,
//! and no other thread ever sees a value computed from `X_p` (it wrote nothing). So the
//! decisions mentioning `X_p` mention nothing else, and whether the assumption can hold after
//! the prefix's decisions does not depend on the node: condition 2 says it can.
//!
//! Let `ρ` be a run under inputs `v` that ends in a violation (or a trap, or a bound hit:
//! anything a step reports) and in which some threads stop at such assumptions. Build `v'`
//! from `v`: the inputs of a thread that leaves its silent prefix in `ρ` stay as in `v`; for
//! every other thread `q`, keep the outcomes of the decisions `q` made in `ρ` before the
//! one that stopped it (if any) and let its inputs make every assumption that can hold hold, one decision at
//! a time along `q`'s silent prefix (which does not depend on the schedule), each
//! satisfiable by 2; nothing computed from them reaches another thread. Let `ρ'` be `ρ` without the stopping steps. Under
//! `v'` every step of `ρ'` makes the same decisions as in `ρ` and sees the same state except
//! the frames of the silent threads (nobody reads them), so `ρ'` is a run of the program
//! under `v'` that ends in the same violation (a thread stopped and a thread not yet run are
//! alike to the others: a join on either waits, and neither holds a mutex or an atomic
//! section). Under `v'` no run of the program, in any schedule, stops a thread at an
//! assumption meeting 1-3: each thread's silent prefix is schedule-independent and passes
//! them. So the part `T_v'` of the tree (`concolic::search`) contains no cut outcome, and it
//! is closed under the source-DPOR rules by itself (races found elsewhere only add threads to
//! backtrack sets, and a cut step has no accesses, so it adds nothing to a sleep-set entry);
//! by the argument of `search` it covers the class of `ρ'`: the violation is found.
//!
//! Without 2 the assumption may never hold (`assume(x > 5 && x < 3)`), and the runs with
//! the thread stopped are the only ones; without 3 the thread may have written a value that
//! the others read with it stopped, or its stop may depend on the schedule (tests
//! `tests/programs/stop_*`).

use crate::explore::sched::Step;

/// A step no other thread can observe, with no enumerated choice: no access (read, write,
/// lock, creation, end), not inside an atomic section.
pub fn silent(s: &Step) -> bool {
    s.accesses.is_empty()
        && s.choices.is_empty()
        && s.acquire.is_none()
        && s.release.is_none()
        && s.created.is_empty()
        && !s.atomic
}
