//! Symbolic execution: the IR program, unwound to a bound, as guarded circuits and an
//! [`Equation`] of shared-memory events.
//!
//! Every thread instance (main, and each `pthread_create` executed, also inside unrolled loops)
//! is executed on its own, with its own locals; calls are inlined and loops unwound up to the
//! bound. Thread-private values live in the path [`state::State`] and become circuits on the
//! encoder directly; every access to memory (globals, heap objects, address-taken locals) is an
//! event of the equation whose value links to other threads only through ζ/ξ, which the engines
//! add. Assumptions (including a lock acquisition's `m == 0`) strengthen the path guard, so a
//! thread that blocks simply has no further events: that is exactly the set of execution
//! prefixes, which is what reachability of an error needs.
//!
//! The result lists [`Check`]s: a literal per property violation, per loop that could run past
//! its bound (unwinding assertion), and per construct met on a reachable path that cannot be
//! modelled exactly. The engines decide which of them a real execution can reach.

mod access;
mod atomic;
mod builtins;
mod eval;
mod exec;
mod function_call;
mod main_values;
pub mod memory;
mod memsafety;
mod objects;
pub mod print;
mod spin;
pub mod state;
mod symmetry;
mod threads;
mod twin_segments;

use std::collections::HashMap;

use cranelift_entity::SecondaryMap;
use encoder::{BitVec, Encoder, EncoderState, Equation, Event, Thread};
use solver_glue::{ClauseLog, Lit, SatSolver};

use crate::ir::{FuncId, Loc, LoopId, PropId};

pub use exec::run;
pub use spin::SpinStats;

/// How far to unwind.
#[derive(Clone, Debug)]
pub struct SymexOptions {
    /// Loop-head passes allowed per loop entry (CBMC's `--unwind`: a loop whose body runs k
    /// times needs k + 1), and the recursion depth allowed.
    pub unwind: u32,
    /// Per-loop bounds, keyed `FUNCTION.N` (N = the loop's index in its function).
    pub unwindset: HashMap<String, u32>,
    /// Whether a loop that could run past its bound is a check (true) or an assumption.
    pub unwinding_assertions: bool,
    /// Cut loops at iterations without a visible effect and repeated condition waits (see
    /// the `spin` module for why that loses no reachable error).
    pub spin_reduction: bool,
    /// Thread instances allowed (main included), at least: the limit is raised to one thread
    /// per `pthread_create` site and loop pass the bound allows (see `Symex::spawn`).
    pub max_threads: usize,
    /// Give up (with [`SymexError::Timeout`]) once this instant has passed.
    pub deadline: Option<std::time::Instant>,
    /// Make a [`CheckKind::Overflow`] for every signed arithmetic operation (no-overflow).
    pub overflow_checks: bool,
    /// Model the liveness of heap and stack objects and make a [`CheckKind::Memory`] for
    /// every dereference, `free` and the end of `main` (valid-memsafety, see `memsafety`).
    pub memsafety: bool,
    /// A `free` writes every cell of the object it frees (no-data-race: a free races with an
    /// access of another thread to the object it is not ordered with).
    pub free_writes: bool,
    /// Order the first events of identical threads by their creation (`symmetry`; sound for
    /// reachability properties under sequential consistency only).
    pub symmetry: bool,
}

impl Default for SymexOptions {
    fn default() -> Self {
        SymexOptions {
            unwind: 2,
            unwindset: HashMap::new(),
            unwinding_assertions: true,
            spin_reduction: true,
            max_threads: 64,
            deadline: None,
            overflow_checks: false,
            memsafety: false,
            free_writes: false,
            symmetry: false,
        }
    }
}

/// A condition the engines check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// An assertion or a `reach_error` call fails.
    Property(PropId),
    /// A loop could run past its unwinding bound.
    Unwind { func: FuncId, lp: LoopId },
    /// Recursion deeper than the bound.
    Recursion(FuncId),
    /// A construct that cannot be modelled exactly was reached.
    Unsupported(String),
    /// A read through a pointer that designates no object cell (null, dangling, out of
    /// bounds). Its value is a fresh one: any value the machine could return, or none if it
    /// traps, so the executions with it over-approximate the program's. A TRUE verdict may
    /// stand on them; a FALSE verdict may not (its trace must avoid every such read), and an
    /// error reachable only together with one is UNKNOWN (see `engine::Checks`).
    InvalidRead,
    /// A signed arithmetic operation (`+ - * / %`, unary minus, `<<`) whose result does not
    /// fit its type: the error of no-overflow (made only under `overflow_checks`).
    Overflow,
    /// A violation of valid-memsafety (`ValidDeref`, `ValidFree` or `ValidMemtrack`), made
    /// only under [`SymexOptions::memsafety`]: an invalid dereference, an invalid `free`, or
    /// memory lost at the end of `main`.
    Memory(crate::verdict::Violation),
    /// An execution reaches an [`crate::ir::InstrKind::Approximate`]: from there on some
    /// values are arbitrary where the program's are exact. As for [`CheckKind::InvalidRead`],
    /// a TRUE verdict may stand on such executions, an error reached with one is UNKNOWN.
    Approximate(crate::ir::Approximation),
}

