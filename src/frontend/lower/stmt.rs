//! Statements: structured control flow becomes conditional and unconditional jumps.

use lang_c::ast::*;
use lang_c::span::Node;

use super::{Lowerer, SwitchCtx, R};
use crate::ir::*;

/// Case labels of a switch body in source order (nested switches excluded); `None` = default.
fn collect_cases<'s>(s: &'s Statement, out: &mut Vec<Option<&'s Node<Label>>>) {
    match s {
        Statement::Labeled(l) => {
            match &l.node.label.node {
                Label::Case(_) | Label::CaseRange(_) => out.push(Some(&l.node.label)),
                Label::Default => out.push(None),
                Label::Identifier(_) => {}
            }
            collect_cases(&l.node.statement.node, out);
        }
        Statement::Compound(items) => {
            for it in items {
                if let BlockItem::Statement(st) = &it.node {
                    collect_cases(&st.node, out);
                }
            }
        }
        Statement::If(i) => {
            collect_cases(&i.node.then_statement.node, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(&e.node, out);
            }
        }
        Statement::While(w) => collect_cases(&w.node.statement.node, out),
        Statement::DoWhile(w) => collect_cases(&w.node.statement.node, out),
        Statement::For(f) => collect_cases(&f.node.statement.node, out),
        Statement::Switch(_) => {}
        _ => {}
    }
}

impl<'a> Lowerer<'a> {
    pub(crate) fn block_item(&mut self, it: &Node<BlockItem>) -> R<()> {
        match &it.node {
            BlockItem::Declaration(d) => self.declaration(d, false),
            BlockItem::StaticAssert(_) => Ok(()),
            BlockItem::Statement(s) => self.statement(s),
        }
    }

    fn cond_value(&mut self, e: &Node<Expression>) -> R<Expr> {
        let c = self.rvalue(e)?;
        if !self.types.is_scalar(c.ty) {
            return Err(self.invalid(e.span, "condition of non-scalar type"));
        }
        Ok(self.truth(c))
    }

    /// Emits `if !cond goto <patch>`; `None` when the condition is constantly true.
    fn jump_unless(&mut self, cond: Expr) -> Option<usize> {
        match cond.as_const() {
            Some(v) if v != 0 => None,
            Some(_) => Some(self.emit_jump(None)),
            None => {
                let int = self.types.int32();
                let n = self.unary(UnOp::LogNot, cond, int);
                Some(self.emit_jump(Some(n)))
            }
        }
    }

