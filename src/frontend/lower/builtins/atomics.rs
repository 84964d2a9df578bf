//! GCC's atomic builtins (`__atomic_*`, `__sync_*`), which `<stdatomic.h>` expands to, under
//! sequential consistency.
//!
//! Every memory order is accepted and means SC (the verified semantics; `--mm power` runs
//! only on the POWER explorer, which has no atomic sections and answers UNKNOWN for them).
//! A read-modify-write (exchange, compare-exchange, fetch-and-op, test-and-set) is one
//! atomic section, entered after the operands are read: C evaluates the arguments before the
//! call, so their reads are steps of their own. A plain atomic load or store is one access,
//! as every access is under SC. A weak compare-exchange may fail spuriously (C11 7.17.7.4):
//! its success is the comparison and a nondet choice, so no execution of the real program is
//! lost. Fetch-and-op on a pointer (GCC does not scale it by the pointee size) is
//! unsupported.

use lang_c::span::Span;

use super::super::{Lowerer, R};
use super::{Args, Builtin, Call};
use crate::ir::*;

/// The read-modify-write operations of `__atomic_fetch_OP`/`__atomic_OP_fetch` and
/// `__sync_fetch_and_OP`/`__sync_OP_and_fetch`.
#[derive(Clone, Copy)]
enum RmwOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Nand,
}

fn rmw_op(s: &str) -> Option<RmwOp> {
    Some(match s {
        "add" => RmwOp::Add,
        "sub" => RmwOp::Sub,
        "and" => RmwOp::And,
        "or" => RmwOp::Or,
        "xor" => RmwOp::Xor,
        "nand" => RmwOp::Nand,
        _ => return None,
    })
}

/// `(op, result is the new value)` of a fetch-and-op builtin's name.
fn fetch_op(name: &str) -> Option<(RmwOp, bool)> {
    if let Some(op) = name.strip_prefix("__atomic_fetch_") {
        return Some((rmw_op(op)?, false));
    }
    if let Some(op) = name.strip_prefix("__sync_fetch_and_") {
        return Some((rmw_op(op)?, false));
    }
    if let Some(op) = name
        .strip_prefix("__atomic_")
        .and_then(|r| r.strip_suffix("_fetch"))
    {
        return Some((rmw_op(op)?, true));
    }
    if let Some(op) = name
        .strip_prefix("__sync_")
        .and_then(|r| r.strip_suffix("_and_fetch"))
    {
        return Some((rmw_op(op)?, true));
    }
    None
}

