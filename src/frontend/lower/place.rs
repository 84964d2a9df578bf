//! Lvalues: places named by identifiers, members, indexing and dereference; pointer
//! arithmetic, and the freezing of values that later side effects must not change.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::{Lowerer, Sym, R};
use crate::ir::*;

impl<'a> Lowerer<'a> {
    pub(crate) fn lvalue(&mut self, e: &Node<Expression>) -> R<Place> {
        let span = e.span;
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name).cloned() {
                Some(Sym::Var(v)) => Ok(Place::var(v, self.vars[v].ty)),
                _ => Err(self.invalid(span, format!("'{}' is not an object", id.node.name))),
            },
            Expression::StringLiteral(s) => self.string_literal(&s.node, span),
            Expression::Member(m) => {
                let m = &m.node;
                let (base, sty) = match m.operator.node {
                    MemberOperator::Direct => {
                        let p = self.lvalue(&m.expression)?;
                        let t = p.ty;
                        (p, t)
                    }
                    MemberOperator::Indirect => {
                        let ptr = self.rvalue(&m.expression)?;
                        let Some(t) = self.types.pointee(ptr.ty) else {
                            return Err(self.invalid(span, "'->' on a non-pointer"));
                        };
                        (
                            Place {
                                base: PlaceBase::Deref(Box::new(ptr)),
                                projs: vec![],
                                ty: t,
                            },
                            t,
                        )
                    }
                };
                let Type::Struct(sid) = self.types.get(sty).clone() else {
                    return Err(self.invalid(span, "member access on a non-struct"));
                };
                if !self.types.structs[sid].complete {
                    return Err(self.invalid(span, "member access on an incomplete struct"));
                }
                let name = &m.identifier.node.name;
                let Some((path, fty)) = self.types.find_member(sid, name) else {
                    return Err(self.invalid(span, format!("no member named '{name}'")));
                };
                let mut p = base;
                let mut cur = sid;
                for idx in path {
                    let f = &self.types.structs[cur].fields[idx];
                    if f.bitfield.is_some() {
                        return Err(self.unsupported(span, "bit-field access"));
                    }
                    p.projs.push(Proj::Field {
                        index: idx as u32,
                        offset: f.offset,
                    });
                    let fty2 = f.ty;
                    if let Type::Struct(inner) = self.types.get(fty2) {
                        cur = *inner;
                    }
                    p.ty = fty2;
                }
                p.ty = fty;
                Ok(p)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.index_place(&b.node.lhs, &b.node.rhs, span)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let ptr = self.rvalue(&u.node.operand)?;
                let Some(t) = self.types.pointee(ptr.ty) else {
                    return Err(self.invalid(span, "dereference of a non-pointer"));
                };
                if matches!(self.types.get(t), Type::Void | Type::Func { .. }) {
                    return Err(self.invalid(
                        span,
                        "dereference of a void or function pointer as an object",
                    ));
                }
                Ok(Place {
                    base: PlaceBase::Deref(Box::new(ptr)),
                    projs: vec![],
                    ty: t,
                })
            }
            Expression::CompoundLiteral(cl) => {
                let ty = self.type_name(&cl.node.type_name)?;
                // At file scope a compound literal has static storage duration.
                let v = if self.at_file_scope() {
                    self.new_var("$compound", ty, VarKind::Global)
                } else {
                    match self.temp(ty).base {
                        PlaceBase::Var(v) => v,
                        PlaceBase::Deref(_) => return Err(self.invalid(span, "compound literal")),
                    }
                };
                let global = self.vars[v].is_global();
                let init = Node::new(Initializer::List(cl.node.initializer_list.clone()), span);
                self.init_var(v, &init, global)?;
                let ty = self.vars[v].ty;
                Ok(Place::var(v, ty))
            }
            Expression::Call(_)
            | Expression::Statement(_)
            | Expression::Conditional(_)
            | Expression::Comma(_)
            | Expression::Cast(_) => {
                // An rvalue of struct type used as an object (e.g. `f().x`): hold it in a temp.
                let x = self.rvalue(e)?;
                if self.types.is_void(x.ty) {
                    return Err(self.invalid(span, "void value used as an object"));
                }
                let t = self.temp(x.ty);
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src: x,
                });
                Ok(t)
            }
            _ => Err(self.invalid(span, "expression is not assignable")),
        }
    }

    fn index_place(&mut self, a: &Node<Expression>, i: &Node<Expression>, span: Span) -> R<Place> {
        // Array lvalues keep a structured place (`a[i]` as an index projection).
        let a_ty = self.type_of_expr(a)?;
        let (arr, idx) = if self.types.is_integer(a_ty) {
            (i, a)
        } else {
            (a, i)
        };
        let arr_ty = if std::ptr::eq(arr, a) {
            a_ty
        } else {
            self.type_of_expr(arr)?
        };
        if let Type::Array { elem, .. } = self.types.get(arr_ty).clone() {
            if matches!(
                arr.node,
                Expression::Identifier(_)
                    | Expression::Member(_)
                    | Expression::BinaryOperator(_)
                    | Expression::UnaryOperator(_)
            ) {
                let mut p = self.lvalue(arr)?;
                let ix = self.rvalue(idx)?;
                if !self.types.is_integer(ix.ty) {
                    return Err(self.invalid(span, "array index is not an integer"));
                }
                let pd = self.types.ptrdiff_t();
                let ix = self.cast(ix, pd);
                let elem_size = self.types.size_of(elem).unwrap_or(0);
                p.projs.push(Proj::Index {
                    index: Box::new(ix),
                    elem_size,
                });
                p.ty = elem;
                return Ok(p);
            }
        }
        let p = self.rvalue(arr)?;
        let ix = self.rvalue(idx)?;
        let Some(elem) = self.types.pointee(p.ty) else {
            return Err(self.invalid(span, "subscript of a non-pointer"));
        };
        if matches!(self.types.get(elem), Type::Void | Type::Func { .. }) {
            return Err(self.invalid(span, "subscript of a void or function pointer"));
        }
        if !self.types.is_integer(ix.ty) {
            return Err(self.invalid(span, "array index is not an integer"));
        }
        let addr = self.ptr_add(p, ix, false, span)?;
        Ok(Place {
            base: PlaceBase::Deref(Box::new(addr)),
            projs: vec![],
            ty: elem,
        })
    }

    /// `p + i` (or `p - i`) in units of the pointee size.
    pub(crate) fn ptr_add(&mut self, p: Expr, i: Expr, negate: bool, span: Span) -> R<Expr> {
        let Some(elem) = self.types.pointee(p.ty) else {
            return Err(self.invalid(span, "pointer arithmetic on a non-pointer"));
        };
        let size = match self.types.get(elem) {
            Type::Void | Type::Func { .. } => 1,
            _ => self.types.size_of(elem).ok_or_else(|| {
                self.invalid(span, "arithmetic on a pointer to an incomplete type")
            })?,
        };
        let pd = self.types.ptrdiff_t();
        let i = self.cast(i, pd);
        let scaled = if size == 1 {
            i
        } else {
            let s = Expr::constant(size, pd);
            self.binary(BinOp::Mul, i, s, pd)
        };
        let off = if negate {
            self.unary(UnOp::Neg, scaled, pd)
        } else {
            scaled
        };
        if off.as_const() == Some(0) {
            return Ok(p);
        }
        let t = p.ty;
        Ok(Expr {
            kind: ExprKind::PtrAdd(Box::new(p), Box::new(off)),
            ty: t,
        })
    }

    /// Copies the sub-expressions of a place that read memory into temporaries, so that the
    /// place can be used twice (read then write) and still designate one object.
    pub(crate) fn stabilize(&mut self, p: Place) -> Place {
        let base = match p.base {
            PlaceBase::Deref(e) => PlaceBase::Deref(Box::new(self.freeze(*e))),
            b => b,
        };
        let projs = p
            .projs
            .into_iter()
            .map(|pr| match pr {
                Proj::Index { index, elem_size } => Proj::Index {
                    index: Box::new(self.freeze(*index)),
                    elem_size,
                },
                f => f,
            })
            .collect();
        Place {
            base,
            projs,
            ty: p.ty,
        }
    }

    /// Holds a value in a temporary unless it is a constant or a local read already.
    pub(crate) fn freeze(&mut self, e: Expr) -> Expr {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::FuncAddr(_) => e,
            ExprKind::Read(p)
                if p.projs.is_empty()
                    && matches!(p.base, PlaceBase::Var(v)
                        if matches!(self.vars[v].kind, VarKind::Temp(_))) =>
            {
                e
            }
            ExprKind::AddrOf(p) if p.projs.is_empty() && matches!(p.base, PlaceBase::Var(_)) => e,
            _ => {
                let t = self.temp(e.ty);
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src: e,
                });
                Expr::read(t)
            }
        }
    }
}