    pub(crate) fn statement(&mut self, s: &Node<Statement>) -> R<()> {
        self.set_loc(s.span);
        match &s.node {
            Statement::Labeled(l) => {
                match &l.node.label.node {
                    Label::Identifier(id)
                        if id.node.name.starts_with(super::cprover_async::ASYNC_PREFIX) =>
                    {
                        self.emit(InstrKind::Skip);
                        return self.async_statement(&l.node.statement, l.span);
                    }
                    Label::Identifier(id) => {
                        let here = self.pos();
                        if let Some(cx) = &mut self.func_cx {
                            if cx.labels.insert(id.node.name.clone(), here).is_some() {
                                return Err(self.invalid(
                                    l.span,
                                    format!("duplicate label '{}'", id.node.name),
                                ));
                            }
                        }
                        if self.error_label.as_deref() == Some(id.node.name.as_str()) {
                            // `--error-label`: reaching the labelled statement is the error, as
                            // a `reach_error()` call there would be.
                            self.emit(InstrKind::Skip);
                            let prop = self.new_prop(PropKind::ReachError);
                            let int = self.types.int32();
                            self.emit(InstrKind::Assert {
                                cond: Expr::constant(0, int),
                                prop,
                            });
                        }
                    }
                    Label::Case(_) | Label::CaseRange(_) => {
                        let here = self.pos();
                        let j = match self.func_cx.as_mut().and_then(|c| c.switches.last_mut()) {
                            Some(sw) => {
                                let j = sw.case_jumps.get(sw.next_case).copied();
                                sw.next_case += 1;
                                j
                            }
                            None => None,
                        };
                        match j {
                            Some(j) => self.patch(j, here),
                            None => return Err(self.invalid(l.span, "case label outside a switch")),
                        }
                    }
                    Label::Default => {
                        let here = self.pos();
                        let j = self
                            .func_cx
                            .as_mut()
                            .and_then(|c| c.switches.last_mut())
                            .map(|sw| sw.default_jump);
                        match j {
                            Some(j) => self.patch(j, here),
                            None => {
                                return Err(self.invalid(l.span, "default label outside a switch"))
                            }
                        }
                    }
                }
                self.emit(InstrKind::Skip);
                self.statement(&l.node.statement)
            }
            Statement::Compound(items) => {
                self.push_scope();
                let r = items.iter().try_for_each(|it| self.block_item(it));
                self.pop_scope();
                r
            }
            Statement::Expression(Some(e)) => self.discard(e),
            Statement::Expression(None) => Ok(()),
            Statement::If(i) => {
                let c = self.cond_value(&i.node.condition)?;
                let to_else = self.jump_unless(c);
                self.statement(&i.node.then_statement)?;
                match &i.node.else_statement {
                    Some(e) => {
                        let to_end = self.emit_jump(None);
                        if let Some(j) = to_else {
                            self.patch_here(j);
                        }
                        self.statement(e)?;
                        self.patch_here(to_end);
                    }
                    None => {
                        if let Some(j) = to_else {
                            self.patch_here(j);
                        }
                    }
                }
                self.emit(InstrKind::Skip);
                Ok(())
            }
            Statement::While(w) => {
                let head = self.pos();
                self.emit(InstrKind::Skip);
                let c = self.cond_value(&w.node.expression)?;
                let exit = self.jump_unless(c);
                self.loop_body(&w.node.statement, head, exit, |_| Ok(()))
            }
            Statement::DoWhile(w) => {
                let head = self.pos();
                self.emit(InstrKind::Skip);
                self.enter_loop();
                self.statement(&w.node.statement)?;
                let (breaks, conts) = self.leave_loop();
                for j in conts {
                    self.patch_here(j);
                }
                self.set_loc(w.node.expression.span);
                let c = self.cond_value(&w.node.expression)?;
                match c.as_const() {
                    Some(0) => {}
                    Some(_) => {
                        self.emit_jump_to(head, None);
                    }
                    None => {
                        self.emit_jump_to(head, Some(c));
                    }
                }
                for j in breaks {
                    self.patch_here(j);
                }
                self.emit(InstrKind::Skip);
                Ok(())
            }
            Statement::For(f) => {
                self.push_scope();
                let r = (|| {
                    match &f.node.initializer.node {
                        ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                        ForInitializer::Expression(e) => self.discard(e)?,
                        ForInitializer::Declaration(d) => self.declaration(d, false)?,
                    }
                    let head = self.pos();
                    self.emit(InstrKind::Skip);
                    let exit = match &f.node.condition {
                        Some(c) => {
                            let c = self.cond_value(c)?;
                            self.jump_unless(c)
                        }
                        None => None,
                    };
                    let step = f.node.step.as_deref();
                    self.loop_body(&f.node.statement, head, exit, |lw| match step {
                        Some(st) => {
                            lw.set_loc(st.span);
                            lw.discard(st)
                        }
                        None => Ok(()),
                    })
                })();
                self.pop_scope();
                r
            }
            Statement::Goto(l) => {
                let j = self.emit_jump(None);
                if let Some(cx) = &mut self.func_cx {
                    cx.gotos.push((j, l.node.name.clone(), l.span));
                }
                Ok(())
            }
            Statement::Continue => {
                let j = self.emit_jump(None);
                match self.func_cx.as_mut().and_then(|c| c.continues.last_mut()) {
                    Some(v) => {
                        v.push(j);
                        Ok(())
                    }
                    None => Err(self.invalid(s.span, "continue outside a loop")),
                }
            }
            Statement::Break => {
                let j = self.emit_jump(None);
                match self.func_cx.as_mut().and_then(|c| c.breaks.last_mut()) {
                    Some(v) => {
                        v.push(j);
                        Ok(())
                    }
                    None => Err(self.invalid(s.span, "break outside a loop or switch")),
                }
            }
            Statement::Return(e) => {
                let ret = self
                    .cur_func()
                    .map(|f| self.funcs[f].ret)
                    .unwrap_or_else(|| self.types.void());
                match e {
                    Some(e) => {
                        if self.types.is_void(ret) {
                            self.discard(e)?;
                            self.emit(InstrKind::Return(None));
                        } else {
                            let v = self.rvalue(e)?;
                            let v = self.assign_convert(v, ret, e.span)?;
                            self.emit(InstrKind::Return(Some(v)));
                        }
                    }
                    None => {
                        self.emit(InstrKind::Return(None));
                    }
                }
                Ok(())
            }
            Statement::Switch(sw) => self.switch(&sw.node),
            Statement::Asm(a) => {
                // An empty asm (a compiler barrier) does nothing under sequential consistency.
                let template = match &a.node {
                    AsmStatement::GnuBasic(t) => &t.node,
                    AsmStatement::GnuExtended(x) => &x.template.node,
                };
                if template
                    .iter()
                    .all(|p| p.trim_matches('"').trim().is_empty())
                {
                    self.emit(InstrKind::Skip);
                    Ok(())
                } else {
                    Err(self.unsupported(s.span, "inline assembly"))
                }
            }
        }
    }

