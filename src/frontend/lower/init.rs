//! Initialisers: scalar, string, and brace lists with designators and brace elision
//! (C11 6.7.9). Locals with a list initialiser are zeroed first; globals are zero already.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::{Lowerer, R};
use crate::ir::*;

impl<'a> Lowerer<'a> {
    /// Initialises variable `v` (its type may still be an array of unknown length, which the
    /// initialiser then completes).
    pub(crate) fn init_var(&mut self, v: VarId, init: &Node<Initializer>, global: bool) -> R<()> {
        self.set_loc(init.span);
        let ty = self.vars[v].ty;
        let place = Place::var(v, ty);
        let aggregate = self.is_aggregate(ty);
        let mut memset_at = None;
        if !global && aggregate {
            let addr = self.address_of(place.clone());
            let st = self.types.size_t();
            let len = Expr::constant(self.types.size_of(ty).unwrap_or(0), st);
            let int = self.types.int32();
            memset_at = Some(self.emit(InstrKind::Memset {
                dst: addr,
                byte: Expr::constant(0, int),
                len,
            }));
        }
        let len = match &init.node {
            Initializer::Expression(e) => {
                if let (Type::Array { elem, .. }, Expression::StringLiteral(s)) =
                    (self.types.get(ty).clone(), &e.node)
                {
                    if self.types.bits(elem) == 8 {
                        let bytes = self.string_bytes(&s.node, e.span)?;
                        Some(self.init_string(place, bytes))
                    } else {
                        return Err(self.unsupported(e.span, "wide string initialiser"));
                    }
                } else if aggregate && !matches!(self.types.get(ty), Type::Struct(_)) {
                    return Err(self.invalid(e.span, "array initialised from a non-list"));
                } else {
                    self.init_scalar(place, e)?;
                    None
                }
            }
            Initializer::List(items) => Some(self.init_braced(place, items, init.span)?),
        };
        if let (Type::Array { elem, len: None }, Some(n)) = (self.types.get(ty).clone(), len) {
            let nt = self.types.intern(Type::Array { elem, len: Some(n) });
            self.vars[v].ty = nt;
            if let Some(at) = memset_at {
                let size = self.types.size_of(nt).unwrap_or(0);
                let st = self.types.size_t();
                let addr = self.address_of(Place::var(v, nt));
                let int = self.types.int32();
                let instrs = match &mut self.func_cx {
                    Some(cx) => &mut cx.instrs,
                    None => &mut self.init_instrs,
                };
                if let Some(ins) = instrs.get_mut(at) {
                    ins.kind = InstrKind::Memset {
                        dst: addr,
                        byte: Expr::constant(0, int),
                        len: Expr::constant(size, st),
                    };
                }
            }
        }
        Ok(())
    }

    fn is_aggregate(&self, t: TypeId) -> bool {
        matches!(self.types.get(t), Type::Array { .. } | Type::Struct(_))
    }

    fn init_scalar(&mut self, place: Place, e: &Node<Expression>) -> R<()> {
        let v = self.rvalue(e)?;
        let v = self.assign_convert(v, place.ty, e.span)?;
        self.emit(InstrKind::Assign { dst: place, src: v });
        Ok(())
    }

    /// Stores the bytes of a string (and its NUL if it fits) into a char array; gives the
    /// length an array of unknown size gets.
    fn init_string(&mut self, place: Place, bytes: Vec<u8>) -> u64 {
        let (elem, len) = match self.types.get(place.ty).clone() {
            Type::Array { elem, len } => (elem, len),
            _ => return 0,
        };
        let n = len.unwrap_or(bytes.len() as u64 + 1);
        let pd = self.types.ptrdiff_t();
        for i in 0..n.min(bytes.len() as u64 + 1) {
            let b = bytes.get(i as usize).copied().unwrap_or(0);
            let mut p = place.clone();
            p.projs.push(Proj::Index {
                index: Box::new(Expr::constant(i, pd)),
                elem_size: 1,
            });
            p.ty = elem;
            let val = Expr::constant(super::fold::normalize(&self.types, b as u64, elem), elem);
            self.emit(InstrKind::Assign { dst: p, src: val });
        }
        n
    }

    fn sub_field(&mut self, place: &Place, sid: StructId, idx: usize) -> Place {
        let f = &self.types.structs[sid].fields[idx];
        let mut p = place.clone();
        p.projs.push(Proj::Field {
            index: idx as u32,
            offset: f.offset,
        });
        p.ty = f.ty;
        p
    }

