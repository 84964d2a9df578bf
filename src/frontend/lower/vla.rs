//! Variable-length arrays (`T a[n];` in a block, `n` not a constant): a dynamic object of
//! `n * sizeof(T)` bytes, allocated where the declaration runs, which `a` points to.
//!
//! Symbolic execution models an allocation of a size that is not a constant as a dynamic
//! object whose accesses are checked against that size (see `symex::memory::Object::limit`), so
//! an index past `n` is an invalid access, never a silent hit. The name `a` is a pointer to the
//! first element: indexing, decay and `&a[i]` mean what they mean for the array. `sizeof a`,
//! the one use where an array and a pointer differ, is unsupported. The object is not freed at
//! the end of its block; an access after that is undefined behaviour, and is not reported.
//!
//! Only a one-dimensional array is handled (its element may be any complete type); the others
//! stay unsupported.

use lang_c::ast::*;
use lang_c::span::Node;

use super::{Lowerer, Sym, R};
use crate::ir::*;

impl Lowerer<'_> {
    /// Lowers the declarator when it declares a variable-length array; `false` (nothing done)
    /// for any other declarator.
    pub(super) fn variable_length_array(
        &mut self,
        base: TypeId,
        id: &Node<InitDeclarator>,
    ) -> R<bool> {
        let d = &id.node.declarator.node;
        let DeclaratorKind::Identifier(name) = &d.kind.node else {
            return Ok(false);
        };
        let split = d
            .derived
            .iter()
            .position(|x| !matches!(x.node, DerivedDeclarator::Pointer(_)))
            .unwrap_or(d.derived.len());
        let [only] = &d.derived[split..] else {
            return Ok(false);
        };
        let DerivedDeclarator::Array(a) = &only.node else {
            return Ok(false);
        };
        let ArraySize::VariableExpression(e) = &a.node.size else {
            return Ok(false);
        };
        if self.try_const_int(e)?.is_some() {
            return Ok(false);
        }
        if id.node.initializer.is_some() {
            return Err(self.invalid(id.span, "variable-length array with an initializer"));
        }
        let mut elem = base;
        for _ in 0..split {
            elem = self.types.pointer(elem);
        }
        let Some(es) = self.types.size_of(elem).filter(|&s| s > 0) else {
            return Err(self.invalid(id.span, "array of an incomplete type"));
        };
        let st = self.types.size_t();
        let n = self.rvalue(e)?;
        let n = self.assign_convert(n, st, e.span)?;
        let size = self.binary(BinOp::Mul, n, Expr::constant(es, st), st);
        let pty = self.types.pointer(elem);
        let f = self.cur_func().unwrap_or(self.init_id);
        let v = self.new_var(&name.node.name, pty, VarKind::Local(f));
        self.vla_vars.insert(v);
        self.bind(&name.node.name, Sym::Var(v));
        let site = AllocSite::from_u32(self.alloc_sites);
        self.alloc_sites += 1;
        self.emit(InstrKind::Alloc {
            dst: Some(Place::var(v, pty)),
            size,
            zeroed: false,
            site,
            kind: crate::ir::AllocKind::Stack,
        });
        Ok(true)
    }
}