impl Lowerer<'_> {
    /// The atomic builtins; `None` for any other name.
    pub(super) fn atomic_builtin(&mut self, call: &Call) -> Builtin {
        let (name, args, span, _) = call.parts();
        if !(name.starts_with("__atomic_") || name.starts_with("__sync_")) {
            return Ok(None);
        }
        let r: Option<Expr> = match name {
            "__atomic_load_n" => {
                self.arg_count(name, args, 2, span)?;
                let obj = self.atomic_object(args, span)?;
                self.discard(&args[1])?;
                let t = self.temp(obj.ty);
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src: Expr::read(obj),
                });
                Some(Expr::read(t))
            }
            "__atomic_load" => {
                self.arg_count(name, args, 3, span)?;
                let obj = self.atomic_object(args, span)?;
                let ret = self.ptr_arg(&args[1])?;
                let ret = self.freeze(ret);
                self.discard(&args[2])?;
                let t = self.temp(obj.ty);
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src: Expr::read(obj.clone()),
                });
                let dst = self.deref_typed(ret, obj.ty);
                self.emit(InstrKind::Assign {
                    dst,
                    src: Expr::read(t),
                });
                None
            }
            "__atomic_store_n" | "__atomic_store" => {
                self.arg_count(name, args, 3, span)?;
                let obj = self.atomic_object(args, span)?;
                let v = self.atomic_value(name == "__atomic_store", &args[1], obj.ty, span)?;
                self.discard(&args[2])?;
                self.emit(InstrKind::Assign { dst: obj, src: v });
                None
            }
            "__atomic_exchange_n" | "__sync_lock_test_and_set" => {
                let n = if name == "__atomic_exchange_n" { 3 } else { 2 };
                self.arg_count(name, args, n, span)?;
                let obj = self.atomic_object(args, span)?;
                let v = self.atomic_value(false, &args[1], obj.ty, span)?;
                if n == 3 {
                    self.discard(&args[2])?;
                }
                Some(self.exchange(obj, v))
            }
            "__atomic_exchange" => {
                self.arg_count(name, args, 4, span)?;
                let obj = self.atomic_object(args, span)?;
                let v = self.atomic_value(true, &args[1], obj.ty, span)?;
                let ret = self.ptr_arg(&args[2])?;
                let ret = self.freeze(ret);
                self.discard(&args[3])?;
                let old = self.exchange(obj.clone(), v);
                let dst = self.deref_typed(ret, obj.ty);
                self.emit(InstrKind::Assign { dst, src: old });
                None
            }
            "__atomic_compare_exchange_n" | "__atomic_compare_exchange" => {
                self.arg_count(name, args, 6, span)?;
                let obj = self.atomic_object(args, span)?;
                let expected = self.ptr_arg(&args[1])?;
                let expected = self.freeze(expected);
                let by_ptr = name == "__atomic_compare_exchange";
                let desired = self.atomic_value(by_ptr, &args[2], obj.ty, span)?;
                let weak = self.rvalue(&args[3])?;
                let weak = self.truth(weak);
                let weak = self.freeze(weak);
                self.discard(&args[4])?;
                self.discard(&args[5])?;
                Some(self.compare_exchange(obj, expected, desired, Some(weak)))
            }
            "__sync_bool_compare_and_swap" | "__sync_val_compare_and_swap" => {
                self.arg_count(name, args, 3, span)?;
                let obj = self.atomic_object(args, span)?;
                let old = self.atomic_value(false, &args[1], obj.ty, span)?;
                let new = self.atomic_value(false, &args[2], obj.ty, span)?;
                Some(self.sync_cas(obj, old, new, name == "__sync_bool_compare_and_swap"))
            }
            "__atomic_test_and_set" => {
                self.arg_count(name, args, 2, span)?;
                let p = self.ptr_arg(&args[0])?;
                let p = self.freeze(p);
                self.discard(&args[1])?;
                let ty = self.flag_type(&p);
                let obj = self.deref_typed(p, ty);
                let one = Expr::constant(1, ty);
                let old = self.exchange(obj, one);
                let b = self.types.bool_();
                Some(self.cast(old, b))
            }
            "__atomic_clear" | "__sync_lock_release" => {
                let n = if name == "__atomic_clear" { 2 } else { 1 };
                self.arg_count(name, args, n, span)?;
                let obj = if n == 2 {
                    let p = self.ptr_arg(&args[0])?;
                    let p = self.freeze(p);
                    self.discard(&args[1])?;
                    let ty = self.flag_type(&p);
                    self.deref_typed(p, ty)
                } else {
                    self.atomic_object(args, span)?
                };
                let zero = Expr::constant(0, obj.ty);
                self.emit(InstrKind::Assign {
                    dst: obj,
                    src: zero,
                });
                None
            }
            "__atomic_thread_fence" | "__atomic_signal_fence" => {
                self.arg_count(name, args, 1, span)?;
                self.discard(&args[0])?;
                self.emit(InstrKind::Fence(FenceKind::Cprover));
                None
            }
            "__sync_synchronize" => {
                // A full barrier: gcc emits `sync` (hwsync) for it on POWER.
                self.arg_count(name, args, 0, span)?;
                self.emit(InstrKind::Fence(FenceKind::Sync));
                None
            }
            _ => {
                let Some((op, new_value)) = fetch_op(name) else {
                    return Ok(None);
                };
                let n = if name.starts_with("__atomic_") { 3 } else { 2 };
                self.arg_count(name, args, n, span)?;
                let obj = self.atomic_object(args, span)?;
                if !self.types.is_integer(obj.ty) {
                    return Err(self.unsupported(span, format!("{name} on a non-integer object")));
                }
                let v = self.atomic_value(false, &args[1], obj.ty, span)?;
                if n == 3 {
                    self.discard(&args[2])?;
                }
                Some(self.fetch_and_op(obj, op, v, new_value))
            }
        };
        Ok(Some(r))
    }

    /// The object the first argument points to, the pointer read first.
    fn atomic_object(&mut self, args: &Args, span: Span) -> R<Place> {
        let Some(a) = args.first() else {
            return Err(self.invalid(span, "atomic builtin without an object"));
        };
        let p = self.ptr_arg(a)?;
        let Some(ty) = self.types.pointee(p.ty) else {
            return Err(self.invalid(span, "atomic builtin on a non-pointer"));
        };
        if !self.types.is_scalar(ty) {
            return Err(self.unsupported(span, "atomic builtin on a non-scalar object"));
        }
        let p = self.freeze(p);
        Ok(self.deref_typed(p, ty))
    }

    /// The value operand, converted to the object's type and held in a temporary; `by_ptr`:
    /// the argument points to the value (the generic `__atomic_store`, `__atomic_exchange`).
    fn atomic_value(
        &mut self,
        by_ptr: bool,
        a: &lang_c::span::Node<lang_c::ast::Expression>,
        ty: TypeId,
        span: Span,
    ) -> R<Expr> {
        let v = if by_ptr {
            let p = self.ptr_arg(a)?;
            let p = self.freeze(p);
            Expr::read(self.deref_typed(p, ty))
        } else {
            let v = self.rvalue(a)?;
            self.convert_arg(v, ty, span)?
        };
        Ok(self.freeze(v))
    }

    /// `*p` as an object of type `ty`.
    fn deref_typed(&mut self, p: Expr, ty: TypeId) -> Place {
        let pt = self.types.pointer(ty);
        let p = if p.ty == pt { p } else { self.cast(p, pt) };
        Place {
            base: PlaceBase::Deref(Box::new(p)),
            projs: vec![],
            ty,
        }
    }

    /// Atomically `old = *obj; *obj = v`; gives `old`.
    fn exchange(&mut self, obj: Place, v: Expr) -> Expr {
        let old = self.temp(obj.ty);
        self.emit(InstrKind::AtomicBegin);
        self.emit(InstrKind::Assign {
            dst: old.clone(),
            src: Expr::read(obj.clone()),
        });
        self.emit(InstrKind::Assign { dst: obj, src: v });
        self.emit(InstrKind::AtomicEnd);
        Expr::read(old)
    }

    /// C11's compare-exchange: atomically, if `*obj == *expected` (and, when `weak` is
    /// non-zero, a nondet choice does not fail it spuriously) store `desired` and give 1;
    /// else give 0, and (after the atomic step) store the value read into `*expected`.
    fn compare_exchange(
        &mut self,
        obj: Place,
        expected: Expr,
        desired: Expr,
        weak: Option<Expr>,
    ) -> Expr {
        let ty = obj.ty;
        let int = self.types.int32();
        let b = self.types.bool_();
        let exp_place = self.deref_typed(expected, ty);
        let want = self.temp(ty);
        self.emit(InstrKind::Assign {
            dst: want.clone(),
            src: Expr::read(exp_place.clone()),
        });
        let spurious = weak.filter(|w| w.as_const() != Some(0)).map(|w| {
            // A weak compare-exchange may fail though the values are equal.
            let s = self.temp(b);
            self.emit(InstrKind::Nondet { dst: s.clone() });
            self.binary(BinOp::LogAnd, w, Expr::read(s), int)
        });
        let old = self.temp(ty);
        let ok = self.temp(b);
        self.emit(InstrKind::AtomicBegin);
        self.emit(InstrKind::Assign {
            dst: old.clone(),
            src: Expr::read(obj.clone()),
        });
        let mut eq = self.binary(BinOp::Eq, Expr::read(old.clone()), Expr::read(want), int);
        if let Some(s) = spurious {
            let not_s = self.unary(UnOp::LogNot, s, int);
            eq = self.binary(BinOp::LogAnd, eq, not_s, int);
        }
        let eq = self.cast(eq, b);
        self.emit(InstrKind::Assign {
            dst: ok.clone(),
            src: eq,
        });
        let failed = self.not(Expr::read(ok.clone()));
        let skip = self.emit_jump(Some(failed));
        self.emit(InstrKind::Assign {
            dst: obj,
            src: desired,
        });
        self.patch_here(skip);
        self.emit(InstrKind::AtomicEnd);
        let done = self.emit_jump(Some(Expr::read(ok.clone())));
        self.emit(InstrKind::Assign {
            dst: exp_place,
            src: Expr::read(old),
        });
        self.patch_here(done);
        self.emit(InstrKind::Skip);
        Expr::read(ok)
    }

    /// `__sync_{bool,val}_compare_and_swap(obj, old, new)`: atomically store `new` if
    /// `*obj == old`; gives whether it did, or the value read.
    fn sync_cas(&mut self, obj: Place, expect: Expr, new: Expr, give_bool: bool) -> Expr {
        let ty = obj.ty;
        let int = self.types.int32();
        let read = self.temp(ty);
        self.emit(InstrKind::AtomicBegin);
        self.emit(InstrKind::Assign {
            dst: read.clone(),
            src: Expr::read(obj.clone()),
        });
        let ne = self.binary(BinOp::Ne, Expr::read(read.clone()), expect.clone(), int);
        let skip = self.emit_jump(Some(ne));
        self.emit(InstrKind::Assign { dst: obj, src: new });
        self.patch_here(skip);
        self.emit(InstrKind::AtomicEnd);
        if give_bool {
            let b = self.types.bool_();
            let eq = self.binary(BinOp::Eq, Expr::read(read), expect, int);
            self.cast(eq, b)
        } else {
            Expr::read(read)
        }
    }

    /// Atomically `old = *obj; *obj = old OP v`; gives `old` or the new value.
    fn fetch_and_op(&mut self, obj: Place, op: RmwOp, v: Expr, new_value: bool) -> Expr {
        let ty = obj.ty;
        let old = self.temp(ty);
        let new = self.temp(ty);
        self.emit(InstrKind::AtomicBegin);
        self.emit(InstrKind::Assign {
            dst: old.clone(),
            src: Expr::read(obj.clone()),
        });
        let o = Expr::read(old.clone());
        let value = match op {
            RmwOp::Add => self.binary(BinOp::Add, o, v, ty),
            RmwOp::Sub => self.binary(BinOp::Sub, o, v, ty),
            RmwOp::And => self.binary(BinOp::BitAnd, o, v, ty),
            RmwOp::Or => self.binary(BinOp::BitOr, o, v, ty),
            RmwOp::Xor => self.binary(BinOp::BitXor, o, v, ty),
            RmwOp::Nand => {
                let a = self.binary(BinOp::BitAnd, o, v, ty);
                self.unary(UnOp::BitNot, a, ty)
            }
        };
        self.emit(InstrKind::Assign {
            dst: new.clone(),
            src: value,
        });
        self.emit(InstrKind::Assign {
            dst: obj,
            src: Expr::read(new.clone()),
        });
        self.emit(InstrKind::AtomicEnd);
        Expr::read(if new_value { new } else { old })
    }

    /// The type a test-and-set flag is accessed at: the pointee when it is a byte (`_Bool`,
    /// `char`), else a byte (GCC's flag is one byte).
    fn flag_type(&mut self, p: &Expr) -> TypeId {
        match self.types.pointee(p.ty) {
            Some(t) if self.types.is_scalar(t) && self.types.size_of(t) == Some(1) => t,
            _ => self.types.int(8, false),
        }
    }

    /// `!e` as an `int`.
    fn not(&mut self, e: Expr) -> Expr {
        let int = self.types.int32();
        self.unary(UnOp::LogNot, e, int)
    }
}
