//! Proofs without a bound: TRUE for every execution, whatever the number of threads and loop
//! iterations, or no answer at all. Bounded checking never becomes a proof here.
//!
//! # The proof system: Owicki–Gries over thread templates, with ghosts
//!
//! A *thread template* ([`Template`]) is the code one thread runs — `main`, or the entry
//! function of a `pthread_create` — with every call inlined ([`templates`]). Its locations are
//! the instruction ids of its inlined body. A template stands for any number of *instances*
//! (threads running it); each instance has its own copy of the template's private variables
//! ([`Template::locals`]: renamed locals, parameters, temporaries, thread-locals and the ghost
//! `self`).
//!
//! A [`Certificate`] gives, for every template and location, an [`Invariant`] over that
//! template's private variables, the globals and the ghost globals, meant to hold whenever an
//! instance is at that location (before it executes the instruction there). The certificate is
//! *valid* when the checks below hold ([`check`] runs them, each bit-precisely with the
//! encoder, by compiling them into a sequential verification-condition program that the
//! bounded engine decides with closed unwinding):
//!
//! 1. **Initiation.** After the global initialisers, `main`'s entry invariant holds.
//! 2. **Creation.** At a `pthread_create` of template `u` at `(t, l)`: `Inv_t(l)` and a fresh
//!    instance of `u` (its parameter the argument, its thread-locals initialised, its `self`
//!    fresh) imply `Inv_u(entry)`.
//! 3. **Consecution.** For every instruction `(t, l)` and successor `l'`: `Inv_t(l)` and one
//!    step imply `Inv_t(l')` (ghost updates of the step included).
//! 4. **Stability (interference freedom).** For every location `(t, l)` where an instance can
//!    be interrupted (outside atomic sections) and every *interfering step* `e` of a template
//!    `u` that may run concurrently — one instruction outside atomic sections, or a whole
//!    atomic section — of *another* instance (its private variables a second, renamed copy; the
//!    two `self` ghosts distinct): `Inv_t(l) ∧ Inv_u(src e) ∧ step e ⇒ Inv_t(l)` after the step.
//!    `u = t` is included unless `t` has at most one instance; steps that write only their own
//!    instance's private variables need no check (the invariant of another instance cannot
//!    mention them).
//! 5. **Safety.** At every assertion `(t, l)`: `Inv_t(l)` implies its condition (for
//!    `reach_error`, whose condition is false: `Inv_t(l)` is unsatisfiable).
//!
//! Why a valid certificate proves TRUE (the Owicki–Gries argument, parametric in the number of
//! instances): by induction over any execution of the real program, every instance at location
//! `l` of its template satisfies `Inv(l)` in every state. The base cases are 1 and 2 (a thread
//! appears only through a creation, and `main` starts after the initialisers). A step of an
//! instance keeps its own invariant by 3 and, for every other instance, that instance's
//! invariant by 4 (an instance inside an atomic section is never interrupted, so only the
//! whole section's effect needs to be stable for the others). By 5 no assertion fails.
//!
//! **Ghosts** ([`GhostUpdate`]) are extra global variables that the certificate's steps assign
//! (lock owners, phases); they only receive values and are never read by the program, so every
//! execution of the program extends to one of the program with ghosts, and an invariant of the
//! latter projected away from the ghosts holds for the former. The ghost `self` of an instance
//! is a distinct non-zero value per instance: two instances of one template differ in it, which
//! is what lets a lock owner `owner_m == self` exclude another instance's step that needs
//! `owner_m == self'`.
//!
//! **May-happen-in-parallel.** No thread exists before `main` executes its first creation, so
//! `main`'s locations and steps that no creation can precede (not reachable from a creation in
//! `main`'s body) need no stability check and interfere with nobody. Nothing else about
//! concurrency is assumed by the checker.
//!
//! The analyser ([`analyze`]) computes invariants by thread-modular abstract interpretation;
//! its transfer functions are not trusted: only a certificate that passes [`check`] gives TRUE.

