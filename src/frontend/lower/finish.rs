//! The end of lowering: the init body, calls of `main`, bodyless calls resolved, the [`Program`].

use std::collections::HashMap;

use cranelift_entity::EntityRef;

use super::*;

impl Lowerer<'_> {
    pub(super) fn finish(mut self) -> R<Program> {
        let init_instrs = std::mem::take(&mut self.init_instrs);
        let mut init_body = self.finish_body(init_instrs, &HashMap::new(), &[])?;
        init_body.instrs.push(Instr {
            kind: InstrKind::Return(None),
            loc: Loc::default(),
        });
        self.funcs[self.init_id].body = Some(init_body);
        let tls_instrs = std::mem::take(&mut self.tls_instrs);
        let mut tls_body = self.finish_body(tls_instrs, &HashMap::new(), &[])?;
        tls_body.instrs.push(Instr {
            kind: InstrKind::Return(None),
            loc: Loc::default(),
        });
        self.funcs[self.tls_init_id].body = Some(tls_body);
        self.thread_end_destructors()?;
        let external_calls = self.resolve_external_calls();
        let main = self
            .func_ids
            .get(&self.entry)
            .copied()
            .filter(|f| self.funcs[*f].body.is_some());
        if main.is_none() && self.entry != "main" {
            return Err(FrontendError::Input(format!(
                "entry function '{}' is not defined",
                self.entry
            )));
        }
        if let Some(m) = main {
            self.poison_calls_of_main(m);
        }
        let poisoned = std::mem::take(&mut self.poisoned);
        let self_detaches = std::mem::take(&mut self.detaches);
        let kinds = self.kinds;
        let mut prog = Program {
            types: self.types,
            vars: self.vars,
            funcs: self.funcs,
            props: self.props,
            alloc_sites: self.alloc_sites,
            files: self.map.files.clone(),
            init: self.init_id,
            tls_init: self.tls_init_id,
            main,
            external_calls,
            warnings: self.warnings,
        };
        let reach = prog.reachable_funcs();
        // Only calls that can run are worth a warning.
        let mut named = std::collections::HashSet::new();
        prog.external_calls
            .retain(|c| reach[c.caller.index()] && named.insert(c.name.clone()));
        if let Some((_, e)) = poisoned.into_iter().find(|(f, _)| reach[f.index()]) {
            return Err(e);
        }
        if let Some(e) = detach::detached_join(&prog, &reach, &self_detaches) {
            return Err(e);
        }
        if let Some(e) = mutex_kinds::kind_written(&prog, &reach, kinds.mutex_kinds) {
            return Err(e);
        }
        Ok(prog)
    }

    /// `main`'s first instructions give its parameters arbitrary values (see
    /// [`Self::main_arguments`]): right for the call by the environment, an unmarked
    /// over-approximation for a call by the program, which passes values of its own. A
    /// function that calls `main` or takes its address while `main` reads its parameters is
    /// therefore unsupported (an error when it is reachable).
    fn poison_calls_of_main(&mut self, main: FuncId) {
        let reads_params = self.funcs[main].body.as_ref().is_some_and(|b| {
            (0..self.main_entry.min(b.instrs.len()))
                .any(|i| !matches!(b.instrs[InstrId::new(i)].kind, InstrKind::Skip))
        });
        if !reads_params {
            return;
        }
        for (caller, f) in self.funcs.iter() {
            let Some(body) = &f.body else { continue };
            let site = body.instrs.values().find(|ins| {
                let mut refers = matches!(
                    ins.kind,
                    InstrKind::Call { callee: Callee::Direct(g), .. } if g == main
                );
                ins.kind.walk_exprs(&mut |e| {
                    refers |= matches!(e.kind, ExprKind::FuncAddr(g) if g == main);
                });
                refers
            });
            if let Some(ins) = site {
                let err = FrontendError::Unsupported(format!(
                    "{}:{}: unsupported: a call of main, which reads its parameters",
                    self.map.file_name(ins.loc.file),
                    ins.loc.line
                ));
                self.poisoned.push((caller, err));
            }
        }
    }

    /// Applies the policy for functions without a body: the call becomes `Nondet` of the
    /// result (or `Skip`); each (callee, caller) pair is listed once. A call that passes a
    /// pointer to a function not on the read-only list (`builtins::READ_ONLY`) may write
    /// through it, which that policy would silently drop: it makes the caller unsupported
    /// (an error when the caller is reachable).
    pub(super) fn resolve_external_calls(&mut self) -> Vec<ExternalCall> {
        let mut seen: std::collections::HashSet<(FuncId, FuncId)> = Default::default();
        let mut list = Vec::new();
        let has_body: Vec<bool> = self.funcs.values().map(|f| f.body.is_some()).collect();
        let names: Vec<String> = self.funcs.values().map(|f| f.name.clone()).collect();
        for (caller, f) in self.funcs.iter_mut() {
            let Some(body) = &mut f.body else { continue };
            for ins in body.instrs.values_mut() {
                let InstrKind::Call {
                    dst,
                    callee: Callee::Direct(g),
                    ..
                } = &ins.kind
                else {
                    continue;
                };
                if has_body[g.index()] {
                    continue;
                }
                let g = *g;
                let name = &names[g.index()];
                let InstrKind::Call { args, .. } = &ins.kind else {
                    unreachable!()
                };
                if !builtins::READ_ONLY.contains(&name.as_str())
                    && args.iter().any(|a| may_carry_pointer(&self.types, a))
                {
                    let at = format!("{}:{}", self.map.file_name(ins.loc.file), ins.loc.line);
                    self.poisoned.push((
                        caller,
                        FrontendError::BodylessCall {
                            name: name.clone(),
                            at,
                        },
                    ));
                }
                ins.kind = match dst {
                    Some(d) => InstrKind::Nondet { dst: d.clone() },
                    None => InstrKind::Skip,
                };
                if seen.insert((g, caller)) {
                    list.push(ExternalCall {
                        name: names[g.index()].clone(),
                        loc: ins.loc,
                        caller,
                    });
                }
            }
        }
        list
    }
}

/// Whether an argument may carry a pointer to the program's memory: a value whose type holds
/// a data pointer (itself, or a member of a struct or array passed by value), or an integer
/// converted from one. Function pointers do not (a function cannot be written).
fn may_carry_pointer(types: &Types, e: &Expr) -> bool {
    holds_data_pointer(types, e.ty)
        || match &e.kind {
            ExprKind::Cast(x) => may_carry_pointer(types, x),
            _ => false,
        }
}

/// Whether a value of type `t` holds a data pointer.
fn holds_data_pointer(types: &Types, t: TypeId) -> bool {
    match types.get(t) {
        Type::Pointer(p) => !matches!(types.get(*p), Type::Func { .. }),
        Type::Array { elem, .. } => holds_data_pointer(types, *elem),
        Type::Struct(s) => types.structs[*s]
            .fields
            .iter()
            .any(|f| holds_data_pointer(types, f.ty)),
        _ => false,
    }
}
