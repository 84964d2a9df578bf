//! Lowering of a parsed translation unit to the IR: scopes, declarations, function bodies.
//!
//! Sub-modules: `ctype` (declaration specifiers and declarators to types, struct layout),
//! `expr` (expressions to side-effect-free IR expressions plus instructions), `stmt`
//! (statements to jumps), `init` (initialisers), `builtins` (SV-COMP and library calls),
//! `fold` (implicit conversions and constant folding).

mod atomic_objects;
mod builtins;
mod call;
mod cprover_async;
mod ctype;
mod detach;
mod expr;
mod float;
mod fold;
mod init;
mod mutex_kinds;
mod stmt;
mod thread_end;
mod vla;

use std::collections::HashMap;

use cranelift_entity::packed_option::ReservedValue;
use cranelift_entity::{EntityRef, PrimaryMap};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::error::FrontendError;
use super::source_map::SourceMap;
use crate::ir::*;

pub(crate) type R<T> = Result<T, FrontendError>;

/// What an ordinary identifier names in a scope.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Var(VarId),
    Func(FuncId),
    EnumConst(u64, TypeId),
    Typedef(TypeId),
}

#[derive(Clone, Debug)]
pub(crate) enum Tag {
    Struct(StructId),
    Enum(TypeId),
}

#[derive(Default)]
pub(crate) struct Scope {
    syms: HashMap<String, Sym>,
    tags: HashMap<String, Tag>,
}

/// Jump whose target is filled in later.
pub(crate) type Patch = usize;

/// Per-function lowering state.
pub(crate) struct FnCtx {
    pub id: FuncId,
    pub instrs: Vec<Instr>,
    pub labels: HashMap<String, usize>,
    pub gotos: Vec<(usize, String, Span)>,
    pub breaks: Vec<Vec<Patch>>,
    pub continues: Vec<Vec<Patch>>,
    /// Per enclosing switch: the jumps to its cases in source order, and the default.
    pub switches: Vec<SwitchCtx>,
    pub locals: Vec<VarId>,
}

impl FnCtx {
    /// The state at the start of the body of function `id`.
    pub fn new(id: FuncId) -> FnCtx {
        FnCtx {
            id,
            instrs: Vec::new(),
            labels: HashMap::new(),
            gotos: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            locals: Vec::new(),
        }
    }
}

pub(crate) struct SwitchCtx {
    pub case_jumps: Vec<Patch>,
    pub next_case: usize,
    pub default_jump: Patch,
    pub has_default: bool,
}

pub(crate) struct Lowerer<'a> {
    pub map: &'a SourceMap,
    pub types: Types,
    pub vars: PrimaryMap<VarId, VarData>,
    pub funcs: PrimaryMap<FuncId, Function>,
    pub props: PrimaryMap<PropId, Property>,
    pub alloc_sites: u32,
    pub scopes: Vec<Scope>,
    /// File-scope functions by name (functions have linkage: one id per name).
    pub func_ids: HashMap<String, FuncId>,
    pub func_cx: Option<FnCtx>,
    /// Instructions of the global initialiser function.
    pub init_instrs: Vec<Instr>,
    pub init_id: FuncId,
    /// Instructions of the thread-local initialiser function.
    pub tls_instrs: Vec<Instr>,
    pub tls_init_id: FuncId,
    /// The synthetic function file-scope code goes to (`init_id`, or `tls_init_id` while a
    /// thread-local initialiser is lowered).
    pub file_fn: FuncId,
    pub loc: Loc,
    pub anon: u32,
    pub var_names: HashMap<String, u32>,
    pub strings: u32,
    pub warnings: Vec<String>,
    /// The spelling that stands for `$` in identifiers (see `preprocess::rewrite_tokens`).
    pub dollar: Option<String>,
    /// Functions whose body could not be lowered: an error only if reachable.
    pub poisoned: Vec<(FuncId, FrontendError)>,
    /// Instructions [`Lowerer::main_arguments`] put at the entry of `main`.
    main_entry: usize,
    /// Names of the functions the program defines (with a body), anywhere in the unit.
    pub defined: std::collections::HashSet<String>,
    /// Globals modelling pthread thread-specific data, created on first use.
    pub key_vars: Option<builtins::KeyVars>,
    /// Where threads are detached: the function and a description (see [`detach`]).
    pub detaches: Vec<(FuncId, String)>,
    /// The pointer type an allocation call being lowered is cast to (`(T *) malloc(n)`): its
    /// result is given that type, so that symbolic execution lays the heap object out as
    /// `T`s (fields at their offsets in the data model) rather than as untyped memory. Only a
    /// hint of layout: the object is the same, and an access at another type is still checked.
    pub alloc_hint: Option<TypeId>,
    /// Variables that stand for a variable-length array: pointers to its first element.
    pub vla_vars: std::collections::HashSet<VarId>,
    /// Layout attributes (packed, aligned) of the declaration whose specifiers are being read.
    pub pending_struct_attrs: Option<(bool, Option<u64>)>,
    /// The entry point (`main`, or `--function`'s).
    pub entry: String,
    /// `--error-label`: the label whose statement is the error.
    pub error_label: Option<String>,
    /// What is known of `_Atomic` objects (see `atomic_objects`).
    pub atomic: atomic_objects::AtomicInfo,
    /// Whether mutexes may have kinds and attribute objects keep detach states (see
    /// `mutex_kinds`).
    pub kinds: mutex_kinds::KindUse,
}