    fn enter_loop(&mut self) {
        if let Some(cx) = &mut self.func_cx {
            cx.breaks.push(Vec::new());
            cx.continues.push(Vec::new());
        }
    }

    fn leave_loop(&mut self) -> (Vec<usize>, Vec<usize>) {
        match &mut self.func_cx {
            Some(cx) => (
                cx.breaks.pop().unwrap_or_default(),
                cx.continues.pop().unwrap_or_default(),
            ),
            None => (Vec::new(), Vec::new()),
        }
    }

    /// Body, continue target (`step`), back edge to `head`, exit.
    fn loop_body(
        &mut self,
        body: &Node<Statement>,
        head: usize,
        exit: Option<usize>,
        step: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        self.enter_loop();
        let r = self.statement(body);
        let (breaks, conts) = self.leave_loop();
        r?;
        for j in conts {
            self.patch_here(j);
        }
        step(self)?;
        self.emit_jump_to(head, None);
        if let Some(j) = exit {
            self.patch_here(j);
        }
        for j in breaks {
            self.patch_here(j);
        }
        self.emit(InstrKind::Skip);
        Ok(())
    }

    fn switch(&mut self, sw: &SwitchStatement) -> R<()> {
        let v = self.rvalue(&sw.expression)?;
        if !self.types.is_integer(v.ty) {
            return Err(self.invalid(sw.expression.span, "switch on a non-integer"));
        }
        let v = self.promote(v);
        let v = self.freeze(v);
        let mut labels = Vec::new();
        collect_cases(&sw.statement.node, &mut labels);
        let int = self.types.int32();
        let mut case_jumps = Vec::new();
        let mut has_default = false;
        for l in &labels {
            match l {
                Some(l) => {
                    let cond = match &l.node {
                        Label::Case(e) => {
                            let k = self.const_int(e)? as u64;
                            let k =
                                Expr::constant(super::fold::normalize(&self.types, k, v.ty), v.ty);
                            self.binary(BinOp::Eq, v.clone(), k, int)
                        }
                        Label::CaseRange(r) => {
                            let lo = self.const_int(&r.node.low)? as u64;
                            let hi = self.const_int(&r.node.high)? as u64;
                            let lo = Expr::constant(lo, v.ty);
                            let hi = Expr::constant(hi, v.ty);
                            let s = self.types.is_signed(v.ty);
                            let a = self.binary(
                                if s { BinOp::SGe } else { BinOp::UGe },
                                v.clone(),
                                lo,
                                int,
                            );
                            let b = self.binary(
                                if s { BinOp::SLe } else { BinOp::ULe },
                                v.clone(),
                                hi,
                                int,
                            );
                            self.binary(BinOp::LogAnd, a, b, int)
                        }
                        _ => continue,
                    };
                    case_jumps.push(self.emit_jump(Some(cond)));
                }
                None => has_default = true,
            }
        }
        let default_jump = self.emit_jump(None);
        if let Some(cx) = &mut self.func_cx {
            cx.switches.push(SwitchCtx {
                case_jumps,
                next_case: 0,
                default_jump,
                has_default,
            });
            cx.breaks.push(Vec::new());
        }
        let r = self.statement(&sw.statement);
        let (ctx, breaks) = match &mut self.func_cx {
            Some(cx) => (cx.switches.pop(), cx.breaks.pop().unwrap_or_default()),
            None => (None, Vec::new()),
        };
        r?;
        for j in breaks {
            self.patch_here(j);
        }
        if let Some(ctx) = ctx {
            if !ctx.has_default {
                self.patch_here(ctx.default_jump);
            }
        }
        self.emit(InstrKind::Skip);
        Ok(())
    }
}
