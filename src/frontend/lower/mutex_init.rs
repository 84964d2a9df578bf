//! Mutexes with a static initialiser other than `PTHREAD_MUTEX_INITIALIZER`.
//!
//! The engines take a mutex to be the object its operand designates, free when all-zero (see
//! the `ir` module doc), and ignore the kind a non-zero initialiser writes into it: glibc's
//! `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP` sets `__kind` to 1, and a recursive mutex locked
//! twice by its owner does not deadlock, so a program that relies on it would be answered
//! TRUE where it is FALSE. A lock, unlock or trylock of a global whose initialiser (in
//! `Program::init`) assigns anything but the constant 0 is therefore refused as unsupported.

use cranelift_entity::EntityRef;

use crate::frontend::FrontendError;
use crate::ir::{Expr, ExprKind, InstrKind, PlaceBase, Program, VarId};

/// The global a mutex operand names directly (`&m`, `&m.field`, `&ms[i]`), if any.
fn named_global(prog: &Program, e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::AddrOf(p) => match p.base {
            PlaceBase::Var(v) if prog.vars[v].is_global() => Some(v),
            _ => None,
        },
        ExprKind::Cast(inner) => named_global(prog, inner),
        _ => None,
    }
}

/// The error for the first reachable mutex operation on a global with a non-zero static
/// initialiser.
pub(super) fn non_default_mutex(prog: &Program, reach: &[bool]) -> Option<FrontendError> {
    let init = prog.funcs[prog.init].body.as_ref()?;
    let written_nonzero = |v: VarId| {
        init.instrs.values().any(|i| match &i.kind {
            InstrKind::Assign { dst, src } => {
                matches!(dst.base, PlaceBase::Var(w) if w == v) && src.as_const() != Some(0)
            }
            _ => false,
        })
    };
    for (f, _, body) in prog.defined_funcs() {
        if !reach[f.index()] {
            continue;
        }
        for i in body.instrs.values() {
            let operand = match &i.kind {
                InstrKind::MutexLock(m) | InstrKind::MutexUnlock(m) => m,
                InstrKind::MutexTryLock { mutex, .. } => mutex,
                _ => continue,
            };
            if let Some(v) = named_global(prog, operand).filter(|&v| written_nonzero(v)) {
                return Some(FrontendError::Unsupported(format!(
                    "{}: unsupported: mutex {} has a static initialiser other than \
                     PTHREAD_MUTEX_INITIALIZER (a recursive or error-checking mutex)",
                    prog.loc_str(i.loc),
                    prog.vars[v].source_name
                )));
            }
        }
    }
    None
}
