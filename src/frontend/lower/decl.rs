//! Declarations: typedefs, function declarations, local and global variables.

use lang_c::ast::*;
use lang_c::span::Node;

use super::*;

impl Lowerer<'_> {
    pub fn declaration(&mut self, d: &Node<Declaration>, file_scope: bool) -> R<()> {
        self.set_loc(d.span);
        let spec = self.specifiers(&d.node.specifiers, d.span)?;
        for id in &d.node.declarators {
            self.set_loc(id.span);
            let local = !file_scope && !spec.typedef && !spec.is_static && !spec.is_extern;
            if local && self.variable_length_array(spec.ty, id)? {
                continue;
            }
            let (name, ty, _params) = self.declarator(spec.ty, &id.node.declarator, true)?;
            let Some(name) = name else {
                continue;
            };
            let shape = self.atomic_classify(spec.atomic, spec.ty, ty);
            if spec.typedef {
                self.bind(&name, Sym::Typedef(ty));
                self.atomic.typedefs.insert(name, shape);
                continue;
            }
            if matches!(self.types.get(ty), Type::Func { .. }) {
                let f = self.declare_func(&name, ty);
                self.bind(&name, Sym::Func(f));
                continue;
            }
            if self.types.is_void(ty) {
                return Err(self.invalid(id.span, format!("variable '{name}' declared void")));
            }
            if file_scope || spec.is_static || spec.is_extern {
                self.global_var(&name, ty, &spec, id, file_scope)?;
                if let Some(Sym::Var(v)) = self.lookup(&name).cloned() {
                    self.atomic_record(v, shape);
                }
            } else {
                let f = self.cur_func().unwrap_or(self.init_id);
                let v = self.new_var(&name, ty, VarKind::Local(f));
                self.atomic_record(v, shape);
                self.vars[v].thread_local = spec.thread_local;
                if spec.thread_local {
                    return Err(self.unsupported(id.span, "thread-local automatic variable"));
                }
                self.bind(&name, Sym::Var(v));
                self.emit(InstrKind::Decl(v));
                if let Some(init) = &id.node.initializer {
                    self.init_var(v, init, false)?;
                }
            }
        }
        Ok(())
    }

    fn global_var(
        &mut self,
        name: &str,
        ty: TypeId,
        spec: &ctype::Spec,
        id: &Node<InitDeclarator>,
        file_scope: bool,
    ) -> R<()> {
        // File-scope objects with linkage are one object however often declared.
        let existing = if file_scope || spec.is_extern {
            self.scopes[0].syms.get(name).cloned()
        } else {
            None
        };
        let v = match existing {
            Some(Sym::Var(v)) => {
                // A tentative or extern declaration completed later (e.g. `int a[];` → `int a[3];`).
                if self.types.size_of(self.vars[v].ty).is_none() {
                    self.vars[v].ty = ty;
                }
                v
            }
            _ => {
                let kind = match (file_scope, self.cur_func()) {
                    (false, Some(f)) if !spec.is_extern => VarKind::StaticLocal(f),
                    _ => VarKind::Global,
                };
                let v = self.new_var(name, ty, kind.clone());
                if kind == VarKind::Global {
                    self.scopes[0].syms.insert(name.to_string(), Sym::Var(v));
                }
                v
            }
        };
        if spec.thread_local {
            self.vars[v].thread_local = true;
        }
        self.bind(name, Sym::Var(v));
        if let Some(init) = &id.node.initializer {
            // Initialisers of globals and static locals run once, in the init function; those
            // of thread-local variables run for every thread, in the thread-local initialiser.
            let saved = self.func_cx.take();
            let saved_loc = self.loc;
            let tls = self.vars[v].thread_local;
            if tls {
                std::mem::swap(&mut self.init_instrs, &mut self.tls_instrs);
                self.file_fn = self.tls_init_id;
            }
            let r = self.init_var(v, init, true);
            if tls {
                std::mem::swap(&mut self.init_instrs, &mut self.tls_instrs);
                self.file_fn = self.init_id;
            }
            self.func_cx = saved;
            self.loc = saved_loc;
            r?;
            if tls && self.tls_instrs.iter().any(|i| self.writes_string(i)) {
                return Err(
                    self.unsupported(id.span, "string literal in a thread-local initialiser")
                );
            }
        }
        Ok(())
    }

    /// An initialisation of a string literal's array (which belongs to the global init).
    fn writes_string(&self, i: &Instr) -> bool {
        matches!(&i.kind, InstrKind::Assign { dst, .. }
            if matches!(dst.base, PlaceBase::Var(v) if self.vars[v].source_name.starts_with("$str")))
    }
}
