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

    fn void_value(&mut self) -> Expr {
        let v = self.types.void();
        Expr::constant(0, v)
    }

    fn rvalue_inner(&mut self, e: &Node<Expression>, want: bool) -> R<Expr> {
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

    fn constant(&mut self, c: &Constant, span: Span) -> R<Expr> {
        match c {
            Constant::Integer(i) => self.integer_constant(i, span),
            Constant::Float(f) => self.float_constant(f, span),
            Constant::Character(s) => {
                let bytes = self.char_literal_bytes(s, span)?;
                let int = self.types.int32();
                // Single char: sign-extended char value; multi-char: gcc's big-endian packing.
                let v: u64 = if bytes.len() == 1 {
                    bytes[0] as i8 as i64 as u64
                } else {
                    bytes.iter().fold(0u64, |acc, b| (acc << 8) | *b as u64)
                };
                Ok(Expr::constant(
                    super::fold::normalize(&self.types, v, int),
                    int,
                ))
            }
        }
    }

    fn integer_constant(&mut self, i: &Integer, span: Span) -> R<Expr> {
        let (radix, digits) = match i.base {
            IntegerBase::Decimal => (10, &*i.number),
            IntegerBase::Octal => (8, &*i.number),
            IntegerBase::Hexadecimal => (
                16,
                i.number.trim_start_matches("0x").trim_start_matches("0X"),
            ),
            IntegerBase::Binary => (
                2,
                i.number.trim_start_matches("0b").trim_start_matches("0B"),
            ),
        };
        if i.suffix.imaginary {
            return Err(self.unsupported(span, "imaginary constant"));
        }
        let digits = if digits.is_empty() { "0" } else { digits };
        let v = u64::from_str_radix(digits, radix)
            .map_err(|_| self.unsupported(span, "integer constant wider than 64 bits"))?;
        let lb = self.types.ptr_bits();
        // Candidate types in C11 6.4.4.1 order: (bits, signed).
        let mut cands: Vec<(u8, bool)> = Vec::new();
        let decimal = i.base == IntegerBase::Decimal;
        let size = i.suffix.size;
        let u = i.suffix.unsigned;
        let push = |c: &mut Vec<(u8, bool)>, b: u8| {
            if !u {
                c.push((b, true));
            }
            if u || !decimal {
                c.push((b, false));
            }
        };
        if size == IntegerSize::Int {
            push(&mut cands, 32);
        }
        if size <= IntegerSize::Long {
            push(&mut cands, lb);
        }
        push(&mut cands, 64);
        if decimal && !u {
            // gcc extension: a decimal too big for long long becomes unsigned long long.
            cands.push((64, false));
        }
        for (b, s) in cands {
            let max = if s {
                (1u128 << (b - 1)) - 1
            } else {
                (1u128 << b) - 1
            };
            if (v as u128) <= max {
                let t = self.types.int(b, s);
                return Ok(Expr::constant(v, t));
            }
        }
        Err(self.unsupported(span, "integer constant wider than 64 bits"))
    }

    /// Bytes of a character constant `'x'` (escapes decoded).
    fn char_literal_bytes(&self, s: &str, span: Span) -> R<Vec<u8>> {
        let body = s.trim_start_matches(['L', 'u', 'U', '8']);
        if body.len() != s.len() {
            return Err(self.unsupported(span, "wide character constant"));
        }
        let inner = body
            .strip_prefix('\'')
            .and_then(|x| x.strip_suffix('\''))
            .ok_or_else(|| self.invalid(span, "malformed character constant"))?;
        let b = decode_escapes(inner).map_err(|m| self.invalid(span, m))?;
        if b.is_empty() {
            return Err(self.invalid(span, "empty character constant"));
        }
        Ok(b)
    }

    /// Bytes of a (possibly concatenated) string literal, without the terminating NUL.
    pub(crate) fn string_bytes(&self, parts: &[String], span: Span) -> R<Vec<u8>> {
        let mut out = Vec::new();
        for p in parts {
            if !p.starts_with('"') {
                return Err(self.unsupported(span, "wide string literal"));
            }
            let inner = p
                .strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .ok_or_else(|| self.invalid(span, "malformed string literal"))?;
            out.extend(decode_escapes(inner).map_err(|m| self.invalid(span, m))?);
        }
        Ok(out)
    }

    /// A string literal is an unnamed global `char` array initialised in the init function.
    pub(crate) fn string_literal(&mut self, parts: &[String], span: Span) -> R<Place> {
        let bytes = self.string_bytes(parts, span)?;
        Ok(self.string_from_bytes(bytes))
    }

    pub(crate) fn string_from_bytes(&mut self, bytes: Vec<u8>) -> Place {
        let c = self.types.char_();
        let n = bytes.len() as u64 + 1;
        let ty = self.types.intern(Type::Array {
            elem: c,
            len: Some(n),
        });
        self.strings += 1;
        let name = format!("$str{}", self.strings);
        let v = self.new_var(&name, ty, VarKind::Global);
        let saved = self.func_cx.take();
        let pd = self.types.ptrdiff_t();
        for (i, b) in bytes.iter().enumerate() {
            if *b == 0 {
                continue;
            }
            let mut p = Place::var(v, ty);
            p.projs.push(Proj::Index {
                index: Box::new(Expr::constant(i as u64, pd)),
                elem_size: 1,
            });
            p.ty = c;
            let val = Expr::constant(*b as i8 as i64 as u64, c);
            self.emit(InstrKind::Assign { dst: p, src: val });
        }
        self.func_cx = saved;
        Place::var(v, ty)
    }

    // ----- lvalues -----

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

    // ----- operators -----

    fn unary_expr(&mut self, u: &UnaryOperatorExpression, span: Span, want: bool) -> R<Expr> {
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

    fn binary_expr(&mut self, b: &BinaryOperatorExpression, span: Span, want: bool) -> R<Expr> {
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

    fn conditional(&mut self, c: &ConditionalExpression, span: Span, want: bool) -> R<Expr> {
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

/// Decodes C escape sequences of a literal body.
fn decode_escapes(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else {
            return Err("unterminated escape sequence".into());
        };
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut k = 0;
                while k < 2 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    k += 1;
                }
                v as u8
            }
            b'x' => {
                let mut v: u32 = 0;
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                if i == start {
                    return Err("\\x without hex digits".into());
                }
                v as u8
            }
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' => 27,
            b'\\' | b'\'' | b'"' | b'?' => c,
            _ => c,
        };
        out.push(v);
    }
    Ok(out)
}
