//! Detached threads (`pthread_detach`, `pthread_attr_setdetachstate` with
//! `PTHREAD_CREATE_DETACHED`).
//!
//! Detaching changes two things only: the thread's resources are released when it ends, and
//! it can no longer be joined (a `pthread_join` of a detached thread is undefined behaviour).
//! It changes nothing of what the thread does, nor of what happens when `main` returns (the
//! process ends, detached or not) or calls `pthread_exit` (the process runs until every
//! thread has ended, detached or not). So in a program that never joins, detaching is exactly
//! a no-op, and the frontend lowers it as one.
//!
//! A program that both detaches (or creates a thread detached) and joins would need to know,
//! at each join, whether the joined thread is a detached one: a per-thread state the engines
//! do not keep. Rather than let such a join succeed silently (which would hide the undefined
//! behaviour, a wrong TRUE), the program is unsupported when a function that detaches and a
//! function that joins are both reachable. This is coarser than needed (the join may be of
//! another thread) but never wrong: the answer is UNKNOWN with the reason.

use cranelift_entity::EntityRef;

use super::Lowerer;
use crate::frontend::FrontendError;
use crate::ir::{FuncId, InstrKind, Program};

impl Lowerer<'_> {
    /// Records a detach (a `pthread_detach`, or a detached thread attribute) in the function
    /// being lowered, described by `what` for the error a later join may give.
    pub(super) fn note_detach(&mut self, what: String) {
        let f = self.cur_func().unwrap_or(self.file_fn);
        self.detaches.push((f, what));
    }
}

/// The error of a program where a reachable function detaches a thread and a reachable
/// function joins one (see the module's doc); `None` when not both.
pub(super) fn detached_join(
    prog: &Program,
    reach: &[bool],
    detaches: &[(FuncId, String)],
) -> Option<FrontendError> {
    let (_, what) = detaches.iter().find(|(f, _)| reach[f.index()])?;
    let join = prog.defined_funcs().find_map(|(f, _, body)| {
        if !reach[f.index()] {
            return None;
        }
        body.instrs
            .values()
            .find(|i| matches!(i.kind, InstrKind::ThreadJoin { .. }))
            .map(|i| prog.loc_str(i.loc))
    })?;
    Some(FrontendError::Unsupported(format!(
        "{join}: unsupported: pthread_join in a program that detaches a thread ({what}): \
         joining a detached thread is undefined"
    )))
}
