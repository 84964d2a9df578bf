//! Lowering of a parsed translation unit to the IR: scopes, declarations, function bodies.
//!
//! Sub-modules: `ctype` (declaration specifiers and declarators to types, struct layout),
//! `expr` (expressions to side-effect-free IR expressions plus instructions), `stmt`
//! (statements to jumps), `init` (initialisers), `builtins` (SV-COMP and library calls),
//! `fold` (implicit conversions and constant folding), `decl` (declarations), `function`
//! (function definitions), `finish` (the program at the end).

mod atomic_objects;
mod builtins;
mod call;
mod cprover_async;
mod ctype;
mod decl;
mod detach;
mod expr;
mod finish;
mod float;
mod fold;
mod function;
mod init;
mod literal;
mod mutex_kinds;
mod operators;
mod place;
mod stmt;
mod thread_end;
mod vla;

use std::collections::HashMap;

use cranelift_entity::packed_option::ReservedValue;
use cranelift_entity::{EntityRef, PrimaryMap};
use lang_c::ast::*;
use lang_c::span::Span;

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
}
