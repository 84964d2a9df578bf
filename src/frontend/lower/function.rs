//! Function definitions: parameters, `main`'s arguments, and the body finished into IR.

use std::collections::HashMap;

use cranelift_entity::packed_option::ReservedValue;
use cranelift_entity::EntityRef;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::*;

impl Lowerer<'_> {
    pub(super) fn function_definition(&mut self, fd: &Node<FunctionDefinition>) -> R<()> {
        self.set_loc(fd.span);
        let def = &fd.node;
        if !def.declarations.is_empty() {
            return Err(self.unsupported(fd.span, "K&R-style parameter declarations"));
        }
        let spec = self.specifiers(&def.specifiers, fd.span)?;
        let (name, ty, params) = self.declarator(spec.ty, &def.declarator, true)?;
        let param_shapes = std::mem::take(&mut self.atomic.params);
        let Some(name) = name else {
            return Err(self.invalid(fd.span, "function definition without a name"));
        };
        let Type::Func {
            ret, params: ptys, ..
        } = self.types.get(ty).clone()
        else {
            return Err(self.invalid(fd.span, "function definition of a non-function type"));
        };
        let f = self.declare_func(&name, ty);
        self.funcs[f].ty = ty;
        self.funcs[f].ret = ret;
        self.funcs[f].loc = self.loc;
        if self.funcs[f].body.is_some() {
            return Err(self.invalid(fd.span, format!("redefinition of function '{name}'")));
        }
        self.bind(&name, Sym::Func(f));
        self.func_cx = Some(FnCtx::new(f));
        self.push_scope();
        let mut pvars = Vec::new();
        let names = params.unwrap_or_default();
        for (i, pty) in ptys.iter().enumerate() {
            let pname = names
                .get(i)
                .cloned()
                .flatten()
                .unwrap_or_else(|| format!("$param{i}"));
            let v = self.new_var(&pname, *pty, VarKind::Param(f));
            self.bind(&pname, Sym::Var(v));
            if param_shapes.len() == ptys.len() {
                self.atomic_record(v, param_shapes[i]);
            }
            pvars.push(v);
        }
        self.funcs[f].params = pvars;
        // `__func__` is rarely used; it is a static string when it is.
        let r = self.function_body(&def.statement, f, ret, &name);
        self.pop_scope();
        let cx = self.func_cx.take();
        if let Err(e) = r {
            // Headers define many functions a task never calls (kernel helpers with inline
            // assembly, say): the error only matters if the function is reachable. gcc
            // accepted the program, so a type error here is a limit of this frontend too.
            self.poisoned.push((f, e));
            let mut body = Body::default();
            body.instrs.push(Instr {
                kind: InstrKind::Halt,
                loc: self.loc,
            });
            self.funcs[f].body = Some(body);
            return Ok(());
        }
        let Some(cx) = cx else {
            return Ok(());
        };
        let mut body = self.finish_body(cx.instrs, &cx.labels, &cx.gotos)?;
        if name == self.entry {
            let params = self.funcs[f].params.clone();
            Self::drop_unused_main_arguments(&mut body, &params, self.main_entry);
        }
        self.funcs[f].locals = cx.locals;
        self.funcs[f].body = Some(body);
        Ok(())
    }

    fn function_body(
        &mut self,
        body: &Node<Statement>,
        f: FuncId,
        ret: TypeId,
        name: &str,
    ) -> R<()> {
        if name == self.entry {
            self.main_entry = self.main_arguments(f, name == "main");
        }
        self.statement(body)?;
        self.set_loc(Span::span(body.span.end.saturating_sub(1), body.span.end));
        let _ = f;
        if name == "main" && self.types.is_integer(ret) {
            let zero = Expr::constant(0, ret);
            self.emit(InstrKind::Return(Some(zero)));
        } else {
            self.emit(InstrKind::Return(None));
        }
        Ok(())
    }

    /// The environment calls `main`: its parameters hold whatever the environment passes, an
    /// integer `argc` any nonnegative value (C11 5.1.2.2.1 allows 0) and `argv` an arbitrary
    /// pointer. Written as IR at the entry so that symbolic execution, replay and the explorers
    /// all see them as the same nondet inputs: an explorer that fixed them would explore one
    /// environment only and could answer TRUE for a program whose error needs another. (What
    /// `argv` points to is not modelled: a read through it is an invalid read, a write UNKNOWN.)
    pub(super) fn main_arguments(&mut self, f: FuncId, is_main: bool) -> usize {
        let mut emitted = 0;
        for &p in &self.funcs[f].params.clone() {
            let ty = self.vars[p].ty;
            if self.types.is_scalar(ty) {
                self.emit(InstrKind::Nondet {
                    dst: Place::var(p, ty),
                });
                emitted += 1;
            }
        }
        let Some(&argc) = self.funcs[f].params.first().filter(|_| is_main) else {
            return emitted;
        };
        let ty = self.vars[argc].ty;
        if self.types.is_integer(ty) && self.types.is_signed(ty) {
            let int = self.types.int32();
            let cond = Expr {
                kind: ExprKind::Binary(
                    BinOp::SGe,
                    Box::new(Expr::read(Place::var(argc, ty))),
                    Box::new(Expr::constant(0, ty)),
                ),
                ty: int,
            };
            self.emit(InstrKind::Assume(cond));
            emitted += 1;
        }
        emitted
    }

    /// Turns the entry instructions of [`Self::main_arguments`] into skips for a parameter
    /// the body never reads before writing it: its initial value cannot matter, and an
    /// explorer that cannot enumerate it would otherwise stop at the entry.
    fn drop_unused_main_arguments(body: &mut Body, params: &[VarId], entry: usize) {
        if entry == 0 || entry >= body.instrs.len() {
            return;
        }
        let live = crate::ir::liveness::Liveness::of(body);
        let Some(live) = live.live_in(InstrId::new(entry)).cloned() else {
            return;
        };
        for &p in params.iter().filter(|p| !live.contains(p)) {
            for i in 0..entry {
                let ins = &mut body.instrs[InstrId::new(i)];
                let mut mentions = false;
                ins.kind.walk_exprs(&mut |e| {
                    if let ExprKind::Read(pl) | ExprKind::AddrOf(pl) = &e.kind {
                        mentions |= pl.base == PlaceBase::Var(p);
                    }
                });
                if let InstrKind::Nondet { dst } = &ins.kind {
                    mentions |= dst.base == PlaceBase::Var(p);
                }
                if mentions {
                    ins.kind = InstrKind::Skip;
                }
            }
        }
    }

    /// Resolves gotos to labels and numbers the back edges.
    pub(super) fn finish_body(
        &self,
        mut instrs: Vec<Instr>,
        labels: &HashMap<String, usize>,
        gotos: &[(usize, String, Span)],
    ) -> R<Body> {
        for (at, label, span) in gotos {
            let Some(&t) = labels.get(label) else {
                return Err(self.invalid(*span, format!("label '{label}' used but not defined")));
            };
            if let InstrKind::Goto { target, .. } = &mut instrs[*at].kind {
                *target = InstrId::new(t);
            }
        }
        let n = instrs.len();
        let mut body = Body::default();
        for (i, ins) in instrs.into_iter().enumerate() {
            body.instrs.push(ins);
            debug_assert_eq!(body.instrs.len(), i + 1);
        }
        for i in 0..n {
            let id = InstrId::new(i);
            let loc = body.instrs[id].loc;
            if let InstrKind::Goto {
                target, back_edge, ..
            } = &mut body.instrs[id].kind
            {
                if target.is_reserved_value() || target.index() > n {
                    return Err(FrontendError::Invalid(format!(
                        "{}:{}: error: internal: unresolved jump",
                        self.map.file_name(loc.file),
                        loc.line
                    )));
                }
                if target.index() <= i {
                    let l = body.loops.push(LoopInfo {
                        head: *target,
                        back_edge: id,
                        loc,
                    });
                    *back_edge = Some(l);
                }
            }
        }
        // A jump to the very end of the body lands on a final Skip.
        if body
            .instrs
            .values()
            .any(|ins| matches!(&ins.kind, InstrKind::Goto { target, .. } if target.index() == n))
        {
            let loc = body
                .instrs
                .values()
                .last()
                .map(|i| i.loc)
                .unwrap_or_default();
            body.instrs.push(Instr {
                kind: InstrKind::Skip,
                loc,
            });
        }
        Ok(body)
    }
}
