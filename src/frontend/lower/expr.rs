//! Expressions: C's typing rules and evaluation order. Side effects (calls, assignments,
//! `++`/`--`, short-circuit and conditional operators with side effects) become instructions
//! in evaluation order, with temporaries; what remains is a side-effect-free `Expr`.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::{Lowerer, Sym, R};
use crate::ir::*;

/// The allocation functions whose result a cast types (see `Lowerer::alloc_hint`).
const ALLOCATORS: &[&str] = &["malloc", "calloc", "kmalloc", "kzalloc"];

/// True if evaluating `e` may have a side effect (or emit instructions): decided on the
/// syntax, conservatively.
pub(crate) fn has_side_effects(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_) | Expression::Constant(_) | Expression::StringLiteral(_) => false,
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => false,
        Expression::OffsetOf(_) => false,
        Expression::Member(m) => has_side_effects(&m.node.expression.node),
        Expression::Call(_) | Expression::CompoundLiteral(_) | Expression::Statement(_) => true,
        Expression::VaArg(_) | Expression::GenericSelection(_) => true,
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement
            | UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement => true,
            _ => has_side_effects(&u.node.operand.node),
        },
        Expression::Cast(c) => has_side_effects(&c.node.expression.node),
        Expression::BinaryOperator(b) => match b.node.operator.node {
            BinaryOperator::Assign
            | BinaryOperator::AssignMultiply
            | BinaryOperator::AssignDivide
            | BinaryOperator::AssignModulo
            | BinaryOperator::AssignPlus
            | BinaryOperator::AssignMinus
            | BinaryOperator::AssignShiftLeft
            | BinaryOperator::AssignShiftRight
            | BinaryOperator::AssignBitwiseAnd
            | BinaryOperator::AssignBitwiseXor
            | BinaryOperator::AssignBitwiseOr => true,
            _ => has_side_effects(&b.node.lhs.node) || has_side_effects(&b.node.rhs.node),
        },
        Expression::Conditional(c) => {
            has_side_effects(&c.node.condition.node)
                || has_side_effects(&c.node.then_expression.node)
                || has_side_effects(&c.node.else_expression.node)
        }
        Expression::Comma(v) => v.iter().any(|x| has_side_effects(&x.node)),
    }
}

/// True if evaluating `e` when C would not (an unselected `?:` operand, the right operand of
/// a short-circuit operator) could matter: side effects, and anything that may trap — a
/// dereference, an index that is not constant, a division by something other than a non-zero
/// constant. Operands for which this is false are evaluated eagerly, as one expression.
pub(crate) fn needs_branch(e: &Expression) -> bool {
    fn nonzero_const(e: &Expression) -> bool {
        match e {
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => !i
                    .number
                    .trim_start_matches(['0', 'x', 'X', 'b', 'B'])
                    .is_empty(),
                Constant::Character(_) => true,
                Constant::Float(_) => false,
            },
            _ => false,
        }
    }
    if has_side_effects(e) {
        return true;
    }
    match e {
        Expression::Identifier(_) | Expression::Constant(_) | Expression::StringLiteral(_) => false,
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => false,
        Expression::OffsetOf(_) => false,
        Expression::Member(m) => {
            m.node.operator.node == MemberOperator::Indirect
                || needs_branch(&m.node.expression.node)
        }
        Expression::UnaryOperator(u) => {
            u.node.operator.node == UnaryOperator::Indirection || needs_branch(&u.node.operand.node)
        }
        Expression::Cast(c) => needs_branch(&c.node.expression.node),
        Expression::BinaryOperator(b) => match b.node.operator.node {
            BinaryOperator::Index => {
                !matches!(b.node.rhs.node, Expression::Constant(_))
                    || needs_branch(&b.node.lhs.node)
            }
            BinaryOperator::Divide | BinaryOperator::Modulo => {
                !nonzero_const(&b.node.rhs.node) || needs_branch(&b.node.lhs.node)
            }
            _ => needs_branch(&b.node.lhs.node) || needs_branch(&b.node.rhs.node),
        },
        Expression::Conditional(c) => {
            needs_branch(&c.node.condition.node)
                || needs_branch(&c.node.then_expression.node)
                || needs_branch(&c.node.else_expression.node)
        }
        Expression::Comma(v) => v.iter().any(|x| needs_branch(&x.node)),
        _ => true,
    }
}
impl<'a> Lowerer<'a> {
    /// The value of an expression (lvalue conversion, array and function decay applied).
    pub(crate) fn rvalue(&mut self, e: &Node<Expression>) -> R<Expr> {
        self.rvalue_inner(e, true)
    }