    fn sub_index(&mut self, place: &Place, elem: TypeId, k: u64) -> Place {
        let pd = self.types.ptrdiff_t();
        let mut p = place.clone();
        p.projs.push(Proj::Index {
            index: Box::new(Expr::constant(k, pd)),
            elem_size: self.types.size_of(elem).unwrap_or(0),
        });
        p.ty = elem;
        p
    }

    /// A braced list for `place`; gives the number of array elements initialised.
    fn init_braced(
        &mut self,
        place: Place,
        items: &[Node<InitializerListItem>],
        span: Span,
    ) -> R<u64> {
        if !self.is_aggregate(place.ty) {
            // `int x = { 5 };` (possibly with more braces).
            let Some(first) = items.first() else {
                return Err(self.invalid(span, "empty scalar initialiser"));
            };
            return match &first.node.initializer.node {
                Initializer::Expression(e) => {
                    self.init_scalar(place, e)?;
                    Ok(1)
                }
                Initializer::List(l) => self.init_braced(place, l, span),
            };
        }
        let mut pos = 0;
        let n = self.init_aggregate(place, items, &mut pos, true, span)?;
        if pos < items.len() {
            return Err(self.invalid(items[pos].span, "excess elements in initialiser"));
        }
        Ok(n)
    }

    /// Fills `place` from `items[*pos..]`. A brace-elided sub-object (`braced == false`) stops
    /// when it is full or at a designator (which belongs to the enclosing list).
    fn init_aggregate(
        &mut self,
        place: Place,
        items: &[Node<InitializerListItem>],
        pos: &mut usize,
        braced: bool,
        span: Span,
    ) -> R<u64> {
        match self.types.get(place.ty).clone() {
            Type::Struct(sid) => {
                let is_union = self.types.structs[sid].is_union;
                let nfields = self.types.structs[sid].fields.len();
                let mut cursor = 0usize;
                let mut done_one = false;
                while *pos < items.len() {
                    let item = &items[*pos];
                    if !item.node.designation.is_empty() {
                        if !braced {
                            return Ok(1);
                        }
                        let Designator::Member(m) = &item.node.designation[0].node else {
                            return Err(self.invalid(item.span, "index designator for a struct"));
                        };
                        let Some((path, _)) = self.types.find_member(sid, &m.node.name) else {
                            return Err(
                                self.invalid(m.span, format!("no member named '{}'", m.node.name))
                            );
                        };
                        let mut sub = place.clone();
                        let mut cur = sid;
                        for idx in &path {
                            sub = self.sub_field(&sub, cur, *idx);
                            if let Type::Struct(inner) = self.types.get(sub.ty) {
                                cur = *inner;
                            }
                        }
                        self.check_not_bitfield(sid, path[0], item.span)?;
                        self.init_designated(
                            sub,
                            &item.node.designation[1..],
                            &item.node.initializer,
                        )?;
                        *pos += 1;
                        cursor = path[0] + 1;
                        done_one = true;
                        continue;
                    }
                    // Unnamed bit-fields are padding, not members.
                    while cursor < nfields
                        && self.types.structs[sid].fields[cursor].name.is_none()
                        && self.types.structs[sid].fields[cursor].bitfield.is_some()
                    {
                        cursor += 1;
                    }
                    if cursor >= nfields || (is_union && done_one) {
                        if braced {
                            return Err(
                                self.invalid(item.span, "excess elements in struct initialiser")
                            );
                        }
                        return Ok(1);
                    }
                    self.check_not_bitfield(sid, cursor, item.span)?;
                    let sub = self.sub_field(&place, sid, cursor);
                    self.init_one(sub, items, pos)?;
                    cursor += 1;
                    done_one = true;
                }
                Ok(1)
            }
            Type::Array { elem, len } => {
                let mut cursor = 0u64;
                let mut max = 0u64;
                while *pos < items.len() {
                    let item = &items[*pos];
                    if !item.node.designation.is_empty() {
                        if !braced {
                            return Ok(max);
                        }
                        let (lo, hi) = match &item.node.designation[0].node {
                            Designator::Index(e) => {
                                let k = self.const_int(e)?;
                                (k, k)
                            }
                            Designator::Range(r) => {
                                (self.const_int(&r.node.from)?, self.const_int(&r.node.to)?)
                            }
                            Designator::Member(m) => {
                                return Err(self.invalid(m.span, "member designator for an array"))
                            }
                        };
                        if lo < 0 || hi < lo || len.is_some_and(|n| hi as u64 >= n) {
                            return Err(self.invalid(item.span, "array designator out of bounds"));
                        }
                        if hi - lo > 1 << 20 {
                            return Err(self.unsupported(
                                item.span,
                                "designator range of more than 2^20 elements",
                            ));
                        }
                        for k in lo..=hi {
                            let sub = self.sub_index(&place, elem, k as u64);
                            self.init_designated(
                                sub,
                                &item.node.designation[1..],
                                &item.node.initializer,
                            )?;
                        }
                        *pos += 1;
                        cursor = hi as u64 + 1;
                        max = max.max(cursor);
                        continue;
                    }
                    if len.is_some_and(|n| cursor >= n) {
                        if braced {
                            return Err(
                                self.invalid(item.span, "excess elements in array initialiser")
                            );
                        }
                        return Ok(max);
                    }
                    if cursor > 1 << 24 {
                        return Err(
                            self.unsupported(span, "initialiser of more than 2^24 elements")
                        );
                    }
                    let sub = self.sub_index(&place, elem, cursor);
                    self.init_one(sub, items, pos)?;
                    cursor += 1;
                    max = max.max(cursor);
                }
                Ok(max)
            }
            _ => Err(self.invalid(span, "initialiser list for a scalar")),
        }
    }

