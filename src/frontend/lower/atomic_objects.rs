//! C11 `_Atomic` objects under sequential consistency.
//!
//! Under SC every plain load and store of a scalar is already one visible access, so an
//! atomic object differs from a plain one only in its read-modify-writes: `x++`, `--x` and
//! `x op= e` are one indivisible step (C11 6.5.2.4, 6.5.16.2). The lowering wraps such an
//! update in an atomic section, after the operand's own reads (the pointer, the index, the
//! right-hand side), which C evaluates before the read-modify-write. `x = x + 1` stays a load
//! and a store, as in C11.
//!
//! The IR's types carry no qualifier, so atomicity is tracked per declaration: for every
//! variable whether its object (or each element of an array) is atomic, and for every
//! pointer variable whether what it points to is. An update decides by the lvalue's shape: a
//! variable, an element of an array variable, or `*p` / `p[i]` for a pointer variable. Any
//! other lvalue (a member, a double dereference) of a type that some `_Atomic` object in the
//! program has is unsupported: lowering it as plain could split an atomic update (a race that
//! cannot happen, a wrong FALSE), and as atomic could hide a real race (a wrong TRUE).
//! Programs without `_Atomic` are not affected at all. `_Atomic` struct members and atomic
//! pointer objects (`int *_Atomic p`) stay unsupported.

use std::collections::{HashMap, HashSet};

use lang_c::ast::*;
use lang_c::span::Node;

use super::{Lowerer, Sym, R};
use crate::ir::{Type, TypeId, VarId};

/// What a declaration says about atomicity: of the declared object, and of what it points to
/// (`None`: not known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub object: Option<bool>,
    pub pointee: Option<bool>,
}

impl Shape {
    /// A plain object of a type that is not a pointer typedef.
    pub const PLAIN: Shape = Shape {
        object: Some(false),
        pointee: None,
    };
    pub const UNKNOWN: Shape = Shape {
        object: None,
        pointee: None,
    };
}

#[derive(Default)]
pub(crate) struct AtomicInfo {
    /// The types of `_Atomic` objects in the program.
    pub types: HashSet<TypeId>,
    /// Per variable, whether its object (each element of an array) is atomic.
    pub object: HashMap<VarId, bool>,
    /// Per pointer variable, whether what it points to is atomic.
    pub pointee: HashMap<VarId, bool>,
    /// Per typedef name, the shape of its type.
    pub typedefs: HashMap<String, Shape>,
    /// While declaration specifiers are read: `_Atomic` seen.
    pub seen: bool,
    /// While declaration specifiers are read: the shape of a typedef name among them.
    pub typedef_shape: Option<Shape>,
    /// The shape of the specifiers read last.
    pub last: Option<Shape>,
    /// The shapes of the parameters of the parameter list read last.
    pub params: Vec<Shape>,
}

impl Lowerer<'_> {
    /// Starts reading declaration specifiers (they nest: a `typeof` or `_Atomic(T)` reads a
    /// type name inside); returns the outer state.
    pub(super) fn atomic_spec_start(&mut self) -> (bool, Option<Shape>) {
        (
            std::mem::take(&mut self.atomic.seen),
            self.atomic.typedef_shape.take(),
        )
    }

    /// Ends reading specifiers of base type `ty`: their shape (also kept as `last`).
    pub(super) fn atomic_spec_end(&mut self, ty: TypeId, outer: (bool, Option<Shape>)) -> Shape {
        let base = self.atomic.typedef_shape.unwrap_or(Shape::PLAIN);
        let shape = if self.atomic.seen {
            self.atomic.types.insert(ty);
            Shape {
                object: Some(true),
                pointee: base.pointee,
            }
        } else {
            base
        };
        self.atomic.seen = outer.0;
        self.atomic.typedef_shape = outer.1;
        self.atomic.last = Some(shape);
        shape
    }

    /// A typedef name among the specifiers.
    pub(super) fn atomic_typedef_used(&mut self, name: &str) {
        let s = self
            .atomic
            .typedefs
            .get(name)
            .copied()
            .unwrap_or(Shape::UNKNOWN);
        self.atomic.typedef_shape = Some(s);
    }

    /// The shape of a declarator's type `ty` built on specifiers of shape `spec` and type
    /// `base`.
    pub(super) fn atomic_classify(&self, spec: Shape, base: TypeId, ty: TypeId) -> Shape {
        if ty == base {
            return spec;
        }
        let mut t = ty;
        while let Type::Array { elem, .. } = self.types.get(t) {
            t = *elem;
            if t == base {
                return Shape {
                    object: spec.object,
                    pointee: None,
                };
            }
        }
        match self.types.get(ty) {
            Type::Pointer(p) if *p == base => Shape {
                object: Some(false),
                pointee: spec.object,
            },
            // A pointer to something else, or a function: not an atomic object.
            _ => Shape {
                object: Some(false),
                pointee: None,
            },
        }
    }

    /// Records what a declaration says of variable `v`.
    pub(super) fn atomic_record(&mut self, v: VarId, shape: Shape) {
        if let Some(o) = shape.object {
            self.atomic.object.insert(v, o);
        }
        if let Some(p) = shape.pointee {
            self.atomic.pointee.insert(v, p);
        }
    }

    /// The shape of a parameter declared with specifiers of shape `spec` and type `base`
    /// as type `ty` (before the array-to-pointer adjustment).
    pub(super) fn atomic_param(&self, spec: Shape, base: TypeId, ty: TypeId) -> Shape {
        match self.types.get(ty) {
            Type::Array { elem, .. } if *elem == base => Shape {
                object: Some(false),
                pointee: spec.object,
            },
            Type::Array { .. } => Shape {
                object: Some(false),
                pointee: None,
            },
            _ => self.atomic_classify(spec, base, ty),
        }
    }

    /// Whether the read-modify-write of lvalue `e` (of type `ty`) must be indivisible; an
    /// error when the lvalue may or may not be an atomic object (see the module doc).
    pub(super) fn rmw_is_atomic(&self, e: &Node<Expression>, ty: TypeId) -> R<bool> {
        if !self.atomic.types.contains(&ty) {
            return Ok(false);
        }
        let var = |e: &Node<Expression>| match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Sym::Var(v)) => Some(*v),
                _ => None,
            },
            _ => None,
        };
        let known = match &e.node {
            Expression::Identifier(_) => var(e).and_then(|v| self.atomic.object.get(&v)),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                var(&u.node.operand).and_then(|v| self.atomic.pointee.get(&v))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                var(&b.node.lhs).and_then(|v| {
                    if matches!(self.types.get(self.vars[v].ty), Type::Array { .. }) {
                        self.atomic.object.get(&v)
                    } else {
                        self.atomic.pointee.get(&v)
                    }
                })
            }
            _ => None,
        };
        match known {
            Some(&a) => Ok(a),
            None => Err(self.unsupported(
                e.span,
                "read-modify-write of an lvalue that may be an _Atomic object",
            )),
        }
    }
}