pub fn lower_unit(
    unit: &TranslationUnit,
    map: &SourceMap,
    model: DataModel,
    dollar: Option<&str>,
    options: &super::FrontendOptions,
) -> R<Program> {
    let mut types = Types::new(model);
    let void = types.void();
    let init_ty = types.intern(Type::Func {
        ret: void,
        params: vec![],
        variadic: false,
    });
    let mut funcs = PrimaryMap::new();
    let init_id = funcs.push(Function {
        name: "__yogar_init_globals".into(),
        ty: init_ty,
        ret: void,
        params: vec![],
        locals: vec![],
        body: None,
        atomic: false,
        loc: Loc::default(),
    });
    let tls_init_id = funcs.push(Function {
        name: "__yogar_init_thread_locals".into(),
        ty: init_ty,
        ret: void,
        params: vec![],
        locals: vec![],
        body: None,
        atomic: false,
        loc: Loc::default(),
    });
    let mut lw = Lowerer {
        map,
        types,
        vars: PrimaryMap::new(),
        funcs,
        props: PrimaryMap::new(),
        alloc_sites: 0,
        scopes: vec![Scope::default()],
        func_ids: HashMap::new(),
        func_cx: None,
        init_instrs: Vec::new(),
        init_id,
        tls_instrs: Vec::new(),
        tls_init_id,
        file_fn: init_id,
        loc: Loc::default(),
        anon: 0,
        var_names: HashMap::new(),
        strings: 0,
        warnings: Vec::new(),
        dollar: dollar.map(str::to_string),
        poisoned: Vec::new(),
        main_entry: 0,
        alloc_hint: None,
        defined: defined_functions(unit),
        key_vars: None,
        detaches: Vec::new(),
        vla_vars: Default::default(),
        pending_struct_attrs: None,
        entry: options.entry.clone().unwrap_or_else(|| "main".to_string()),
        error_label: options.error_label.clone(),
        atomic: Default::default(),
        kinds: mutex_kinds::uses_mutex_kinds(unit),
    };
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => lw.declaration(d, true)?,
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(fd) => lw.function_definition(fd)?,
        }
    }
    lw.finish()
}

/// The names of all function definitions of the unit.
fn defined_functions(unit: &TranslationUnit) -> std::collections::HashSet<String> {
    fn name(d: &Declarator) -> Option<&str> {
        match &d.kind.node {
            DeclaratorKind::Identifier(id) => Some(&id.node.name),
            DeclaratorKind::Declarator(inner) => name(&inner.node),
            DeclaratorKind::Abstract => None,
        }
    }
    unit.0
        .iter()
        .filter_map(|e| match &e.node {
            ExternalDeclaration::FunctionDefinition(fd) => {
                name(&fd.node.declarator.node).map(str::to_string)
            }
            _ => None,
        })
        .collect()
}

impl<'a> Lowerer<'a> {
    // ----- locations and errors -----

    pub fn set_loc(&mut self, span: Span) {
        if !span.is_none() {
            let (f, l, _) = self.map.locate(span.start);
            self.loc = Loc { file: f, line: l };
        }
    }

    pub fn where_(&self, span: Span) -> String {
        if span.is_none() {
            return format!("{}:{}", self.map.file_name(self.loc.file), self.loc.line);
        }
        let (f, l, _) = self.map.locate(span.start);
        format!("{}:{}", self.map.file_name(f), l)
    }

    pub fn unsupported(&self, span: Span, what: impl AsRef<str>) -> FrontendError {
        FrontendError::Unsupported(format!(
            "{}: unsupported: {}",
            self.where_(span),
            what.as_ref()
        ))
    }

    pub fn invalid(&self, span: Span, what: impl AsRef<str>) -> FrontendError {
        FrontendError::Invalid(format!("{}: error: {}", self.where_(span), what.as_ref()))
    }