    fn check_not_bitfield(&self, sid: StructId, idx: usize, span: Span) -> R<()> {
        if self.types.structs[sid].fields[idx].bitfield.is_some() {
            return Err(self.unsupported(span, "bit-field initialisation"));
        }
        Ok(())
    }

    /// One non-designated element at `items[*pos]`, with brace elision for aggregates.
    fn init_one(
        &mut self,
        sub: Place,
        items: &[Node<InitializerListItem>],
        pos: &mut usize,
    ) -> R<()> {
        let item = &items[*pos];
        match &item.node.initializer.node {
            Initializer::List(inner) => {
                *pos += 1;
                self.init_braced(sub, inner, item.span)?;
                Ok(())
            }
            Initializer::Expression(e) => {
                if !self.is_aggregate(sub.ty) {
                    *pos += 1;
                    return self.init_scalar(sub, e);
                }
                if let (Type::Array { .. }, Expression::StringLiteral(s)) =
                    (self.types.get(sub.ty).clone(), &e.node)
                {
                    *pos += 1;
                    let bytes = self.string_bytes(&s.node, e.span)?;
                    self.init_string(sub, bytes);
                    return Ok(());
                }
                if matches!(self.types.get(sub.ty), Type::Struct(_)) {
                    let t = self.type_of_expr(e)?;
                    if t == sub.ty {
                        *pos += 1;
                        return self.init_scalar(sub, e);
                    }
                }
                let before = *pos;
                self.init_aggregate(sub, items, pos, false, item.span)?;
                if *pos == before {
                    // An empty struct or array cannot take the element: it belongs nowhere.
                    return Err(
                        self.invalid(item.span, "initialiser element for an empty aggregate")
                    );
                }
                Ok(())
            }
        }
    }

    fn init_designated(
        &mut self,
        place: Place,
        rest: &[Node<Designator>],
        init: &Node<Initializer>,
    ) -> R<()> {
        if let Some(d) = rest.first() {
            let sub = match (&d.node, self.types.get(place.ty).clone()) {
                (Designator::Member(m), Type::Struct(sid)) => {
                    let Some((path, _)) = self.types.find_member(sid, &m.node.name) else {
                        return Err(
                            self.invalid(m.span, format!("no member named '{}'", m.node.name))
                        );
                    };
                    let mut sub = place;
                    let mut cur = sid;
                    for idx in path {
                        sub = self.sub_field(&sub, cur, idx);
                        if let Type::Struct(inner) = self.types.get(sub.ty) {
                            cur = *inner;
                        }
                    }
                    sub
                }
                (Designator::Index(e), Type::Array { elem, len }) => {
                    let k = self.const_int(e)?;
                    if k < 0 || len.is_some_and(|n| k as u64 >= n) {
                        return Err(self.invalid(e.span, "array designator out of bounds"));
                    }
                    self.sub_index(&place, elem, k as u64)
                }
                _ => return Err(self.unsupported(d.span, "this designator")),
            };
            return self.init_designated(sub, &rest[1..], init);
        }
        match &init.node {
            Initializer::List(l) => {
                self.init_braced(place, l, init.span)?;
                Ok(())
            }
            Initializer::Expression(e) => {
                if self.is_aggregate(place.ty) {
                    let item = Node::new(
                        InitializerListItem {
                            designation: vec![],
                            initializer: Box::new(init.clone()),
                        },
                        init.span,
                    );
                    let items = [item];
                    let mut pos = 0;
                    self.init_one(place, &items, &mut pos)
                } else {
                    self.init_scalar(place, e)
                }
            }
        }
    }
}