pub mod analyze;
pub mod c_expr;
pub mod check;
pub mod domain;
mod rename;
pub mod run;
pub mod templates;
pub mod witness;

use std::collections::BTreeMap;
use std::fmt;

use cranelift_entity::{entity_impl, PrimaryMap, SecondaryMap};

use crate::ir::{Body, Expr, FuncId, InstrId, Program, VarId};

/// Why no proof is attempted or found: the program is outside the prover's model, or the
/// analyser found no certificate. Never a verdict by itself: the caller answers UNKNOWN (or
/// goes on with bounded checking).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GiveUp {
    /// The program has no `main`.
    NoMain,
    /// A function that calls itself, directly or through others: inlining would not end.
    Recursion { func: String },
    /// A call or thread creation through a pointer the sharing pass resolves to no function
    /// with a body.
    UnresolvedPointer { what: &'static str, at: String },
    /// The atomic-section depth at a location differs between paths, or a section closes
    /// where none is open, or a thread ends inside one.
    AtomicDepth { at: String },
    /// A construct outside the prover's model.
    Unsupported { what: String, at: Option<String> },
    /// The analyser found no certificate (with what it lacked).
    NoInvariant(String),
}

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GiveUp::NoMain => write!(f, "no main function"),
            GiveUp::Recursion { func } => write!(f, "recursion through {func}"),
            GiveUp::UnresolvedPointer { what, at } => {
                write!(f, "{what} through a pointer to no known function at {at}")
            }
            GiveUp::AtomicDepth { at } => {
                write!(
                    f,
                    "atomic sections not nested the same way on every path at {at}"
                )
            }
            GiveUp::Unsupported { what, at: Some(at) } => write!(f, "{what} at {at}"),
            GiveUp::Unsupported { what, at: None } => write!(f, "{what}"),
            GiveUp::NoInvariant(why) => write!(f, "no invariant found: {why}"),
        }
    }
}

/// A thread template (see the module doc).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TemplateId(u32);
entity_impl!(TemplateId, "tpl");

/// How many instances of a template can exist over an execution.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Instances {
    /// At most one (`main`, or a thread created by a creation that runs at most once).
    One,
    /// Any number.
    Many,
}

/// The code one thread runs, every call inlined.
#[derive(Clone, Debug)]
pub struct Template {
    /// The entry function in the original program (`main` or a thread entry).
    pub entry: FuncId,
    /// Whether this is `main`'s template.
    pub is_main: bool,
    /// The inlined body: its instruction ids are the template's locations; variables are
    /// those of [`Templates::program`]. Calls never appear in it; `ThreadCreate` entries are
    /// `Callee::Direct` of the created template's entry function.
    pub body: Body,
    /// The entry's parameter, when it has one (receives the creation's argument).
    pub param: Option<VarId>,
    /// Every variable private to one instance: the renamed locals, parameters and
    /// temporaries of all inlined calls, the program's thread-local variables, and `self_id`.
    pub locals: Vec<VarId>,
    /// The ghost `self` of an instance (an unsigned int, distinct and non-zero per instance).
    pub self_id: VarId,
    pub instances: Instances,
    /// Atomic-section depth before each location (0: the instance can be interrupted there).
    pub atomic_depth: SecondaryMap<InstrId, u32>,
    /// Where each location came from: the original function and instruction (for witnesses).
    pub origin: SecondaryMap<InstrId, Option<(FuncId, InstrId)>>,
}

