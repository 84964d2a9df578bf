//! CBMC's language extensions (`__CPROVER_assert`, `__CPROVER_assume`, atomic sections,
//! `__CPROVER_fence`, `nondet_*`) and `assert` called without `<assert.h>`, with CBMC's
//! meaning. The thread label `__CPROVER_ASYNC_n` is in `cprover_async`.

use lang_c::ast::Expression;

use super::super::{Lowerer, Sym};
use super::{Builtin, Call};
use crate::ir::*;

impl Lowerer<'_> {
    /// The CBMC builtins; `None` for any other name.
    pub(super) fn cprover_builtin(&mut self, call: &Call) -> Builtin {
        let (name, args, span, _) = call.parts();
        let r: Option<Expr> = match name {
            "assert" => {
                // Without its header `assert` is an implicitly declared function: every C
                // verifier (and gcc with the header) stops there when the argument is zero, so
                // it is the assertion, not a call of an unknown function.
                self.arg_count(name, args, 1, span)?;
                self.warnings.push(format!(
                    "{}: 'assert' without <assert.h>: taken as the assertion",
                    self.where_(span)
                ));
                self.assertion(&args[0], span)?;
                None
            }
            "__CPROVER_assert" => {
                // The message is a string for the user; it changes nothing.
                self.arg_count(name, args, 2, span)?;
                if !matches!(args[1].node, Expression::StringLiteral(_)) {
                    self.discard(&args[1])?;
                }
                self.assertion(&args[0], span)?;
                None
            }
            "__CPROVER_assume" => {
                self.arg_count(name, args, 1, span)?;
                let c = self.rvalue(&args[0])?;
                let c = self.truth(c);
                self.emit(InstrKind::Assume(c));
                None
            }
            "__CPROVER_atomic_begin" => {
                self.arg_count(name, args, 0, span)?;
                self.emit(InstrKind::AtomicBegin);
                None
            }
            "__CPROVER_atomic_end" => {
                self.arg_count(name, args, 0, span)?;
                self.emit(InstrKind::AtomicEnd);
                None
            }
            "__CPROVER_fence" => {
                // Its arguments name the kinds of access pairs ordered ("WWfence", ...).
                for a in args {
                    if !matches!(a.node, Expression::StringLiteral(_)) {
                        return Err(self.invalid(a.span, "__CPROVER_fence expects string kinds"));
                    }
                }
                self.emit(InstrKind::Fence(FenceKind::Cprover));
                None
            }
            _ if name.starts_with("nondet_") || name.starts_with("__CPROVER_nondet_") => {
                // CBMC: a function without a body returns a nondet value of its return type;
                // `nondet_T` is the idiom for an input, so it is one without a warning.
                // Undeclared, it is implicitly declared `int` by the ordinary call path.
                let Some(Sym::Func(f)) = self.lookup(name).cloned() else {
                    return Ok(None);
                };
                let ty = self.funcs[f].ret;
                if self.types.is_void(ty) {
                    return Err(self.invalid(span, format!("{name} returns void")));
                }
                for a in args {
                    self.discard(a)?;
                }
                let t = self.temp(ty);
                self.emit(InstrKind::Nondet { dst: t.clone() });
                Some(Expr::read(t))
            }
            _ => return Ok(None),
        };
        Ok(Some(r))
    }
}

/// The families of names that belong to a verifier, the compiler or the pthread library: a
/// call of one that no builtin models is unsupported, never the no-body policy (a nondet
/// result and no effect would silently drop what the name means).
pub(in crate::frontend::lower) const RESERVED_FAMILIES: &[&str] = &[
    "__CPROVER_",
    "__VERIFIER_",
    "__builtin_",
    "__sync_",
    "__atomic_",
    "__c11_atomic_",
    "pthread_",
    "sem_",
];
