//! Operators: unary, binary, compound assignment, `++`/`--` and the conditional operator,
//! with C's usual arithmetic conversions and operand checks.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::expr::{has_side_effects, needs_branch};
use super::{Lowerer, Sym, R};
use crate::ir::*;

fn compound_op(op: &BinaryOperator) -> Option<BinaryOperator> {
    use BinaryOperator::*;
    Some(match op {
        AssignMultiply => Multiply,
        AssignDivide => Divide,
        AssignModulo => Modulo,
        AssignPlus => Plus,
        AssignMinus => Minus,
        AssignShiftLeft => ShiftLeft,
        AssignShiftRight => ShiftRight,
        AssignBitwiseAnd => BitwiseAnd,
        AssignBitwiseXor => BitwiseXor,
        AssignBitwiseOr => BitwiseOr,
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    pub(super) fn unary_expr(
        &mut self,
        u: &UnaryOperatorExpression,
        span: Span,
        want: bool,
    ) -> R<Expr> {
        use UnaryOperator::*;
        match u.operator.node {
            Address => {
                let inner = &u.operand.node;
                if let Expression::Identifier(id) = inner {
                    if let Some(Sym::Func(f)) = self.lookup(&id.node.name).cloned() {
                        let pt = self.types.pointer(self.funcs[f].ty);
                        return Ok(Expr {
                            kind: ExprKind::FuncAddr(f),
                            ty: pt,
                        });
                    }
                }
                if let Expression::UnaryOperator(i) = inner {
                    if i.node.operator.node == Indirection {
                        let p = self.rvalue(&i.node.operand)?;
                        if self.types.is_pointer(p.ty) {
                            return Ok(p);
                        }
                    }
                }
                let p = self.lvalue(&u.operand)?;
                // `&a` of a variable-length array is the array's address, not the address
                // of the pointer that stands for it.
                if let PlaceBase::Var(v) = p.base {
                    if p.projs.is_empty() && self.vla_vars.contains(&v) {
                        return Err(self.unsupported(span, "address of a variable-length array"));
                    }
                }
                Ok(self.address_of(p))
            }
            Indirection => {
                let p = self.rvalue(&u.operand)?;
                match self.types.pointee(p.ty).map(|t| self.types.get(t).clone()) {
                    Some(Type::Func { .. }) => Ok(p),
                    Some(Type::Void) => Err(self.invalid(span, "dereference of a void pointer")),
                    Some(_) => {
                        let t = self.types.pointee(p.ty).unwrap_or(p.ty);
                        let pl = Place {
                            base: PlaceBase::Deref(Box::new(p)),
                            projs: vec![],
                            ty: t,
                        };
                        Ok(self.place_value(pl))
                    }
                    None => Err(self.invalid(span, "dereference of a non-pointer")),
                }
            }
            Plus => {
                let x = self.rvalue(&u.operand)?;
                self.need_arithmetic(&x, span)?;
                Ok(self.promote(x))
            }
            Minus => {
                let x = self.rvalue(&u.operand)?;
                self.need_arithmetic(&x, span)?;
                let x = self.promote(x);
                let t = x.ty;
                Ok(self.unary(UnOp::Neg, x, t))
            }
            Complement => {
                let x = self.rvalue(&u.operand)?;
                self.need_integer(&x, span)?;
                let x = self.promote(x);
                let t = x.ty;
                Ok(self.unary(UnOp::BitNot, x, t))
            }
            Negate => {
                let x = self.rvalue(&u.operand)?;
                self.need_scalar(&x, span)?;
                let int = self.types.int32();
                Ok(self.unary(UnOp::LogNot, x, int))
            }
            PreIncrement | PreDecrement | PostIncrement | PostDecrement => {
                let inc = matches!(u.operator.node, PreIncrement | PostIncrement);
                let post = matches!(u.operator.node, PostIncrement | PostDecrement);
                let p = self.lvalue(&u.operand)?;
                let atomic = self.rmw_is_atomic(&u.operand, p.ty)?;
                let one = Expr::constant(1, self.types.int32());
                self.update(p, span, want, post, atomic, |lw, old| {
                    lw.arith(
                        if inc {
                            BinaryOperator::Plus
                        } else {
                            BinaryOperator::Minus
                        },
                        old,
                        one,
                        span,
                    )
                })
            }
        }
    }

    /// Read-modify-write of a place: `new = f(old)`; gives the old (`post`) or new value. An
    /// `atomic` one is an atomic section after the place's own reads (`atomic_objects`).
    fn update(
        &mut self,
        p: Place,
        span: Span,
        want: bool,
        post: bool,
        atomic: bool,
        f: impl FnOnce(&mut Self, Expr) -> R<Expr>,
    ) -> R<Expr> {
        if !self.types.is_scalar(p.ty) {
            return Err(self.invalid(span, "increment or compound assignment of a non-scalar"));
        }
        let p = self.stabilize(p);
        if atomic {
            self.emit(InstrKind::AtomicBegin);
            let r = self.update_in_place(p, want, post, f);
            self.emit(InstrKind::AtomicEnd);
            return r;
        }
        self.update_in_place(p, want, post, f)
    }

    fn update_in_place(
        &mut self,
        p: Place,
        want: bool,
        post: bool,
        f: impl FnOnce(&mut Self, Expr) -> R<Expr>,
    ) -> R<Expr> {
        let ty = p.ty;
        if !want {
            let old = Expr::read(p.clone());
            let new = f(self, old)?;
            let new = self.cast(new, ty);
            self.emit(InstrKind::Assign { dst: p, src: new });
            return Ok(self.void_value());
        }
        if post {
            let t = self.temp(ty);
            self.emit(InstrKind::Assign {
                dst: t.clone(),
                src: Expr::read(p.clone()),
            });
            let new = f(self, Expr::read(t.clone()))?;
            let new = self.cast(new, ty);
            self.emit(InstrKind::Assign { dst: p, src: new });
            Ok(Expr::read(t))
        } else {
            let new = f(self, Expr::read(p.clone()))?;
            let new = self.cast(new, ty);
            let t = self.temp(ty);
            self.emit(InstrKind::Assign {
                dst: t.clone(),
                src: new,
            });
            self.emit(InstrKind::Assign {
                dst: p,
                src: Expr::read(t.clone()),
            });
            Ok(Expr::read(t))
        }
    }

    fn need_integer(&self, x: &Expr, span: Span) -> R<()> {
        if self.types.is_integer(x.ty) {
            Ok(())
        } else {
            Err(self.invalid(
                span,
                format!(
                    "integer operand expected, found {}",
                    self.types.display(x.ty)
                ),
            ))
        }
    }

    /// An integer or floating operand (of unary `+` and `-`).
    fn need_arithmetic(&self, x: &Expr, span: Span) -> R<()> {
        if self.types.is_float(x.ty) {
            Ok(())
        } else {
            self.need_integer(x, span)
        }
    }

    fn need_scalar(&self, x: &Expr, span: Span) -> R<()> {
        if self.types.is_scalar(x.ty) {
            Ok(())
        } else {
            Err(self.invalid(
                span,
                format!(
                    "scalar operand expected, found {}",
                    self.types.display(x.ty)
                ),
            ))
        }
    }

    /// A binary arithmetic, bitwise, shift or comparison operator on two values.
    pub(crate) fn arith(&mut self, op: BinaryOperator, a: Expr, b: Expr, span: Span) -> R<Expr> {
        use BinaryOperator as B;
        self.need_scalar(&a, span)?;
        self.need_scalar(&b, span)?;
        let pa = self.types.is_pointer(a.ty);
        let pb = self.types.is_pointer(b.ty);
        let int = self.types.int32();
        match op {
            B::Plus if pa && !pb => return self.ptr_add(a, b, false, span),
            B::Plus if pb && !pa => return self.ptr_add(b, a, false, span),
            B::Minus if pa && !pb => return self.ptr_add(a, b, true, span),
            B::Minus if pa && pb => {
                let elem = self.types.pointee(a.ty).unwrap_or(a.ty);
                let size = self.types.size_of(elem).unwrap_or(1).max(1);
                let pd = self.types.ptrdiff_t();
                let b = self.cast(b, a.ty);
                let diff = Expr {
                    kind: ExprKind::PtrDiff(Box::new(a), Box::new(b)),
                    ty: pd,
                };
                if size == 1 {
                    return Ok(diff);
                }
                let s = Expr::constant(size, pd);
                return Ok(self.binary(BinOp::SDiv, diff, s, pd));
            }
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals
                if pa || pb =>
            {
                let (a, b) = if pa {
                    (a.clone(), self.cast(b, a.ty))
                } else {
                    (self.cast(a, b.ty), b)
                };
                let o = match op {
                    B::Less => BinOp::ULt,
                    B::Greater => BinOp::UGt,
                    B::LessOrEqual => BinOp::ULe,
                    B::GreaterOrEqual => BinOp::UGe,
                    B::Equals => BinOp::Eq,
                    _ => BinOp::Ne,
                };
                return Ok(self.binary(o, a, b, int));
            }
            _ => {}
        }
        if pa || pb {
            return Err(self.invalid(span, "invalid operands to a binary operator"));
        }
        if matches!(op, B::ShiftLeft | B::ShiftRight) {
            let a = self.promote(a);
            let b = self.promote(b);
            let t = a.ty;
            let b = self.cast(b, t);
            let o = match op {
                B::ShiftLeft => BinOp::Shl,
                _ if self.types.is_signed(t) => BinOp::AShr,
                _ => BinOp::LShr,
            };
            return Ok(self.binary(o, a, b, t));
        }
        let (a, b, t) = self.arith_pair(a, b);
        let s = self.types.is_signed(t);
        let (o, rt) = match op {
            B::Multiply => (BinOp::Mul, t),
            B::Divide => (if s { BinOp::SDiv } else { BinOp::UDiv }, t),
            B::Modulo => (if s { BinOp::SRem } else { BinOp::URem }, t),
            B::Plus => (BinOp::Add, t),
            B::Minus => (BinOp::Sub, t),
            B::BitwiseAnd => (BinOp::BitAnd, t),
            B::BitwiseOr => (BinOp::BitOr, t),
            B::BitwiseXor => (BinOp::BitXor, t),
            B::Less => (if s { BinOp::SLt } else { BinOp::ULt }, int),
            B::Greater => (if s { BinOp::SGt } else { BinOp::UGt }, int),
            B::LessOrEqual => (if s { BinOp::SLe } else { BinOp::ULe }, int),
            B::GreaterOrEqual => (if s { BinOp::SGe } else { BinOp::UGe }, int),
            B::Equals => (BinOp::Eq, int),
            B::NotEquals => (BinOp::Ne, int),
            _ => return Err(self.invalid(span, "unexpected operator")),
        };
        Ok(self.binary(o, a, b, rt))
    }

    pub(super) fn binary_expr(
        &mut self,
        b: &BinaryOperatorExpression,
        span: Span,
        want: bool,
    ) -> R<Expr> {
        use BinaryOperator as B;
        match &b.operator.node {
            B::Index => {
                let p = self.lvalue(&Node::new(
                    Expression::BinaryOperator(Box::new(Node::new(b.clone(), span))),
                    span,
                ))?;
                Ok(self.place_value(p))
            }
            B::LogicalAnd | B::LogicalOr => {
                let and = b.operator.node == B::LogicalAnd;
                let int = self.types.int32();
                let l = self.rvalue(&b.lhs)?;
                self.need_scalar(&l, span)?;
                if !needs_branch(&b.rhs.node) {
                    let r = self.rvalue(&b.rhs)?;
                    self.need_scalar(&r, span)?;
                    let l = self.truth(l);
                    let r = self.truth(r);
                    let op = if and { BinOp::LogAnd } else { BinOp::LogOr };
                    return Ok(self.binary(op, l, r, int));
                }
                // rhs has side effects or may trap: evaluate it only when needed.
                let t = self.temp(int);
                let short = Expr::constant(if and { 0 } else { 1 }, int);
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src: short,
                });
                let lt = self.truth(l);
                let skip_cond = if and {
                    self.unary(UnOp::LogNot, lt, int)
                } else {
                    lt
                };
                let j = self.emit_jump(Some(skip_cond));
                let r = self.rvalue(&b.rhs)?;
                self.need_scalar(&r, span)?;
                let rt = self.truth(r);
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src: rt,
                });
                self.patch_here(j);
                self.emit(InstrKind::Skip);
                Ok(Expr::read(t))
            }
            B::Assign => {
                let p = self.lvalue(&b.lhs)?;
                let v = self.rvalue(&b.rhs)?;
                let v = self.assign_convert(v, p.ty, span)?;
                if !want {
                    self.emit(InstrKind::Assign { dst: p, src: v });
                    return Ok(self.void_value());
                }
                let v = self.freeze(v);
                self.emit(InstrKind::Assign {
                    dst: p,
                    src: v.clone(),
                });
                Ok(v)
            }
            op => {
                if let Some(base) = compound_op(op) {
                    let p = self.lvalue(&b.lhs)?;
                    let atomic = self.rmw_is_atomic(&b.lhs, p.ty)?;
                    let r = self.rvalue(&b.rhs)?;
                    // An atomic update reads its right operand before, not inside, its step.
                    let r = if atomic || has_side_effects(&b.rhs.node) {
                        self.freeze(r)
                    } else {
                        r
                    };
                    return self.update(p, span, want, false, atomic, |lw, old| {
                        lw.arith(base, old, r, span)
                    });
                }
                let l = self.rvalue(&b.lhs)?;
                // The right operand's side effects must not run before the left operand's
                // reads: hold the left value when the right side has side effects.
                let l = if has_side_effects(&b.rhs.node) {
                    self.freeze(l)
                } else {
                    l
                };
                let r = self.rvalue(&b.rhs)?;
                self.arith(op.clone(), l, r, span)
            }
        }
    }

    /// Conversion as by assignment to an object of type `to`.
    pub(crate) fn assign_convert(&mut self, v: Expr, to: TypeId, span: Span) -> R<Expr> {
        if v.ty == to {
            return Ok(v);
        }
        let ok = (self.types.is_scalar(to) && self.types.is_scalar(v.ty))
            || matches!(self.types.get(to), Type::Struct(_)) && v.ty == to;
        if !ok {
            return Err(self.invalid(
                span,
                format!(
                    "cannot convert {} to {}",
                    self.types.display(v.ty),
                    self.types.display(to)
                ),
            ));
        }
        Ok(self.cast(v, to))
    }

    /// The result type of `?:` for two operand values.
    fn conditional_type(&mut self, a: &Expr, b: &Expr, span: Span) -> R<TypeId> {
        let (ta, tb) = (a.ty, b.ty);
        if ta == tb {
            return Ok(match self.types.get(ta) {
                Type::Bool | Type::Int { .. } => self.promote(a.clone()).ty,
                _ => ta,
            });
        }
        if self.types.is_integer(ta) && self.types.is_integer(tb) {
            let pa = self.promote(a.clone()).ty;
            let pb = self.promote(b.clone()).ty;
            return Ok(self.common_type(pa, pb));
        }
        if self.types.is_void(ta) || self.types.is_void(tb) {
            return Ok(self.types.void());
        }
        match (self.types.is_pointer(ta), self.types.is_pointer(tb)) {
            (true, true) => {
                let v = self.types.void_ptr();
                if ta == v || tb == v {
                    Ok(v)
                } else {
                    Ok(ta)
                }
            }
            (true, false) if self.types.is_integer(tb) => Ok(ta),
            (false, true) if self.types.is_integer(ta) => Ok(tb),
            _ => Err(self.invalid(span, "incompatible operands of '?:'")),
        }
    }

    pub(super) fn conditional(
        &mut self,
        c: &ConditionalExpression,
        span: Span,
        want: bool,
    ) -> R<Expr> {
        let cond = self.rvalue(&c.condition)?;
        self.need_scalar(&cond, span)?;
        let pure = !needs_branch(&c.then_expression.node) && !needs_branch(&c.else_expression.node);
        if pure {
            let a = self.rvalue(&c.then_expression)?;
            let b = self.rvalue(&c.else_expression)?;
            let t = self.conditional_type(&a, &b, span)?;
            if self.types.is_void(t) {
                return Ok(self.void_value());
            }
            let a = self.cast(a, t);
            let b = self.cast(b, t);
            // The truth value, not the raw constant: `-0.0` has bits other than 0 and is false.
            let cond = self.truth(cond);
            if let Some(k) = cond.as_const() {
                return Ok(if k != 0 { a } else { b });
            }
            return Ok(Expr {
                kind: ExprKind::Ite(Box::new(cond), Box::new(a), Box::new(b)),
                ty: t,
            });
        }
        // Branches with side effects: real control flow; the result goes through a temp.
        // Each branch is lowered once; the assignment of its value is patched in when the
        // result type (which needs both branches) is known.
        let int = self.types.int32();
        let ct = self.truth(cond);
        let not_c = self.unary(UnOp::LogNot, ct, int);
        let to_else = self.emit_jump(Some(not_c));
        let a = self.rvalue_inner(&c.then_expression, want)?;
        let a_slot = self.emit(InstrKind::Skip);
        let to_end = self.emit_jump(None);
        self.patch_here(to_else);
        let b = self.rvalue_inner(&c.else_expression, want)?;
        let t = self.conditional_type(&a, &b, span)?;
        let result = if want && !self.types.is_void(t) {
            Some(self.temp(t))
        } else {
            None
        };
        if let Some(r) = &result {
            let b = self.cast(b, t);
            self.emit(InstrKind::Assign {
                dst: r.clone(),
                src: b,
            });
            let a = self.cast(a, t);
            self.set_instr(
                a_slot,
                InstrKind::Assign {
                    dst: r.clone(),
                    src: a,
                },
            );
        }
        self.patch_here(to_end);
        self.emit(InstrKind::Skip);
        Ok(match result {
            Some(r) => Expr::read(r),
            None => self.void_value(),
        })
    }
}
