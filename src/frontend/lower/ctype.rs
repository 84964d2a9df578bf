//! Declaration specifiers and declarators to IR types; struct, union and enum definitions.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::{Lowerer, Sym, Tag, R};
use crate::ir::types::MemberSpec;
use crate::ir::{Expr, Type, TypeId};

/// What an `_Atomic` object that `atomic_objects` does not track is reported as.
const ATOMIC: &str = "_Atomic struct member or atomic pointer object (int *_Atomic)";

/// The result of reading declaration specifiers.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub ty: TypeId,
    pub typedef: bool,
    pub is_static: bool,
    pub is_extern: bool,
    pub thread_local: bool,
    /// What the specifiers say of `_Atomic` (see `atomic_objects`).
    pub atomic: super::atomic_objects::Shape,
}

/// Parameter names of the function declarator next to the declared name.
pub(crate) type ParamNames = Option<Vec<Option<String>>>;

#[derive(Default)]
struct Counts {
    void: bool,
    bool_: bool,
    char_: bool,
    short: bool,
    int: bool,
    long: u32,
    signed: bool,
    unsigned: bool,
    float: bool,
    double: bool,
    complex: bool,
    named: Option<TypeId>,
}

impl<'a> Lowerer<'a> {
    pub(crate) fn specifiers(
        &mut self,
        specs: &[Node<DeclarationSpecifier>],
        span: Span,
    ) -> R<Spec> {
        let mut c = Counts::default();
        let mut spec = Spec {
            ty: TypeId::from_u32(0),
            typedef: false,
            is_static: false,
            is_extern: false,
            thread_local: false,
            atomic: super::atomic_objects::Shape::PLAIN,
        };
        let outer = self.atomic_spec_start();
        let mut mode = None;
        // `struct {...} __attribute__((packed, aligned(N)))`: the attributes follow the struct
        // specifier in the list, but its layout needs them.
        let mut attrs = (false, None);
        for s in specs {
            if let DeclarationSpecifier::Extension(ext) = &s.node {
                let (p, a) = self.layout_attrs(ext);
                attrs.0 |= p;
                attrs.1 = attrs.1.max(a);
            }
        }
        self.pending_struct_attrs = Some(attrs);
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(sc) => match sc.node {
                    StorageClassSpecifier::Typedef => spec.typedef = true,
                    StorageClassSpecifier::Static => spec.is_static = true,
                    StorageClassSpecifier::Extern => spec.is_extern = true,
                    StorageClassSpecifier::ThreadLocal => spec.thread_local = true,
                    StorageClassSpecifier::Auto | StorageClassSpecifier::Register => {}
                },
                DeclarationSpecifier::TypeSpecifier(ts) => self.type_specifier(&mut c, ts)?,
                DeclarationSpecifier::Extension(ext) => {
                    if let Some(m) = self.mode_attribute(ext) {
                        mode = Some(m);
                    }
                }
                DeclarationSpecifier::TypeQualifier(q) => self.qualifier(q)?,
                DeclarationSpecifier::Function(_) | DeclarationSpecifier::Alignment(_) => {}
            }
        }
        self.pending_struct_attrs = None;
        spec.ty = self.combine(&c, span)?;
        if let Some(bits) = mode {
            spec.ty = self.apply_mode(spec.ty, bits);
        }
        spec.atomic = self.atomic_spec_end(spec.ty, outer);
        Ok(spec)
    }

    pub(crate) fn specifier_qualifiers(
        &mut self,
        specs: &[Node<SpecifierQualifier>],
        span: Span,
    ) -> R<TypeId> {
        let mut c = Counts::default();
        let outer = self.atomic_spec_start();
        let mut attrs = (false, None);
        for s in specs {
            if let SpecifierQualifier::Extension(ext) = &s.node {
                let (p, a) = self.layout_attrs(ext);
                attrs.0 |= p;
                attrs.1 = attrs.1.max(a);
            }
        }
        self.pending_struct_attrs = Some(attrs);
        for s in specs {
            match &s.node {
                SpecifierQualifier::TypeSpecifier(ts) => self.type_specifier(&mut c, ts)?,
                SpecifierQualifier::TypeQualifier(q) => self.qualifier(q)?,
                SpecifierQualifier::Extension(_) => {}
            }
        }
        self.pending_struct_attrs = None;
        let ty = self.combine(&c, span)?;
        self.atomic_spec_end(ty, outer);
        Ok(ty)
    }

    /// `const`, `volatile`, `restrict` and the like change nothing the verifier models (under
    /// sequential consistency every access is already a visible event). `_Atomic` does: a
    /// compound assignment or `++` on an atomic object is one indivisible read-modify-write
    /// (`atomic_objects` tracks which objects are atomic).
    fn qualifier(&mut self, q: &Node<TypeQualifier>) -> R<()> {
        if q.node == TypeQualifier::Atomic {
            self.atomic.seen = true;
        }
        Ok(())
    }

    fn mode_attribute(&self, ext: &[Node<Extension>]) -> Option<u8> {
        for e in ext {
            if let Extension::Attribute(a) = &e.node {
                let n = a.name.node.trim_matches('_');
                if n == "mode" {
                    if let Some(Expression::Identifier(id)) = a.arguments.first().map(|x| &x.node) {
                        return match id.node.name.trim_matches('_') {
                            "QI" | "byte" => Some(8),
                            "HI" => Some(16),
                            "SI" => Some(32),
                            "DI" => Some(64),
                            "word" | "pointer" => Some(self.types.ptr_bits()),
                            _ => None,
                        };
                    }
                }
            }
        }
        None
    }

    /// `packed` and `aligned(N)` among attributes (`aligned` alone: the largest alignment).
    fn layout_attrs(&mut self, ext: &[Node<Extension>]) -> (bool, Option<u64>) {
        let mut packed = false;
        let mut align = None;
        for e in ext {
            let Extension::Attribute(a) = &e.node else {
                continue;
            };
            match a.name.node.trim_matches('_') {
                "packed" => packed = true,
                "aligned" => {
                    let n = match a.arguments.first() {
                        Some(x) => self.try_const_int(x).ok().flatten().map(|v| v as u64),
                        None => Some(16),
                    };
                    align = align.max(n);
                }
                _ => {}
            }
        }
        (packed, align)
    }

    fn apply_mode(&mut self, ty: TypeId, bits: u8) -> TypeId {
        match self.types.get(ty).clone() {
            Type::Int { signed, .. } => self.types.int(bits, signed),
            _ => ty,
        }
    }

    fn type_specifier(&mut self, c: &mut Counts, ts: &Node<TypeSpecifier>) -> R<()> {
        match &ts.node {
            TypeSpecifier::Void => c.void = true,
            TypeSpecifier::Char => c.char_ = true,
            TypeSpecifier::Short => c.short = true,
            TypeSpecifier::Int => c.int = true,
            TypeSpecifier::Long => c.long += 1,
            TypeSpecifier::Float => c.float = true,
            TypeSpecifier::Double => c.double = true,
            TypeSpecifier::Signed => c.signed = true,
            TypeSpecifier::Unsigned => c.unsigned = true,
            TypeSpecifier::Bool => c.bool_ = true,
            TypeSpecifier::Complex => c.complex = true,
            TypeSpecifier::Atomic(tn) => {
                let t = self.type_name(tn)?;
                c.named = Some(t);
                self.atomic.seen = true;
            }
            TypeSpecifier::Struct(st) => {
                let t = self.struct_type(st)?;
                c.named = Some(t);
            }
            TypeSpecifier::Enum(et) => {
                let t = self.enum_type(et)?;
                c.named = Some(t);
            }
            TypeSpecifier::TypedefName(id) => match self.lookup(&id.node.name).cloned() {
                Some(Sym::Typedef(t)) => {
                    c.named = Some(t);
                    self.atomic_typedef_used(&id.node.name);
                }
                _ => {
                    if id.node.name == "__builtin_va_list" {
                        let v = self.types.void_ptr();
                        c.named = Some(v);
                    } else {
                        return Err(
                            self.invalid(ts.span, format!("unknown type name '{}'", id.node.name))
                        );
                    }
                }
            },
            TypeSpecifier::TypeOf(to) => {
                let t = match &to.node {
                    TypeOf::Type(tn) => self.type_name(tn)?,
                    TypeOf::Expression(e) => self.type_of_expr(e)?,
                };
                c.named = Some(t);
            }
            TypeSpecifier::TS18661Float(f) => {
                // `_FloatN` is IEEE-754 binaryN. The extended (`_Float32x`: at least as wide
                // as binary64) and decimal (`_Decimal32`) types have another format of the
                // same nominal width, which a `Type::Float` of that width would compute as
                // binaryN: exact, and wrong.
                if f.format != TS18661FloatFormat::BinaryInterchange {
                    return Err(self.unsupported(ts.span, "extended or decimal floating type"));
                }
                let t = self.types.intern(Type::Float {
                    bits: f.width.min(128) as u8,
                });
                c.named = Some(t);
            }
        }
        Ok(())
    }

    fn combine(&mut self, c: &Counts, span: Span) -> R<TypeId> {
        if let Some(t) = c.named {
            return Ok(t);
        }
        if c.void {
            return Ok(self.types.void());
        }
        if c.bool_ {
            return Ok(self.types.bool_());
        }
        if c.complex {
            // A pair of floating-point values, which nothing here models.
            return Err(self.unsupported(span, "complex type"));
        }
        if c.float || c.double {
            let bits = if c.float {
                32
            } else if c.long > 0 {
                80
            } else {
                64
            };
            return Ok(self.types.intern(Type::Float { bits }));
        }
        let signed = !c.unsigned;
        let bits = if c.char_ {
            8
        } else if c.short {
            16
        } else if c.long >= 2 {
            64
        } else if c.long == 1 {
            self.types.ptr_bits()
        } else if c.int || c.signed || c.unsigned {
            32
        } else {
            // Implicit int (old C) — accepted, as gcc does with a warning.
            let _ = span;
            32
        };
        Ok(self.types.int(bits, signed))
    }

    /// `struct`/`union` specifier: a reference, a forward declaration or a definition.
    fn struct_type(&mut self, st: &Node<StructType>) -> R<TypeId> {
        // The attributes belong to this specifier, not to structs nested in its members.
        let (packed, align) = self.pending_struct_attrs.take().unwrap_or((false, None));
        let is_union = st.node.kind.node == StructKind::Union;
        let name = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let sid = match (&name, &st.node.declarations) {
            (Some(n), None) => {
                // Reference or forward declaration: find the visible tag or declare it here.
                if let Some(Tag::Struct(s)) = self.lookup_tag(n) {
                    *s
                } else {
                    let s = self.new_struct(n.clone(), is_union);
                    self.bind_tag(n, Tag::Struct(s));
                    s
                }
            }
            (Some(n), Some(_)) => {
                // A definition: reuse a forward declaration of the same scope.
                let here = self.scopes.last().and_then(|s| s.tags.get(n)).cloned();
                match here {
                    Some(Tag::Struct(s)) if !self.types.structs[s].complete => s,
                    _ => {
                        let s = self.new_struct(n.clone(), is_union);
                        self.bind_tag(n, Tag::Struct(s));
                        s
                    }
                }
            }
            (None, _) => {
                self.anon += 1;
                let n = format!("$anon{}", self.anon);
                self.new_struct(n, is_union)
            }
        };
        if let Some(decls) = &st.node.declarations {
            let mut members = Vec::new();
            for d in decls {
                let StructDeclaration::Field(f) = &d.node else {
                    continue;
                };
                let base = self.specifier_qualifiers(&f.node.specifiers, f.span)?;
                if self.atomic.last.and_then(|s| s.object) == Some(true) {
                    return Err(self.unsupported(f.span, ATOMIC));
                }
                let mut spec_attrs = (false, None);
                for sq in &f.node.specifiers {
                    if let SpecifierQualifier::Extension(ext) = &sq.node {
                        let (p, a) = self.layout_attrs(ext);
                        spec_attrs.0 |= p;
                        spec_attrs.1 = spec_attrs.1.max(a);
                    }
                }
                if f.node.declarators.is_empty() {
                    // Anonymous struct/union member.
                    members.push(MemberSpec {
                        name: None,
                        ty: base,
                        width: None,
                        align: None,
                        packed: false,
                    });
                    continue;
                }
                for sd in &f.node.declarators {
                    let (fname, fty, decl_attrs) = match &sd.node.declarator {
                        Some(decl) => {
                            let (n, t, _) = self.declarator(base, decl, false)?;
                            (n, t, self.layout_attrs(&decl.node.extensions))
                        }
                        None => (None, base, (false, None)),
                    };
                    let width = match &sd.node.bit_width {
                        Some(w) => {
                            let v = self.const_int(w)?;
                            Some(v as u32)
                        }
                        None => None,
                    };
                    members.push(MemberSpec {
                        name: fname,
                        ty: fty,
                        width,
                        align: decl_attrs.1.max(spec_attrs.1),
                        packed: decl_attrs.0 || spec_attrs.0,
                    });
                }
            }
            self.types
                .layout(sid, members, packed, align)
                .map_err(|m| self.invalid(st.span, m))?;
        }
        Ok(self.types.intern(Type::Struct(sid)))
    }

    fn new_struct(&mut self, name: String, is_union: bool) -> crate::ir::StructId {
        self.types.structs.push(crate::ir::StructDef {
            name,
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
        })
    }

    fn enum_type(&mut self, et: &Node<EnumType>) -> R<TypeId> {
        if et.node.enumerators.is_empty() {
            if let Some(id) = &et.node.identifier {
                if let Some(Tag::Enum(t)) = self.lookup_tag(&id.node.name) {
                    return Ok(*t);
                }
            }
            return Ok(self.types.int(32, false));
        }
        // gcc: unsigned int when no enumerator is negative, else int (wider when needed).
        let mut values: Vec<(String, i64)> = Vec::new();
        let mut next: i64 = 0;
        for e in &et.node.enumerators {
            let v = match &e.node.expression {
                Some(x) => self.const_int(x)?,
                None => next,
            };
            values.push((e.node.identifier.node.name.clone(), v));
            // Later enumerators may refer to earlier ones.
            let int = self.types.int32();
            self.bind(&e.node.identifier.node.name, Sym::EnumConst(v as u64, int));
            next = v.wrapping_add(1);
        }
        let neg = values.iter().any(|(_, v)| *v < 0);
        let big = values
            .iter()
            .any(|(_, v)| *v > u32::MAX as i64 || *v < i32::MIN as i64);
        let ty = match (neg, big) {
            (false, false) => self.types.int(32, false),
            (true, false) => self.types.int32(),
            (n, true) => self.types.int(64, !n),
        };
        let int = self.types.int32();
        for (n, v) in values {
            // Enumeration constants have type int (C11 6.7.2.2); wider values keep the enum type.
            let t = if v >= i32::MIN as i64 && v <= i32::MAX as i64 {
                int
            } else {
                ty
            };
            self.bind(&n, Sym::EnumConst(v as u64, t));
        }
        if let Some(id) = &et.node.identifier {
            self.bind_tag(&id.node.name, Tag::Enum(ty));
        }
        Ok(ty)
    }

    /// Applies a declarator to a base type: (declared name, type, parameter names).
    pub(crate) fn declarator(
        &mut self,
        base: TypeId,
        d: &Node<Declarator>,
        _named: bool,
    ) -> R<(Option<String>, TypeId, ParamNames)> {
        let mut t = base;
        let derived = &d.node.derived;
        let split = derived
            .iter()
            .position(|x| !matches!(x.node, DerivedDeclarator::Pointer(_)))
            .unwrap_or(derived.len());
        for x in derived {
            if let DerivedDeclarator::Pointer(qs) = &x.node {
                for q in qs {
                    if let PointerQualifier::TypeQualifier(q) = &q.node {
                        if q.node == TypeQualifier::Atomic {
                            return Err(self.unsupported(q.span, ATOMIC));
                        }
                    }
                }
            }
        }
        for _ in &derived[..split] {
            t = self.types.pointer(t);
        }
        let mut names: ParamNames = None;
        for x in derived[split..].iter().rev() {
            match &x.node {
                DerivedDeclarator::Pointer(_) => t = self.types.pointer(t),
                DerivedDeclarator::Array(a) => {
                    if matches!(self.types.get(t), Type::Void | Type::Func { .. }) {
                        return Err(self.invalid(x.span, "array of void or of functions"));
                    }
                    let len = match &a.node.size {
                        ArraySize::Unknown => None,
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            match self.try_const_int(e)? {
                                Some(n) if n >= 0 => Some(n as u64),
                                Some(_) => return Err(self.invalid(e.span, "negative array size")),
                                None => {
                                    return Err(self.unsupported(e.span, "variable-length array"))
                                }
                            }
                        }
                        ArraySize::VariableUnknown => None,
                    };
                    t = self.types.intern(Type::Array { elem: t, len });
                }
                DerivedDeclarator::Function(fd) => {
                    let (params, pnames, variadic) = self.parameters(&fd.node)?;
                    names = Some(pnames);
                    t = self.types.intern(Type::Func {
                        ret: t,
                        params,
                        variadic,
                    });
                }
                DerivedDeclarator::KRFunction(ids) => {
                    if !ids.is_empty() {
                        return Err(self.unsupported(x.span, "K&R-style function declarator"));
                    }
                    names = Some(Vec::new());
                    // `f()`: unknown parameters; calls pass promoted arguments.
                    t = self.types.intern(Type::Func {
                        ret: t,
                        params: Vec::new(),
                        variadic: true,
                    });
                }
                DerivedDeclarator::Block(_) => {
                    return Err(self.unsupported(x.span, "block pointer"));
                }
            }
        }
        if let Some(bits) = self.mode_attribute(&d.node.extensions) {
            t = self.apply_mode(t, bits);
        }
        match &d.node.kind.node {
            DeclaratorKind::Abstract => Ok((None, t, names)),
            DeclaratorKind::Identifier(id) => Ok((Some(id.node.name.clone()), t, names)),
            DeclaratorKind::Declarator(inner) => {
                let (n, t2, inner_names) = self.declarator(t, inner, _named)?;
                Ok((n, t2, inner_names.or(names)))
            }
        }
    }

    fn parameters(
        &mut self,
        fd: &FunctionDeclarator,
    ) -> R<(Vec<TypeId>, Vec<Option<String>>, bool)> {
        let mut tys = Vec::new();
        let mut names = Vec::new();
        let mut shapes = Vec::new();
        self.push_scope();
        let r = (|| {
            for p in &fd.parameters {
                let spec = self.specifiers(&p.node.specifiers, p.span)?;
                let (n, t, _) = match &p.node.declarator {
                    Some(d) => self.declarator(spec.ty, d, true)?,
                    None => (None, spec.ty, None),
                };
                if self.types.is_void(t) && n.is_none() && fd.parameters.len() == 1 {
                    break;
                }
                shapes.push(self.atomic_param(spec.atomic, spec.ty, t));
                tys.push(self.adjust_param(t));
                names.push(n);
            }
            Ok(())
        })();
        self.pop_scope();
        r?;
        // The outermost parameter list of a declarator is read last.
        self.atomic.params = shapes;
        Ok((tys, names, fd.ellipsis == Ellipsis::Some))
    }

    /// Parameter type adjustment: arrays and functions become pointers.
    pub(crate) fn adjust_param(&mut self, t: TypeId) -> TypeId {
        match self.types.get(t).clone() {
            Type::Array { elem, .. } => self.types.pointer(elem),
            Type::Func { .. } => self.types.pointer(t),
            _ => t,
        }
    }

    pub(crate) fn type_name(&mut self, tn: &Node<TypeName>) -> R<TypeId> {
        let base = self.specifier_qualifiers(&tn.node.specifiers, tn.span)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d, false)?.1),
            None => Ok(base),
        }
    }

    /// The type of an expression, without keeping any of its instructions (`sizeof`,
    /// `typeof`).
    pub(crate) fn type_of_expr(&mut self, e: &Node<Expression>) -> R<TypeId> {
        let pos = self.pos();
        let r = self.expr_type_unconverted(e);
        self.truncate(pos);
        r
    }

    /// Evaluates an integer constant expression.
    pub(crate) fn const_int(&mut self, e: &Node<Expression>) -> R<i64> {
        match self.try_const_int(e)? {
            Some(v) => Ok(v),
            None => Err(self.invalid(e.span, "not an integer constant expression")),
        }
    }

    pub(crate) fn try_const_int(&mut self, e: &Node<Expression>) -> R<Option<i64>> {
        let pos = self.pos();
        let r = self.rvalue(e);
        let emitted = self.pos() != pos;
        self.truncate(pos);
        let x: Expr = r?;
        if emitted {
            return Ok(None);
        }
        Ok(x.as_const().map(|v| v as i64))
    }
}
