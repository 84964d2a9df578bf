//! CBMC's thread labels: `__CPROVER_ASYNC_n: stmt;` runs `stmt` in a new thread, and the
//! labelling thread goes on at once after it (the label may repeat within a function).
//!
//! CBMC's meaning (goto-symex `symex_start_thread`): the new thread starts at the statement
//! with a copy of the spawning frame, every local variable copied by value at the moment of
//! the spawn; its `&local` designates its own copy; globals and static locals are shared; the
//! thread ends after the statement. The lowering outlines the statement into a synthetic
//! thread function `F$asyncK` whose locals stand for the spawner's locals the statement names.
//! Their values travel in a fresh heap object (one field per captured local) that the spawner
//! fills before the creation and the new thread reads first: the creation orders the writes
//! before the reads, and the object is fresh per spawn, so every thread gets the values of its
//! own spawn moment, exactly the copy CBMC makes.
//!
//! What cannot be modelled so is unsupported (UNKNOWN), never guessed: a statement that
//! leaves itself (`return`, `goto`), and a captured array or variable-length array (an array
//! is no value a field can hold; a variable-length array is a pointer to a shared object).

use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::{FnCtx, Lowerer, Sym, R};
use crate::ir::types::MemberSpec;
use crate::ir::*;

/// The label prefix CBMC gives thread meaning to.
pub(super) const ASYNC_PREFIX: &str = "__CPROVER_ASYNC_";

/// The struct type that carries a thread label's captured values, with each field's index and
/// byte offset.
type Frame = (TypeId, Vec<(u32, u64)>);

/// The names a statement reads as identifiers, and whether it jumps out of itself.
#[derive(Default)]
struct Free {
    names: Vec<String>,
    leaves: Option<&'static str>,
}

impl<'ast> Visit<'ast> for Free {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        if let Expression::Identifier(id) = e {
            if !self.names.contains(&id.node.name) {
                self.names.push(id.node.name.clone());
            }
        }
        visit::visit_expression(self, e, span);
    }

    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        match s {
            Statement::Return(_) => self.leaves = Some("return"),
            Statement::Goto(_) => self.leaves = Some("goto"),
            _ => {}
        }
        visit::visit_statement(self, s, span);
    }
}