    // ----- scopes -----

    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.syms.get(name))
    }

    pub fn lookup_tag(&self, name: &str) -> Option<&Tag> {
        self.scopes.iter().rev().find_map(|s| s.tags.get(name))
    }

    pub fn bind(&mut self, name: &str, sym: Sym) {
        if let Some(s) = self.scopes.last_mut() {
            s.syms.insert(name.to_string(), sym);
        }
    }

    pub fn bind_tag(&mut self, name: &str, tag: Tag) {
        if let Some(s) = self.scopes.last_mut() {
            s.tags.insert(name.to_string(), tag);
        }
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub fn at_file_scope(&self) -> bool {
        self.func_cx.is_none()
    }

    // ----- instructions -----

    fn instrs_mut(&mut self) -> &mut Vec<Instr> {
        match &mut self.func_cx {
            Some(cx) => &mut cx.instrs,
            None => &mut self.init_instrs,
        }
    }

    pub fn pos(&self) -> usize {
        match &self.func_cx {
            Some(cx) => cx.instrs.len(),
            None => self.init_instrs.len(),
        }
    }

    pub fn truncate(&mut self, len: usize) {
        self.instrs_mut().truncate(len);
    }

    pub fn emit(&mut self, kind: InstrKind) -> usize {
        let loc = self.loc;
        let v = self.instrs_mut();
        v.push(Instr { kind, loc });
        v.len() - 1
    }

    /// Emits a jump with its target to be patched.
    pub fn emit_jump(&mut self, cond: Option<Expr>) -> Patch {
        self.emit(InstrKind::Goto {
            target: InstrId::reserved_value(),
            cond,
            back_edge: None,
        })
    }

    /// Emits a jump to a known position.
    pub fn emit_jump_to(&mut self, target: usize, cond: Option<Expr>) -> usize {
        self.emit(InstrKind::Goto {
            target: InstrId::new(target),
            cond,
            back_edge: None,
        })
    }

    pub fn patch(&mut self, p: Patch, target: usize) {
        if let Some(Instr {
            kind: InstrKind::Goto { target: t, .. },
            ..
        }) = self.instrs_mut().get_mut(p)
        {
            *t = InstrId::new(target);
        }
    }

    /// Replaces the instruction at `at` (a placeholder emitted earlier).
    pub fn set_instr(&mut self, at: usize, kind: InstrKind) {
        if let Some(ins) = self.instrs_mut().get_mut(at) {
            ins.kind = kind;
        }
    }

    pub fn patch_here(&mut self, p: Patch) {
        let here = self.pos();
        self.patch(p, here);
    }

    // ----- variables -----

    /// The source spelling of an identifier (undoing the `$` rewrite).
    pub fn source_spelling(&self, name: &str) -> String {
        match &self.dollar {
            Some(m) if name.contains(m.as_str()) => name.replace(m.as_str(), "$"),
            _ => name.to_string(),
        }
    }

    fn unique_name(&mut self, base: String) -> String {
        let n = self.var_names.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base
        } else {
            format!("{base}#{n}")
        }
    }

    pub fn new_var(&mut self, source_name: &str, ty: TypeId, kind: VarKind) -> VarId {
        let source_name = &self.source_spelling(source_name);
        let qual = match &kind {
            VarKind::Global => source_name.to_string(),
            VarKind::StaticLocal(f) | VarKind::Param(f) | VarKind::Local(f) | VarKind::Temp(f) => {
                format!("{}::{}", self.funcs[*f].name, source_name)
            }
        };
        let name = self.unique_name(qual);
        let in_fn = matches!(&kind, VarKind::Local(_) | VarKind::Temp(_));
        let v = self.vars.push(VarData {
            name,
            source_name: source_name.to_string(),
            ty,
            kind,
            thread_local: false,
            address_taken: false,
            loc: self.loc,
        });
        if in_fn {
            if let Some(cx) = &mut self.func_cx {
                cx.locals.push(v);
            }
        }
        v
    }

    /// A fresh temporary of the current function (of the initialiser at file scope).
    pub fn temp(&mut self, ty: TypeId) -> Place {
        let f = self.func_cx.as_ref().map_or(self.file_fn, |c| c.id);
        let kind = VarKind::Temp(f);
        let v = self.new_var("$tmp", ty, kind);
        if self.func_cx.is_none() {
            self.funcs[self.file_fn].locals.push(v);
        }
        Place::var(v, ty)
    }

    pub fn cur_func(&self) -> Option<FuncId> {
        self.func_cx.as_ref().map(|c| c.id)
    }

    // ----- declarations -----

    /// Finds or creates the function `name` of type `ty` (a `Type::Func`).
    pub fn declare_func(&mut self, name: &str, ty: TypeId) -> FuncId {
        if let Some(&f) = self.func_ids.get(name) {
            // A later prototype may complete an old-style declaration.
            if let Type::Func { params, .. } = self.types.get(ty).clone() {
                if !params.is_empty() {
                    self.funcs[f].ty = ty;
                }
            }
            return f;
        }
        let ret = match self.types.get(ty) {
            Type::Func { ret, .. } => *ret,
            _ => self.types.int32(),
        };
        let f = self.funcs.push(Function {
            name: self.source_spelling(name),
            ty,
            ret,
            params: vec![],
            locals: vec![],
            body: None,
            atomic: name.starts_with("__VERIFIER_atomic_")
                && name != "__VERIFIER_atomic_begin"
                && name != "__VERIFIER_atomic_end",
            loc: self.loc,
        });
        self.func_ids.insert(name.to_string(), f);
        f
    }

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

    fn function_definition(&mut self, fd: &Node<FunctionDefinition>) -> R<()> {
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
    fn main_arguments(&mut self, f: FuncId, is_main: bool) -> usize {
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
    fn finish_body(
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

    fn finish(mut self) -> R<Program> {
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
    fn resolve_external_calls(&mut self) -> Vec<ExternalCall> {
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