/// All templates of a program.
#[derive(Clone, Debug)]
pub struct Templates {
    /// The original program with the variables the templates add (renamed locals, `self`
    /// ghosts); the templates' bodies name these.
    pub program: Program,
    pub templates: PrimaryMap<TemplateId, Template>,
    /// `main`'s template.
    pub main: TemplateId,
    /// Per global a mutex operation may designate (by the sharing pass's points-to sets), the
    /// ghost global that holds its owner: 0 when the mutex is free, else the `self` of the
    /// instance holding it (an unsigned int, zero initially). The checker executes a lock of
    /// that mutex as `assume(owner == 0); owner := self` and an unlock as `owner := 0` (see
    /// [`check`]); invariants may mention the owners like any ghost.
    pub mutex_owners: BTreeMap<VarId, VarId>,
}

/// A target of a pointer fact.
#[derive(Clone, Debug, PartialEq)]
pub enum PtrTarget {
    Null,
    /// The address of a variable (its first byte).
    Var(VarId),
    Func(FuncId),
}

/// One conjunct of an invariant.
#[derive(Clone, Debug, PartialEq)]
pub enum Fact {
    /// An IR condition (scalar, non-zero when the fact holds) over the template's private
    /// variables, globals and ghosts; it reads no memory through pointers.
    Holds(Expr),
    /// The pointer variable holds exactly one of these addresses.
    PointsTo { var: VarId, targets: Vec<PtrTarget> },
}

/// What holds at one location: the conjunction of its facts; `unreachable` is false.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Invariant {
    /// No instance is ever at this location (the invariant is false).
    pub unreachable: bool,
    pub facts: Vec<Fact>,
}

/// The value a ghost update assigns.
#[derive(Clone, Debug, PartialEq)]
pub enum GhostValue {
    /// The executing instance's `self`.
    SelfId,
    Const(u64),
}

/// After the instruction at `at` of `template` executes, `ghost := value` (in the same
/// atomic step).
#[derive(Clone, Debug, PartialEq)]
pub struct GhostUpdate {
    pub template: TemplateId,
    pub at: InstrId,
    pub ghost: VarId,
    pub value: GhostValue,
}

/// A proof to be checked: invariants per template and location, and the ghosts they use.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// How the invariants were found, for the verdict line (`thread-modular intervals`).
    pub method: String,
    /// Ghost globals (unsigned ints in [`Templates::program`], zero initially).
    pub ghosts: Vec<VarId>,
    pub updates: Vec<GhostUpdate>,
    /// Per template, the invariant before each location.
    pub invariants: SecondaryMap<TemplateId, SecondaryMap<InstrId, Invariant>>,
    /// Counter ghosts: the checker, not the certificate, updates them (see [`Counter`]).
    pub counters: Vec<Counter>,
}

/// A counter ghost: an unsigned int ghost global that holds the number of instances whose
/// location is in `set` — for an instance that has finished, the location of the instruction
/// it finished at (so an exit from the set does not decrement it, and a set that contains the
/// exit counts the finished instances: "have passed this point").
///
/// The certificate names the set only. The checker itself updates the counter on every step
/// it executes (a move from `l` to `l'` adds `[l' in set] - [l in set]`, a creation adds
/// `[entry in set]`, the counter starts at `[main's entry in set]`), so the counter is that
/// number in every state of the program with ghosts, and the checker may assume the
/// *counting facts* it implies for the instances a check involves: with those instances
/// `p1, p2` (distinct) at known locations, `c >= #{p_i in set}`, `c <= MAX_INSTANCES -
/// #{p_i not in set}`, and for two counters whose sets are nested (`set ⊆ set'`, checked on
/// the sets) `c' - c >= #{p_i in set' \ set}` (see `check::counters`).
///
/// The bound [`MAX_INSTANCES`] is an assumption of the prover's model, like the distinct
/// 32-bit `self` of every instance: an execution creates fewer than 2^31 thread instances.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    pub var: VarId,
    /// The counted locations, per template.
    pub set: std::collections::BTreeSet<(TemplateId, InstrId)>,
}

/// At most this many instances (main included) exist over an execution: the prover's model
/// (see [`Counter`]). It keeps every counter, and every int that equals one, free of
/// overflow.
pub const MAX_INSTANCES: u64 = (1 << 31) - 1;