impl CheckKind {
    /// Whether the check is a property's error (an assertion, an overflow), not a reason for
    /// UNKNOWN.
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            CheckKind::Property(_) | CheckKind::Overflow | CheckKind::Memory(_)
        )
    }
}

/// The text of an [`CheckKind::InvalidRead`] reason.
pub const INVALID_READ: &str = "invalid memory read (null, dangling or out of bounds)";

#[derive(Clone, Debug)]
pub struct Check {
    pub kind: CheckKind,
    /// True in an execution iff the check fails there.
    pub lit: Lit,
    pub loc: Loc,
    pub thread: Thread,
}

/// Where an event comes from, for traces.
#[derive(Clone, Debug, Default)]
pub struct EventInfo {
    pub loc: Loc,
    /// For the first byte event of an access to a byte object: the events of its other bytes,
    /// in address order (a trace shows the access as one step with the whole value).
    pub rest: Vec<Event>,
    /// For the other byte events of such an access: its first event.
    pub head: Option<Event>,
    /// The access lies in an atomic section (`__VERIFIER_atomic_*`, `__VERIFIER_atomic_begin`
    /// ... `_end`): two such accesses never race (no-data-race). The blocks of a byte
    /// object's access and of a lock operation are no sections.
    pub section: bool,
}

/// A nondeterministic input, for traces and witnesses.
#[derive(Clone, Debug)]
pub struct NondetInput {
    pub thread: Thread,
    pub loc: Loc,
    pub guard: Lit,
    pub value: BitVec,
    pub signed: bool,
}

/// One thread instance.
#[derive(Clone, Debug)]
pub struct ThreadInfo {
    pub thread: Thread,
    /// The thread's number (its `pthread_t` value; main is 0).
    pub number: u32,
    pub entry: FuncId,
    /// Where it was created (main: its definition).
    pub loc: Loc,
    /// The parent's guard at the create.
    pub guard: Lit,
}

/// The circuits of a symbolic execution: its clauses, and the encoder that built them (the
/// constant, the gate tables), so that engines go on building on the same literals.
#[derive(Clone)]
pub struct Formula {
    pub log: ClauseLog,
    pub state: EncoderState,
}

impl Formula {
    /// An encoder on `solver` holding this formula: every clause replayed, the gate tables
    /// carried over. Any number of solvers can be given the same formula; their literals are
    /// the same (the engines' refinement check relies on that).
    pub fn encoder<'s>(&self, solver: &'s mut dyn SatSolver) -> Encoder<'s> {
        self.log.replay(solver);
        Encoder::resume(solver, self.state.clone())
    }
}

/// What symbolic execution produced: the equation and its circuits, a value any engine
/// encodes (and `yogar show-equation` prints).
pub struct SymexOutput {
    pub equation: Equation,
    pub event_info: SecondaryMap<Event, EventInfo>,
    pub checks: Vec<Check>,
    pub nondets: Vec<NondetInput>,
    pub threads: Vec<ThreadInfo>,
    /// The clauses of the threads' data flow, guards and checks (φ without ζ and ξ).
    pub formula: Formula,
    /// Facts the sharing pass did not predict (an object, a second thread touching an object
    /// it took as private). Always empty unless the pass has a bug; every such access is also
    /// reported as an unsupported construct, so a verdict never depends on it.
    pub unpredicted: Vec<String>,
    /// What the spin reduction cut.
    pub spin: SpinStats,
    /// The locations of the mutexes' lock states (synchronisation, never a data race).
    pub sync_locations: Vec<encoder::Location>,
}

impl SymexOutput {
    /// The checks that are real properties (assertions, `reach_error`).
    pub fn property_checks(&self) -> impl Iterator<Item = &Check> {
        self.checks
            .iter()
            .filter(|c| matches!(c.kind, CheckKind::Property(_)))
    }
}

/// Why symbolic execution gave up before producing an equation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymexError {
    /// A construct that cannot be modelled exactly (message names it).
    Unsupported(String),
    /// The deadline passed during execution.
    Timeout,
}

impl std::fmt::Display for SymexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SymexError::Unsupported(s) => write!(f, "unsupported: {s}"),
            SymexError::Timeout => write!(f, "timeout"),
        }
    }
}

impl std::error::Error for SymexError {}

impl From<SymexError> for crate::verdict::UnknownReason {
    fn from(e: SymexError) -> Self {
        match e {
            SymexError::Unsupported(what) => crate::verdict::UnknownReason::unsupported(what),
            SymexError::Timeout => crate::verdict::UnknownReason::Timeout,
        }
    }
}

pub(crate) fn unsupported<T>(msg: impl Into<String>) -> Result<T, SymexError> {
    Err(SymexError::Unsupported(msg.into()))
}
