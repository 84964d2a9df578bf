//! Checks the IR's invariants (see the module documentation of `ir`): well-typed expressions
//! with explicit conversions, places whose projections match their types, jumps inside the
//! body, back edges numbered as loops. Consumers may rely on what this accepts; the tests run
//! it on every program they lower.

use cranelift_entity::EntityRef;

use super::*;

/// The first violated invariant, as `function@instruction: what`.
pub fn validate(p: &Program) -> Result<(), String> {
    for (fid, f, body) in p.defined_funcs() {
        let n = body.instrs.len();
        if n == 0 {
            return Err(format!("{}: empty body", f.name));
        }
        let last = &body.instrs[InstrId::new(n - 1)].kind;
        let ends = matches!(
            last,
            InstrKind::Return(_) | InstrKind::Halt | InstrKind::ThreadExit(_)
        ) || matches!(last, InstrKind::Goto { cond: None, .. });
        if !ends {
            return Err(format!("{}: the last instruction falls through", f.name));
        }
        let v = Validator { p, func: fid };
        for (i, ins) in body.instrs.iter() {
            let at = |m: String| format!("{}@{}: {m}", f.name, i.index());
            v.instr(&ins.kind).map_err(at)?;
            if let InstrKind::Goto {
                target, back_edge, ..
            } = &ins.kind
            {
                if target.index() >= n {
                    return Err(at("jump outside the body".into()));
                }
                let backward = target.index() <= i.index();
                match back_edge {
                    Some(l) if !backward => return Err(at(format!("forward jump marked {l}"))),
                    None if backward => return Err(at("backward jump without a loop".into())),
                    Some(l) => {
                        let info = &body.loops[*l];
                        if info.head != *target || info.back_edge != i {
                            return Err(at("loop table disagrees with the jump".into()));
                        }
                    }
                    None => {}
                }
            }
        }
    }
    Ok(())
}

struct Validator<'p> {
    p: &'p Program,
    func: FuncId,
}

type V = Result<(), String>;

impl<'p> Validator<'p> {
    fn ty(&self, t: TypeId) -> String {
        self.p.types.display(t)
    }

    fn same(&self, a: TypeId, b: TypeId, what: &str) -> V {
        if a != b {
            return Err(format!("{what}: {} vs {}", self.ty(a), self.ty(b)));
        }
        Ok(())
    }

    fn int(&self) -> Option<TypeId> {
        self.p.types.find(&Type::Int {
            bits: 32,
            signed: true,
        })
    }

    fn instr(&self, k: &InstrKind) -> V {
        match k {
            InstrKind::Assign { dst, src } => {
                self.place(dst)?;
                self.expr(src)?;
                self.same(dst.ty, src.ty, "assignment")
            }
            InstrKind::Call {
                dst,
                callee: Callee::Direct(g),
                args,
            } => {
                if let Some(d) = dst {
                    self.place(d)?;
                }
                for a in args {
                    self.expr(a)?;
                }
                let callee = &self.p.funcs[*g];
                if let Type::Func { params, .. } = self.p.types.get(callee.ty) {
                    if args.len() < params.len() {
                        return Err(format!("too few arguments for {}", callee.name));
                    }
                }
                let _ = self.func;
                Ok(())
            }
            other => {
                let mut r = Ok(());
                other.walk_exprs(&mut |e| {
                    if r.is_ok() {
                        r = self.node(e);
                    }
                });
                r?;
                if other.synchronises() {
                    self.reads_no_memory(other)?;
                }
                Ok(())
            }
        }
    }

    /// The operands of a thread or synchronisation instruction read no memory: the lowering
    /// reads it first, in instructions of their own (see the module doc of `ir`).
    fn reads_no_memory(&self, k: &InstrKind) -> V {
        let mut r = Ok(());
        k.walk_exprs(&mut |e| {
            let ExprKind::Read(p) = &e.kind else {
                return;
            };
            let memory = match p.base {
                PlaceBase::Deref(_) => true,
                PlaceBase::Var(v) => self.p.vars[v].in_memory(),
            };
            if memory && r.is_ok() {
                r = Err("a synchronisation operand reads memory".to_string());
            }
        });
        r
    }