impl Lowerer<'_> {
    /// `__CPROVER_ASYNC_n: stmt`: a thread creation of the outlined statement (see the module
    /// documentation).
    pub(super) fn async_statement(&mut self, stmt: &Node<Statement>, span: Span) -> R<()> {
        let Some(spawner) = self.cur_func() else {
            return Err(self.invalid(span, "thread label outside a function"));
        };
        let mut free = Free::default();
        free.visit_statement(&stmt.node, &stmt.span);
        if let Some(what) = free.leaves {
            return Err(self.unsupported(
                span,
                format!("{what} inside a {ASYNC_PREFIX}n statement (it would leave the thread)"),
            ));
        }
        // The spawner's locals and parameters the statement names: copied by value.
        let mut captured: Vec<(String, VarId)> = Vec::new();
        for name in free.names {
            let Some(Sym::Var(v)) = self.lookup(&name).cloned() else {
                continue;
            };
            let local = matches!(
                self.vars[v].kind,
                VarKind::Local(f) | VarKind::Param(f) | VarKind::Temp(f) if f == spawner
            );
            if !local {
                continue;
            }
            let ty = self.vars[v].ty;
            if self.vla_vars.contains(&v) || matches!(self.types.get(ty), Type::Array { .. }) {
                return Err(self.unsupported(
                    span,
                    format!("array '{name}' captured by a {ASYNC_PREFIX}n thread"),
                ));
            }
            captured.push((name, v));
        }
        let vp = self.types.void_ptr();
        let frame = self.capture_frame(spawner, &captured)?;
        // The spawner: fill a fresh frame object, then create the thread.
        let arg = match frame {
            Some((sty, ref fields)) => {
                let pty = self.types.pointer(sty);
                let p = self.temp(pty);
                let site = AllocSite::from_u32(self.alloc_sites);
                self.alloc_sites += 1;
                let size = self.types.size_of(sty).unwrap_or(1);
                let st = self.types.size_t();
                self.emit(InstrKind::Alloc {
                    dst: Some(p.clone()),
                    size: Expr::constant(size, st),
                    zeroed: false,
                    site,
                    kind: crate::ir::AllocKind::Internal,
                });
                for ((_, v), &(index, offset)) in captured.iter().zip(fields) {
                    let ty = self.vars[*v].ty;
                    let dst = field_place(Expr::read(p.clone()), ty, index, offset);
                    let src = Expr::read(Place::var(*v, ty));
                    self.emit(InstrKind::Assign { dst, src });
                }
                self.cast(Expr::read(p), vp)
            }
            None => Expr::constant(0, vp),
        };
        let entry = self.outline(spawner, stmt, &captured, frame)?;
        let handle_ty = self.types.long(false);
        let handle = self.temp(handle_ty);
        self.emit(InstrKind::ThreadCreate {
            handle,
            entry: Callee::Direct(entry),
            arg,
        });
        Ok(())
    }

    /// The struct that carries the captured values (`None` when nothing is captured), with
    /// each field's index and offset.
    fn capture_frame(&mut self, spawner: FuncId, captured: &[(String, VarId)]) -> R<Option<Frame>> {
        if captured.is_empty() {
            return Ok(None);
        }
        let name = format!("{}$async_frame{}", self.funcs[spawner].name, self.anon);
        self.anon += 1;
        let sid = self.types.structs.push(StructDef {
            name,
            is_union: false,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
        });
        let members = captured
            .iter()
            .map(|(n, v)| MemberSpec {
                name: Some(n.clone()),
                ty: self.vars[*v].ty,
                width: None,
                align: None,
                packed: false,
            })
            .collect();
        self.types
            .layout(sid, members, false, None)
            .map_err(|e| self.invalid(Span::none(), format!("internal: {e}")))?;
        let sty = self.types.intern(Type::Struct(sid));
        let fields = self.types.structs[sid]
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| (i as u32, f.offset))
            .collect();
        Ok(Some((sty, fields)))
    }

    /// The thread function `SPAWNER$asyncK(void *frame)`: copies the captured values into
    /// its own locals of the same names, runs the statement, returns null.
    fn outline(
        &mut self,
        spawner: FuncId,
        stmt: &Node<Statement>,
        captured: &[(String, VarId)],
        frame: Option<Frame>,
    ) -> R<FuncId> {
        let vp = self.types.void_ptr();
        let fty = self.types.intern(Type::Func {
            ret: vp,
            params: vec![vp],
            variadic: false,
        });
        let name = format!("{}$async{}", self.funcs[spawner].name, self.anon);
        self.anon += 1;
        let f = self.funcs.push(Function {
            name,
            ty: fty,
            ret: vp,
            params: vec![],
            locals: vec![],
            body: None,
            atomic: false,
            loc: self.loc,
        });
        let saved_cx = self.func_cx.replace(FnCtx::new(f));
        let saved_loc = self.loc;
        self.push_scope();
        let param = self.new_var("$frame", vp, VarKind::Param(f));
        self.funcs[f].params = vec![param];
        let r = self.outlined_body(f, stmt, captured, frame, param);
        self.pop_scope();
        let cx = std::mem::replace(&mut self.func_cx, saved_cx);
        self.loc = saved_loc;
        r?;
        let cx = cx.expect("the outlined function's context");
        let body = self.finish_body(cx.instrs, &cx.labels, &cx.gotos)?;
        self.funcs[f].locals = cx.locals;
        self.funcs[f].body = Some(body);
        Ok(f)
    }

    fn outlined_body(
        &mut self,
        f: FuncId,
        stmt: &Node<Statement>,
        captured: &[(String, VarId)],
        frame: Option<Frame>,
        param: VarId,
    ) -> R<()> {
        let vp = self.types.void_ptr();
        if let Some((sty, fields)) = frame {
            let pty = self.types.pointer(sty);
            let p = self.cast(Expr::read(Place::var(param, vp)), pty);
            for ((name, v), &(index, offset)) in captured.iter().zip(&fields) {
                let ty = self.vars[*v].ty;
                let copy = self.new_var(name, ty, VarKind::Local(f));
                self.bind(name, Sym::Var(copy));
                self.emit(InstrKind::Decl(copy));
                let src = Expr::read(field_place(p.clone(), ty, index, offset));
                self.emit(InstrKind::Assign {
                    dst: Place::var(copy, ty),
                    src,
                });
            }
        }
        self.statement(stmt)?;
        self.emit(InstrKind::Return(Some(Expr::constant(0, vp))));
        Ok(())
    }
}

/// Field `index` (at `offset`, of type `ty`) of the frame struct that `p` points to.
fn field_place(p: Expr, ty: TypeId, index: u32, offset: u64) -> Place {
    Place {
        base: PlaceBase::Deref(Box::new(p)),
        projs: vec![Proj::Field { index, offset }],
        ty,
    }
}
