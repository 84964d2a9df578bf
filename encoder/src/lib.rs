//! The SSA equation of a bounded concurrent program and its bit-precise CNF encoding.
//!
//! Knows nothing of C: symex builds an [`Equation`] of threads and guarded shared-memory events
//! and encodes its data flow with the circuits of [`Encoder`] (`gates`, `bitvec`);
//! this crate then adds ζ ([`encode_links`]: each read takes one write) and, for the monolithic
//! engine or the exact check, ξ ([`ScheduleEncoding`]: a total order exists), all as clauses on
//! a [`solver_glue::SatSolver`].
//!
//! Typical use:
//! ```text
//! let mut enc = Encoder::new(&mut solver);
//! let mut eq = Equation::new(enc.tru());
//! // symex: eq.add_thread(), eq.add_location(..), eq.add_init_write(..), eq.add_event(..),
//! //        eq.add_create(parent, child, guard, atomic), eq.add_join(..), values via enc.bv_*
//! eq.validate()?;
//! let po = ProgramOrder::unconditional(&eq)?;
//! let links = encode_links(&eq, &po, &mut enc)?;     // ζ on the φ solver
//! // monolithic: ScheduleEncoding::encode(&eq, &po, &links, &mut enc, LiteralMode::Shared)?
//! //             then after SAT: xi.order(&eq, &enc)
//! // exact check on a second solver, for a model of φ:
//! let mut xi_enc = Encoder::new(&mut xi_solver);
//! let xi = ScheduleEncoding::encode(&eq, &po, &links, &mut xi_enc, LiteralMode::Separate)?;
//! match xi.check(&eq, &mut xi_enc, |l| enc.value(l)) {
//!     ExactCheck::Feasible(order) => …,      // a counterexample schedule
//!     ExactCheck::Infeasible(core) => …,     // add ¬(∧ core) to φ
//!     ExactCheck::Interrupted => …,
//! }
//! ```

mod at_most_one;
pub mod bitvec;
pub mod equation;
pub mod float;
pub mod gates;
pub mod links;
pub mod ordering;
pub mod program_order;
pub mod schedule;
mod search;

pub use bitvec::BitVec;
pub use equation::{
    AccessKind, AtomicBlock, CreateEdge, Equation, EquationError, Event, EventData, JoinEdge,
    Location, LocationData, SearchOrder, Thread, ThreadData, ThreadItem,
};
pub use float::FloatFormat;
pub use gates::{Counters, Encoder, EncoderState};
pub use links::{encode_links, encode_links_with, Link, LinkTable, ValueEquality};
pub use ordering::{Coherence, CoherencePair, OrderTheory, TheoryStats};
pub use program_order::ProgramOrder;
pub use schedule::{encode_schedule, exact_check, ExactCheck, LiteralMode, ScheduleEncoding};
