//! Calls of known names: SV-COMP builtins (`verifier`), GCC builtins (`gcc`), the C library
//! functions the tasks use (`libc`) and the pthread API (`pthread`), one module per family;
//! ordinary calls are in `call`.
//!
//! Policy for functions without a body: see [`crate::ir::ExternalCall`].

mod atomics;
mod cprover;
mod gcc;
mod libc;
mod mutex_kinds;

pub(super) use libc::{PRINTF_FAMILY, READ_ONLY};

mod pthread;
mod scanf;
mod sync_objects;
pub(super) use pthread::KeyVars;
mod verifier;

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::{Lowerer, R};
use crate::ir::*;

pub(super) type Args = [Node<Expression>];

/// A call of a known name, as the builtin families see it.
#[derive(Clone, Copy)]
pub(super) struct Call<'c> {
    pub name: &'c str,
    pub args: &'c Args,
    pub span: Span,
    /// Whether the caller uses the result.
    pub want: bool,
}

/// What a family answers: `Ok(None)` when the name is not one of its own, else the call's
/// value (`None` for a `void` builtin).
impl<'c> Call<'c> {
    /// Name, arguments, where, and whether the result is used.
    pub fn parts(&self) -> (&'c str, &'c Args, Span, bool) {
        (self.name, self.args, self.span, self.want)
    }
}

pub(super) type Builtin = R<Option<Option<Expr>>>;

impl Lowerer<'_> {
    fn arg_count(&self, name: &str, args: &Args, n: usize, span: Span) -> R<()> {
        if args.len() != n {
            return Err(self.invalid(
                span,
                format!("{name} expects {n} arguments, got {}", args.len()),
            ));
        }
        Ok(())
    }

    /// A pointer argument: its value.
    fn ptr_arg(&mut self, e: &Node<Expression>) -> R<Expr> {
        let v = self.rvalue(e)?;
        if !self.types.is_pointer(v.ty) && !self.types.is_integer(v.ty) {
            return Err(self.invalid(e.span, "pointer argument expected"));
        }
        Ok(v)
    }

    fn is_null(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Const(0))
            || matches!(&e.kind, ExprKind::Cast(x) if matches!(x.kind, ExprKind::Const(0)))
    }

    /// The place a pointer designates (`&x` gives `x` itself).
    fn deref_place(&mut self, p: Expr, span: Span) -> R<Place> {
        if let ExprKind::AddrOf(pl) = &p.kind {
            return Ok((**pl).clone());
        }
        let Some(t) = self.types.pointee(p.ty) else {
            return Err(self.invalid(span, "pointer expected"));
        };
        Ok(Place {
            base: PlaceBase::Deref(Box::new(p)),
            projs: vec![],
            ty: t,
        })
    }

    /// A builtin's argument converted to the type the builtin takes (as by assignment, so a
    /// void or struct value is an error, not a cast).
    fn convert_arg(&mut self, v: Expr, to: TypeId, span: Span) -> R<Expr> {
        if !self.types.is_scalar(v.ty) {
            return Err(self.invalid(
                span,
                format!("argument of type {}", self.types.display(v.ty)),
            ));
        }
        self.assign_convert(v, to, span)
    }

    fn zero_int(&mut self) -> Option<Expr> {
        let int = self.types.int32();
        Some(Expr::constant(0, int))
    }

    /// Result of a builtin that stores into a fresh temporary.
    fn result_temp(&mut self, ty: TypeId, want: bool) -> Option<Place> {
        want.then(|| self.temp(ty))
    }

    /// Handles a call of a known name; `None` when `name` is not a builtin.
    pub(super) fn builtin(&mut self, name: &str, args: &Args, span: Span, want: bool) -> Builtin {
        // A program may define its own version of a library function; the SV-COMP builtins
        // keep their meaning whatever their body (a `reach_error` call is the violation).
        let always = matches!(
            name,
            "reach_error"
                | "__VERIFIER_error"
                | "__VERIFIER_assume"
                | "__VERIFIER_atomic_begin"
                | "__VERIFIER_atomic_end"
                | "__assert_fail"
        ) || name.starts_with("__VERIFIER_nondet_");
        if !always && self.defined.contains(name) {
            return Ok(None);
        }
        let call = Call {
            name,
            args,
            span,
            want,
        };
        let families = [
            Self::verifier_builtin,
            Self::cprover_builtin,
            Self::atomic_builtin,
            Self::gcc_builtin,
            Self::libc_builtin,
            Self::sync_object_builtin,
            Self::pthread_builtin,
        ];
        for family in families {
            if let Some(r) = family(self, &call)? {
                return Ok(Some(r));
            }
        }
        if cprover::RESERVED_FAMILIES
            .iter()
            .any(|f| name.starts_with(f))
        {
            return Err(self.unsupported(span, name));
        }
        Ok(None)
    }
}

/// The expression under any casts.
pub(super) fn strip_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(x) => strip_casts(x),
        _ => e,
    }
}