    /// Type of `e` without array/function decay (for `sizeof`, `typeof`).
    pub(crate) fn expr_type_unconverted(&mut self, e: &Node<Expression>) -> R<TypeId> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name).cloned() {
                Some(Sym::Var(v)) => return Ok(self.vars[v].ty),
                Some(Sym::Func(f)) => return Ok(self.funcs[f].ty),
                _ => {}
            },
            Expression::StringLiteral(s) => {
                let n = self.string_bytes(&s.node, s.span)?.len() as u64 + 1;
                let c = self.types.char_();
                return Ok(self.types.intern(Type::Array {
                    elem: c,
                    len: Some(n),
                }));
            }
            Expression::Member(_) | Expression::CompoundLiteral(_) => {
                return Ok(self.lvalue(e)?.ty);
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let p = self.rvalue_inner(&u.node.operand, true)?;
                if let Some(t) = self.types.pointee(p.ty) {
                    return Ok(t);
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                return Ok(self.lvalue(e)?.ty);
            }
            _ => {}
        }
        Ok(self.rvalue_inner(e, true)?.ty)
    }

    /// The value stored at a place, with array decay.
    pub(crate) fn place_value(&mut self, p: Place) -> Expr {
        match self.types.get(p.ty).clone() {
            Type::Array { elem, .. } => {
                let mut p = p;
                self.mark_address_taken(&p);
                let zero = Expr::constant(0, self.types.ptrdiff_t());
                let elem_size = self.types.size_of(elem).unwrap_or(0);
                p.projs.push(Proj::Index {
                    index: Box::new(zero),
                    elem_size,
                });
                p.ty = elem;
                let pt = self.types.pointer(elem);
                Expr {
                    kind: ExprKind::AddrOf(Box::new(p)),
                    ty: pt,
                }
            }
            _ => Expr::read(p),
        }
    }

    pub(crate) fn mark_address_taken(&mut self, p: &Place) {
        if let PlaceBase::Var(v) = p.base {
            self.vars[v].address_taken = true;
        }
    }

    pub(crate) fn address_of(&mut self, p: Place) -> Expr {
        self.mark_address_taken(&p);
        let t = self.types.pointer(p.ty);
        Expr {
            kind: ExprKind::AddrOf(Box::new(p)),
            ty: t,
        }
    }

    pub(super) fn void_value(&mut self) -> Expr {
        let v = self.types.void();
        Expr::constant(0, v)
    }

    pub(super) fn rvalue_inner(&mut self, e: &Node<Expression>, want: bool) -> R<Expr> {
        let span = e.span;
        match &e.node {
            Expression::Identifier(id) => self.identifier_value(&id.node.name, span),
            Expression::Constant(c) => self.constant(&c.node, span),
            Expression::StringLiteral(s) => {
                let p = self.string_literal(&s.node, span)?;
                Ok(self.place_value(p))
            }
            Expression::Member(_) | Expression::CompoundLiteral(_) => {
                let p = self.lvalue(e)?;
                Ok(self.place_value(p))
            }
            Expression::Call(c) => {
                let r = self.call(&c.node, span, want)?;
                Ok(match r {
                    Some(x) => x,
                    None => self.void_value(),
                })
            }
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                self.sizeof_const(ty, span)
            }
            Expression::SizeOfVal(v) => {
                if let Expression::Identifier(id) = &v.node.0.node {
                    if let Some(Sym::Var(x)) = self.lookup(&id.node.name) {
                        if self.vla_vars.contains(x) {
                            return Err(self.unsupported(span, "sizeof of a variable-length array"));
                        }
                    }
                }
                let ty = self.type_of_expr(&v.node.0)?;
                self.sizeof_const(ty, span)
            }
            Expression::AlignOf(t) => {
                let ty = self.type_name(&t.node.0)?;
                let a = self.types.align_of(ty);
                let st = self.types.size_t();
                Ok(Expr::constant(a, st))
            }
            Expression::UnaryOperator(u) => self.unary_expr(&u.node, span, want),
            Expression::Cast(c) => {
                let to = self.type_name(&c.node.type_name)?;
                if self.types.is_void(to) {
                    self.discard(&c.node.expression)?;
                    return Ok(self.void_value());
                }
                // `(T *) malloc(n)`: the allocation is typed by `T` (see `alloc_hint`).
                let is_alloc = matches!(&c.node.expression.node, Expression::Call(call)
                    if matches!(&call.node.callee.node, Expression::Identifier(id)
                        if ALLOCATORS.contains(&id.node.name.as_str())));
                // A byte pointer (`(char *) malloc(n)`) is the usual type of an untyped buffer
                // that is then used at other types: it stays untyped.
                let typed = self
                    .types
                    .pointee(to)
                    .and_then(|t| self.types.size_of(t))
                    .is_some_and(|n| n > 1);
                if is_alloc && typed {
                    self.alloc_hint = Some(to);
                }
                let x = self.rvalue(&c.node.expression);
                self.alloc_hint = None;
                let x = x?;
                if !self.types.is_scalar(to) {
                    if x.ty == to {
                        return Ok(x);
                    }
                    return Err(self.invalid(span, "cast to a non-scalar type"));
                }
                if !self.types.is_scalar(x.ty) {
                    return Err(self.invalid(span, "cast of a non-scalar value"));
                }
                Ok(self.cast(x, to))
            }
            Expression::BinaryOperator(b) => self.binary_expr(&b.node, span, want),
            Expression::Conditional(c) => self.conditional(&c.node, span, want),
            Expression::Comma(v) => {
                let n = v.len();
                for x in &v[..n.saturating_sub(1)] {
                    self.discard(x)?;
                }
                match v.last() {
                    Some(x) => self.rvalue_inner(x, want),
                    None => Ok(self.void_value()),
                }
            }
            Expression::OffsetOf(o) => {
                let ty = self.type_name(&o.node.type_name)?;
                let off = self.offset_of(ty, &o.node.designator)?;
                let st = self.types.size_t();
                Ok(Expr::constant(off, st))
            }
            Expression::Statement(s) => self.statement_expr(s, want),
            Expression::VaArg(_) => Err(self.unsupported(span, "va_arg")),
            Expression::GenericSelection(_) => Err(self.unsupported(span, "_Generic")),
        }
    }

    fn sizeof_const(&mut self, ty: TypeId, span: Span) -> R<Expr> {
        let st = self.types.size_t();
        let n = match self.types.get(ty) {
            // gcc: sizeof(void) and sizeof of a function are 1.
            Type::Void | Type::Func { .. } => Some(1),
            _ => self.types.size_of(ty),
        };
        match n {
            Some(n) => Ok(Expr::constant(n, st)),
            None => Err(self.invalid(span, "sizeof of an incomplete type")),
        }
    }

    fn identifier_value(&mut self, name: &str, span: Span) -> R<Expr> {
        match self.lookup(name).cloned() {
            Some(Sym::Var(v)) => {
                let p = Place::var(v, self.vars[v].ty);
                Ok(self.place_value(p))
            }
            Some(Sym::Func(f)) => {
                let pt = self.types.pointer(self.funcs[f].ty);
                Ok(Expr {
                    kind: ExprKind::FuncAddr(f),
                    ty: pt,
                })
            }
            Some(Sym::EnumConst(v, t)) => Ok(Expr::constant(v, t)),
            Some(Sym::Typedef(_)) => {
                Err(self.invalid(span, format!("'{name}' is a type, not a value")))
            }
            None => {
                if matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") {
                    let fname = self
                        .cur_func()
                        .map(|f| self.funcs[f].name.clone())
                        .unwrap_or_default();
                    let p = self.string_from_bytes(fname.into_bytes());
                    return Ok(self.place_value(p));
                }
                Err(self.invalid(span, format!("undeclared identifier '{name}'")))
            }
        }
    }

    /// Evaluates an expression for its side effects only.
    pub(crate) fn discard(&mut self, e: &Node<Expression>) -> R<()> {
        if let Expression::Conditional(c) = &e.node {
            if self.assert_pattern(&c.node, e.span)? {
                return Ok(());
            }
        }
        self.rvalue_inner(e, false)?;
        Ok(())
    }

    fn statement_expr(&mut self, s: &Node<Statement>, want: bool) -> R<Expr> {
        let Statement::Compound(items) = &s.node else {
            return Err(self.invalid(s.span, "statement expression without braces"));
        };
        if self.at_file_scope() {
            return Err(self.unsupported(s.span, "statement expression outside a function"));
        }
        self.push_scope();
        let n = items.len();
        let mut value = None;
        let r = (|| {
            for (i, it) in items.iter().enumerate() {
                if i + 1 == n {
                    if let BlockItem::Statement(st) = &it.node {
                        if let Statement::Expression(Some(x)) = &st.node {
                            self.set_loc(st.span);
                            value = Some(self.rvalue_inner(x, want)?);
                            continue;
                        }
                    }
                }
                self.block_item(it)?;
            }
            Ok(())
        })();
        self.pop_scope();
        r?;
        Ok(match value {
            Some(v) => {
                // The value may read block-scoped locals that are dead after the block; hold it.
                if want && !self.types.is_void(v.ty) {
                    self.freeze(v)
                } else {
                    v
                }
            }
            None => self.void_value(),
        })
    }

    fn offset_of(&mut self, ty: TypeId, d: &Node<OffsetDesignator>) -> R<u64> {
        let mut cur = ty;
        let mut off = self.member_offset(&mut cur, &d.node.base.node.name, d.span)?;
        for m in &d.node.members {
            match &m.node {
                OffsetMember::Member(id) => {
                    off += self.member_offset(&mut cur, &id.node.name, m.span)?;
                }
                OffsetMember::IndirectMember(_) => {
                    return Err(self.unsupported(m.span, "'->' in offsetof"))
                }
                OffsetMember::Index(e) => {
                    let Type::Array { elem, .. } = self.types.get(cur).clone() else {
                        return Err(self.invalid(m.span, "offsetof index into a non-array"));
                    };
                    let i = self.const_int(e)?;
                    let size = self.types.size_of(elem).unwrap_or(0);
                    off = off.wrapping_add((i as u64).wrapping_mul(size));
                    cur = elem;
                }
            }
        }
        Ok(off)
    }

    /// Offset of member `name` of the struct type `*cur`; `*cur` becomes the member's type.
    fn member_offset(&mut self, cur: &mut TypeId, name: &str, span: Span) -> R<u64> {
        let Type::Struct(s) = self.types.get(*cur).clone() else {
            return Err(self.invalid(span, "offsetof member of a non-struct"));
        };
        let Some((path, fty)) = self.types.find_member(s, name) else {
            return Err(self.invalid(span, format!("no member named '{name}'")));
        };
        let mut off = 0;
        let mut sc = s;
        for idx in path {
            let f = &self.types.structs[sc].fields[idx];
            off += f.offset;
            if let Type::Struct(inner) = self.types.get(f.ty) {
                sc = *inner;
            }
        }
        *cur = fty;
        Ok(off)
    }
}
