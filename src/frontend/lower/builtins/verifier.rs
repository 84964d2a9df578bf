//! SV-COMP builtins: `reach_error`, `assert` (and the `__assert_fail` it expands to), a
//! `__VERIFIER_assert` the program declares without a body,
//! `__VERIFIER_assume`, `__VERIFIER_atomic_begin/end` and `__VERIFIER_nondet_*`.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::super::{Lowerer, Sym, R};
use super::{Builtin, Call};
use crate::ir::*;

/// The result type of `__VERIFIER_nondet_<suffix>` when the program does not declare it.
fn nondet_type(suffix: &str) -> Option<(u8, bool, bool)> {
    // (bits or 0 for pointer-sized, signed, is_pointer)
    Some(match suffix {
        "bool" => (1, false, false),
        "char" => (8, true, false),
        "uchar" | "u8" => (8, false, false),
        "short" => (16, true, false),
        "ushort" | "u16" => (16, false, false),
        "int" => (32, true, false),
        "uint" | "unsigned" | "u32" => (32, false, false),
        "long" => (0, true, false),
        "ulong" | "size_t" => (0, false, false),
        "longlong" => (64, true, false),
        "ulonglong" | "u64" => (64, false, false),
        "pointer" => (0, false, true),
        _ => return None,
    })
}

impl Lowerer<'_> {
    pub(in crate::frontend::lower) fn new_prop(&mut self, kind: PropKind) -> PropId {
        let func = self.cur_func().unwrap_or(self.init_id);
        self.props.push(Property {
            kind,
            loc: self.loc,
            func,
        })
    }

    /// `((e) ? (void) 0 : __assert_fail (...))`, what `assert(e)` expands to.
    pub(crate) fn assert_pattern(&mut self, c: &ConditionalExpression, span: Span) -> R<bool> {
        let Expression::Call(call) = &c.else_expression.node else {
            return Ok(false);
        };
        let Expression::Identifier(id) = &call.node.callee.node else {
            return Ok(false);
        };
        if id.node.name != "__assert_fail" {
            return Ok(false);
        }
        if super::super::expr::has_side_effects(&c.then_expression.node) {
            return Ok(false);
        }
        self.set_loc(span);
        self.assertion(&c.condition, span)?;
        Ok(true)
    }

    /// An assertion of `e`: a property that fails where `e` is zero, after which only the
    /// executions where it held go on (a failed assert aborts the program).
    pub(super) fn assertion(&mut self, e: &Node<Expression>, span: Span) -> R<()> {
        let cond = self.rvalue(e)?;
        if !self.types.is_scalar(cond.ty) {
            return Err(self.invalid(span, "assert of a non-scalar"));
        }
        let cond = self.truth(cond);
        let prop = self.new_prop(PropKind::Assert);
        self.emit(InstrKind::Assert {
            cond: cond.clone(),
            prop,
        });
        self.emit(InstrKind::Assume(cond));
        Ok(())
    }

    /// The SV-COMP builtins; `None` for any other name.
    pub(super) fn verifier_builtin(&mut self, call: &Call) -> Builtin {
        let (name, args, span, _) = call.parts();
        let r: Option<Expr> = match name {
            "reach_error" | "__VERIFIER_error" => {
                for a in args {
                    self.discard(a)?;
                }
                let prop = self.new_prop(PropKind::ReachError);
                let int = self.types.int32();
                self.emit(InstrKind::Assert {
                    cond: Expr::constant(0, int),
                    prop,
                });
                None
            }
            "__assert_fail" | "__assert_perror_fail" | "__assert" | "__builtin_trap" => {
                for a in args {
                    self.discard(a)?;
                }
                let prop = self.new_prop(PropKind::Assert);
                let int = self.types.int32();
                self.emit(InstrKind::Assert {
                    cond: Expr::constant(0, int),
                    prop,
                });
                self.emit(InstrKind::Halt);
                None
            }
            "__VERIFIER_assert" => {
                // Reached only when the program declares it without a body (SV-COMP tasks
                // define it, calling reach_error): a declaration alone must not drop the check.
                self.arg_count(name, args, 1, span)?;
                self.assertion(&args[0], span)?;
                None
            }
            "__VERIFIER_assume" => {
                self.arg_count(name, args, 1, span)?;
                let c = self.rvalue(&args[0])?;
                let c = self.truth(c);
                self.emit(InstrKind::Assume(c));
                None
            }
            "__yogar_sync" | "__yogar_lwsync" | "__yogar_isync" => {
                self.arg_count(name, args, 0, span)?;
                self.emit(InstrKind::Fence(match name {
                    "__yogar_sync" => FenceKind::Sync,
                    "__yogar_lwsync" => FenceKind::Lwsync,
                    _ => FenceKind::Isync,
                }));
                None
            }
            "__VERIFIER_atomic_begin" => {
                self.emit(InstrKind::AtomicBegin);
                None
            }
            "__VERIFIER_atomic_end" => {
                self.emit(InstrKind::AtomicEnd);
                None
            }
            _ if name.starts_with("__VERIFIER_nondet_") => {
                let ty = match self.lookup(name).cloned() {
                    Some(Sym::Func(f)) => self.funcs[f].ret,
                    _ => {
                        let Some((bits, signed, ptr)) =
                            nondet_type(&name["__VERIFIER_nondet_".len()..])
                        else {
                            return Err(self.unsupported(span, format!("undeclared {name}")));
                        };
                        if ptr {
                            self.types.void_ptr()
                        } else if bits == 1 {
                            self.types.bool_()
                        } else if bits == 0 {
                            self.types.long(signed)
                        } else {
                            self.types.int(bits, signed)
                        }
                    }
                };
                if self.types.is_void(ty) {
                    return Err(self.invalid(span, format!("{name} returns void")));
                }
                for a in args {
                    self.discard(a)?;
                }
                // Even an unused nondet call is a step; only a used value needs a place.
                let t = self.temp(ty);
                self.emit(InstrKind::Nondet { dst: t.clone() });
                Some(Expr::read(t))
            }
            _ => return Ok(None),
        };
        Ok(Some(r))
    }
}
