//! Ordinary calls: implicit declarations, argument conversion, direct and indirect callees,
//! and the atomic section around a call of an atomic function.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::builtins::{strip_casts, PRINTF_FAMILY};
use super::{Lowerer, Sym, R};
use crate::ir::*;

impl Lowerer<'_> {
    /// A call expression; `Some(value)` unless the callee returns `void`.
    pub(crate) fn call(&mut self, c: &CallExpression, span: Span, want: bool) -> R<Option<Expr>> {
        self.set_loc_keep_line(span);
        if let Expression::Identifier(id) = &c.callee.node {
            let name = id.node.name.as_str();
            // A local variable of the same name hides the library function.
            let shadowed = matches!(self.lookup(name), Some(Sym::Var(_)));
            if !shadowed {
                if let Some(r) = self.builtin(name, &c.arguments, span, want)? {
                    return Ok(r);
                }
                if PRINTF_FAMILY.contains(&name) && !self.defined.contains(name) {
                    if let Some(why) = printf_may_write(name, &c.arguments) {
                        return Err(self.unsupported(span, format!("{name} with {why}")));
                    }
                }
            }
            if self.lookup(name).is_none() {
                // Implicit declaration (C89): `int name()`.
                let int = self.types.int32();
                let ty = self.types.intern(Type::Func {
                    ret: int,
                    params: vec![],
                    variadic: true,
                });
                let f = self.declare_func(name, ty);
                self.scopes[0].syms.insert(name.to_string(), Sym::Func(f));
                self.warnings.push(format!(
                    "{}: implicit declaration of function '{name}'",
                    self.where_(span)
                ));
            }
        }
        let callee = self.rvalue(&c.callee)?;
        let fty = match self.types.pointee(callee.ty) {
            Some(t) => t,
            None => return Err(self.invalid(span, "called object is not a function")),
        };
        let Type::Func {
            ret,
            params,
            variadic,
        } = self.types.get(fty).clone()
        else {
            return Err(self.invalid(span, "called object is not a function"));
        };
        if c.arguments.len() < params.len() || (!variadic && c.arguments.len() > params.len()) {
            return Err(self.invalid(
                span,
                format!(
                    "function expects {} arguments, got {}",
                    params.len(),
                    c.arguments.len()
                ),
            ));
        }
        let mut args = Vec::with_capacity(c.arguments.len());
        let n = c.arguments.len();
        for (i, a) in c.arguments.iter().enumerate() {
            let v = self.rvalue(a)?;
            let v = match params.get(i) {
                Some(&pt) => self.assign_convert(v, pt, a.span)?,
                None => self.promote(v),
            };
            // Later arguments' side effects must not change earlier argument values.
            let later_effects = c.arguments[i + 1..n]
                .iter()
                .any(|x| super::expr::has_side_effects(&x.node));
            args.push(if later_effects { self.freeze(v) } else { v });
        }
        let callee = match strip_casts(&callee).kind {
            ExprKind::FuncAddr(f) => Callee::Direct(f),
            _ => Callee::Indirect(callee),
        };
        let atomic = match &callee {
            Callee::Direct(f) => {
                self.funcs[*f].atomic && !self.cur_func().is_some_and(|g| self.funcs[g].atomic)
            }
            Callee::Indirect(_) => false,
        };
        // A result nobody reads needs no place.
        let dst = if self.types.is_void(ret) || !want {
            None
        } else {
            Some(self.temp(ret))
        };
        if atomic {
            self.emit(InstrKind::AtomicBegin);
        }
        self.emit(InstrKind::Call {
            dst: dst.clone(),
            callee,
            args,
        });
        if atomic {
            self.emit(InstrKind::AtomicEnd);
        }
        Ok(dst.map(Expr::read))
    }

    fn set_loc_keep_line(&mut self, span: Span) {
        if self.loc.line == 0 {
            self.set_loc(span);
        }
    }
}

/// Why a call of a printf-family function may write through an argument, or `None` when it
/// only reads: a `%n` conversion writes the count of characters printed through its argument,
/// and a format that is not a string literal may hold one whenever arguments follow it.
fn printf_may_write(name: &str, args: &[Node<Expression>]) -> Option<&'static str> {
    // The format follows the stream in fprintf, dprintf and vfprintf.
    let at = usize::from(matches!(name, "fprintf" | "dprintf" | "vfprintf"));
    let format = args.get(at)?;
    match &format.node {
        Expression::StringLiteral(l) => l
            .node
            .iter()
            .any(|p| format_writes(p))
            .then_some("a %n conversion"),
        _ if args.len() > at + 1 => Some("a format that is not a string literal"),
        _ => None,
    }
}

/// Whether a printf format (a literal's source text) has a `%n` conversion, which writes the
/// count of characters printed through its argument.
fn format_writes(lit: &str) -> bool {
    let b = lit.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            i += 1;
            if b.get(i) == Some(&b'%') {
                i += 1;
                continue;
            }
            while i < b.len() && b"-+ #0123456789.*hlLqjzt'".contains(&b[i]) {
                i += 1;
            }
            if b.get(i) == Some(&b'n') {
                return true;
            }
        } else {
            i += 1;
        }
    }
    false
}