    /// Checks one expression node (not its children).
    fn node(&self, e: &Expr) -> V {
        let t = &self.p.types;
        match &e.kind {
            ExprKind::Const(v) => {
                if !t.is_scalar(e.ty) {
                    return Err(format!("constant of type {}", self.ty(e.ty)));
                }
                let bits = t.bits(e.ty);
                let ok = match t.get(e.ty) {
                    Type::Bool => *v <= 1,
                    Type::Int { signed: true, .. } if bits < 64 => {
                        let s = 64 - bits;
                        ((*v << s) as i64 >> s) as u64 == *v
                    }
                    _ if bits < 64 => *v >> bits == 0,
                    _ => true,
                };
                if !ok {
                    return Err(format!(
                        "constant {v:#x} not normalised to {}",
                        self.ty(e.ty)
                    ));
                }
                Ok(())
            }
            ExprKind::Read(p) => {
                if matches!(
                    t.get(p.ty),
                    Type::Array { .. } | Type::Func { .. } | Type::Void
                ) {
                    return Err(format!("read of a {}", self.ty(p.ty)));
                }
                self.same(e.ty, p.ty, "read")?;
                self.place_shape(p)
            }
            ExprKind::AddrOf(p) => {
                if t.pointee(e.ty) != Some(p.ty) {
                    return Err(format!(
                        "address of {} typed {}",
                        self.ty(p.ty),
                        self.ty(e.ty)
                    ));
                }
                self.place_shape(p)
            }
            ExprKind::FuncAddr(g) => {
                if t.pointee(e.ty) != Some(self.p.funcs[*g].ty) {
                    return Err("function address of the wrong type".into());
                }
                Ok(())
            }
            ExprKind::Unary(op, a) => match op {
                UnOp::LogNot => self.same(e.ty, self.int().unwrap_or(e.ty), "logical not"),
                _ => self.same(e.ty, a.ty, "unary operator"),
            },
            ExprKind::Binary(op, a, b) => {
                if op.is_comparison() {
                    self.same(e.ty, self.int().unwrap_or(e.ty), "comparison result")?;
                    if !matches!(op, BinOp::LogAnd | BinOp::LogOr) {
                        self.same(a.ty, b.ty, "comparison operands")?;
                    }
                    Ok(())
                } else {
                    if !t.is_integer(e.ty) {
                        return Err(format!("arithmetic on {}", self.ty(e.ty)));
                    }
                    self.same(a.ty, e.ty, "left operand")?;
                    self.same(b.ty, e.ty, "right operand")
                }
            }
            ExprKind::Ite(_, a, b) => {
                self.same(a.ty, e.ty, "then operand")?;
                self.same(b.ty, e.ty, "else operand")
            }
            ExprKind::Cast(a) => {
                let scalar = |x| t.is_scalar(x) && !t.is_float(x);
                if !(scalar(a.ty) && scalar(e.ty)) {
                    return Err(format!("cast {} -> {}", self.ty(a.ty), self.ty(e.ty)));
                }
                Ok(())
            }
            ExprKind::PtrAdd(pt, off) => {
                self.same(pt.ty, e.ty, "pointer arithmetic")?;
                if !t.is_pointer(e.ty)
                    || !t.is_integer(off.ty)
                    || t.bits(off.ty) != t.ptr_bits() as u32
                {
                    return Err("pointer offset of the wrong type".into());
                }
                Ok(())
            }
            ExprKind::Float(op, args) => {
                if args.len() != op.arity() {
                    return Err(format!("{} with {} operands", op.symbol(), args.len()));
                }
                let float = |x: TypeId| crate::ir::float::float_bits(t, x).is_some();
                let exact_int = |x: TypeId| matches!(t.get(x), Type::Int { .. });
                match op {
                    FloatOp::Convert => {
                        let (from, to) = (args[0].ty, e.ty);
                        let ok =
                            (float(from) || exact_int(from) || matches!(t.get(from), Type::Bool))
                                && (float(to) || exact_int(to))
                                && (float(from) || float(to));
                        if !ok {
                            return Err(format!(
                                "float conversion {} -> {}",
                                self.ty(from),
                                self.ty(to)
                            ));
                        }
                        Ok(())
                    }
                    _ => {
                        if !float(args[0].ty) {
                            return Err(format!("{} on {}", op.symbol(), self.ty(args[0].ty)));
                        }
                        if let Some(b) = args.get(1) {
                            self.same(b.ty, args[0].ty, "float operands")?;
                        }
                        if op.is_comparison() {
                            self.same(e.ty, self.int().unwrap_or(e.ty), "comparison result")
                        } else {
                            self.same(e.ty, args[0].ty, "float result")
                        }
                    }
                }
            }
            ExprKind::PtrDiff(a, b) => {
                self.same(a.ty, b.ty, "pointer difference")?;
                if !t.is_pointer(a.ty) || t.bits(e.ty) != t.ptr_bits() as u32 {
                    return Err("pointer difference of the wrong type".into());
                }
                Ok(())
            }
        }
    }

    fn expr(&self, e: &Expr) -> V {
        let mut r = Ok(());
        e.walk(&mut |x| {
            if r.is_ok() {
                r = self.node(x);
            }
        });
        r
    }

    fn place(&self, p: &Place) -> V {
        p.walk(&mut |_| {});
        let mut r = self.place_shape(p);
        p.walk(&mut |x| {
            if r.is_ok() {
                r = self.node(x);
            }
        });
        r
    }

    /// The projections follow the types from the base to `p.ty`.
    fn place_shape(&self, p: &Place) -> V {
        let t = &self.p.types;
        let mut cur = match &p.base {
            PlaceBase::Var(v) => self.p.vars[*v].ty,
            PlaceBase::Deref(e) => match t.pointee(e.ty) {
                Some(x) => x,
                None => return Err(format!("dereference of a {}", self.ty(e.ty))),
            },
        };
        for pr in &p.projs {
            cur = match (pr, t.get(cur)) {
                (Proj::Field { index, offset }, Type::Struct(s)) => {
                    let Some(f) = t.structs[*s].fields.get(*index as usize) else {
                        return Err("field index out of range".into());
                    };
                    if f.offset != *offset {
                        return Err("field offset disagrees with the layout".into());
                    }
                    f.ty
                }
                (Proj::Index { index, elem_size }, Type::Array { elem, .. }) => {
                    if t.size_of(*elem).unwrap_or(0) != *elem_size {
                        return Err("element size disagrees with the type".into());
                    }
                    if !t.is_integer(index.ty) {
                        return Err("non-integer index".into());
                    }
                    *elem
                }
                _ => return Err(format!("projection on a {}", self.ty(cur))),
            };
        }
        self.same(cur, p.ty, "place type")
    }
}
