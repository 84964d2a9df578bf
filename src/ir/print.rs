//! The IR as readable text (`yogar show-ir`): one line per instruction, with its source line.

use std::fmt::Write;

use cranelift_entity::EntityRef;

use super::*;

pub struct Printer<'p> {
    pub prog: &'p Program,
}

impl<'p> Printer<'p> {
    pub fn expr(&self, e: &Expr) -> String {
        let t = &self.prog.types;
        match &e.kind {
            ExprKind::Const(v) => {
                if t.is_signed(e.ty) {
                    format!("{}", *v as i64)
                } else {
                    format!("{v}")
                }
            }
            ExprKind::Read(p) => self.place(p),
            ExprKind::AddrOf(p) => format!("&{}", self.place(p)),
            ExprKind::FuncAddr(f) => format!("&{}", self.prog.funcs[*f].name),
            ExprKind::Unary(op, a) => {
                let s = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::LogNot => "!",
                };
                format!("{s}{}", self.atom(a))
            }
            ExprKind::Binary(op, a, b) => {
                format!("{} {} {}", self.atom(a), op.symbol(), self.atom(b))
            }
            ExprKind::Ite(c, a, b) => {
                format!("{} ? {} : {}", self.atom(c), self.atom(a), self.atom(b))
            }
            ExprKind::Cast(a) => format!("({}){}", t.display(e.ty), self.atom(a)),
            ExprKind::PtrAdd(p, o) => format!("{} +p {}", self.atom(p), self.atom(o)),
            ExprKind::PtrDiff(a, b) => format!("{} -p {}", self.atom(a), self.atom(b)),
            ExprKind::Float(op, args) => match (op, args.as_slice()) {
                (FloatOp::Convert, [a]) => format!("({})f {}", t.display(e.ty), self.atom(a)),
                (_, [a]) => format!("{}{}", op.symbol(), self.atom(a)),
                (_, [a, b]) => format!("{} {} {}", self.atom(a), op.symbol(), self.atom(b)),
                _ => format!("{}(?)", op.symbol()),
            },
        }
    }

    fn atom(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::Read(_) | ExprKind::FuncAddr(_) => self.expr(e),
            _ => format!("({})", self.expr(e)),
        }
    }

    pub fn place(&self, p: &Place) -> String {
        let mut s = match &p.base {
            PlaceBase::Var(v) => self.prog.vars[*v].name.clone(),
            PlaceBase::Deref(e) => format!("*{}", self.atom(e)),
        };
        if !p.projs.is_empty() && matches!(p.base, PlaceBase::Deref(_)) {
            s = format!("({s})");
        }
        // Follow the types along the projections to name the fields.
        let types = &self.prog.types;
        let mut cur = match &p.base {
            PlaceBase::Var(v) => Some(self.prog.vars[*v].ty),
            PlaceBase::Deref(e) => types.pointee(e.ty),
        };
        for pr in &p.projs {
            match pr {
                Proj::Field { index, offset } => {
                    let field = cur.and_then(|t| match types.get(t) {
                        Type::Struct(sid) => types.structs[*sid].fields.get(*index as usize),
                        _ => None,
                    });
                    match field.and_then(|f| f.name.as_deref()) {
                        Some(n) => {
                            let _ = write!(s, ".{n}");
                        }
                        None => {
                            let _ = write!(s, ".#{index}@{offset}");
                        }
                    }
                    cur = field.map(|f| f.ty);
                }
                Proj::Index { index, .. } => {
                    let _ = write!(s, "[{}]", self.expr(index));
                    cur = cur.and_then(|t| match types.get(t) {
                        Type::Array { elem, .. } => Some(*elem),
                        _ => None,
                    });
                }
            }
        }
        s
    }

    fn callee(&self, c: &Callee) -> String {
        match c {
            Callee::Direct(f) => self.prog.funcs[*f].name.clone(),
            Callee::Indirect(e) => format!("*{}", self.atom(e)),
        }
    }

    pub fn instr(&self, k: &InstrKind) -> String {
        match k {
            InstrKind::Skip => "skip".into(),
            InstrKind::Decl(v) => format!(
                "decl {}: {}",
                self.prog.vars[*v].name,
                self.prog.types.display(self.prog.vars[*v].ty)
            ),
            InstrKind::Assign { dst, src } => format!("{} := {}", self.place(dst), self.expr(src)),
            InstrKind::Nondet { dst } => format!(
                "{} := nondet {}",
                self.place(dst),
                self.prog.types.display(dst.ty)
            ),
            InstrKind::Assume(c) => format!("assume {}", self.expr(c)),
            InstrKind::Assert { cond, prop } => {
                let kind = match self.prog.props[*prop].kind {
                    PropKind::ReachError => "reach_error",
                    PropKind::Assert => "assert",
                };
                format!("assert[{} {}] {}", prop, kind, self.expr(cond))
            }
            InstrKind::Goto {
                target,
                cond,
                back_edge,
            } => {
                let mut s = match cond {
                    Some(c) => format!("if {} goto {}", self.expr(c), target.index()),
                    None => format!("goto {}", target.index()),
                };
                if let Some(l) = back_edge {
                    let _ = write!(s, "  // back edge of loop {}", l.index());
                }
                s
            }
            InstrKind::Call { dst, callee, args } => {
                let a: Vec<String> = args.iter().map(|x| self.expr(x)).collect();
                let call = format!("call {}({})", self.callee(callee), a.join(", "));
                match dst {
                    Some(d) => format!("{} := {call}", self.place(d)),
                    None => call,
                }
            }
            InstrKind::Return(Some(e)) => format!("return {}", self.expr(e)),
            InstrKind::Return(None) => "return".into(),
            InstrKind::Halt => "halt".into(),
            InstrKind::ThreadCreate { handle, entry, arg } => format!(
                "{} := thread_create {}({})",
                self.place(handle),
                self.callee(entry),
                self.expr(arg)
            ),
            InstrKind::ThreadJoin { thread, retval } => match retval {
                Some(r) => format!("thread_join {} into *{}", self.expr(thread), self.atom(r)),
                None => format!("thread_join {}", self.expr(thread)),
            },
            InstrKind::ThreadExit(v) => format!("thread_exit {}", self.expr(v)),
            InstrKind::ThreadSelf { dst } => format!("{} := thread_self", self.place(dst)),
            InstrKind::AtomicBegin => "atomic_begin".into(),
            InstrKind::Fence(k) => format!("fence {k:?}").to_lowercase(),
            InstrKind::Approximate(a) => format!("approximate ({})", a.describe()),
            InstrKind::AtomicEnd => "atomic_end".into(),
            InstrKind::MutexInit(m) => format!("mutex_init {}", self.expr(m)),
            InstrKind::MutexLock(m) => format!("mutex_lock {}", self.expr(m)),
            InstrKind::MutexUnlock(m) => format!("mutex_unlock {}", self.expr(m)),
            InstrKind::MutexTryLock { mutex, dst } => match dst {
                Some(d) => format!("{} := mutex_trylock {}", self.place(d), self.expr(mutex)),
                None => format!("mutex_trylock {}", self.expr(mutex)),
            },
            InstrKind::MutexDestroy(m) => format!("mutex_destroy {}", self.expr(m)),
            InstrKind::CondInit(c) => format!("cond_init {}", self.expr(c)),
            InstrKind::CondWait { cond, mutex } => {
                format!("cond_wait {} {}", self.expr(cond), self.expr(mutex))
            }
            InstrKind::CondSignal(c) => format!("cond_signal {}", self.expr(c)),
            InstrKind::CondBroadcast(c) => format!("cond_broadcast {}", self.expr(c)),
            InstrKind::CondDestroy(c) => format!("cond_destroy {}", self.expr(c)),
            InstrKind::Alloc {
                dst,
                size,
                zeroed,
                site,
                kind,
            } => {
                let what = match (kind, zeroed) {
                    (crate::ir::AllocKind::Stack, _) => "alloca",
                    (_, true) => "calloc",
                    _ => "malloc",
                };
                let d = dst.as_ref().map(|d| format!("{} := ", self.place(d)));
                format!(
                    "{}{what}[{site}] {}",
                    d.unwrap_or_default(),
                    self.expr(size)
                )
            }
            InstrKind::Free(p) => format!("free {}", self.expr(p)),
            InstrKind::Memset { dst, byte, len } => format!(
                "memset {} {} {}",
                self.atom(dst),
                self.atom(byte),
                self.atom(len)
            ),
            InstrKind::Memcpy { dst, src, len } => format!(
                "memcpy {} {} {}",
                self.atom(dst),
                self.atom(src),
                self.atom(len)
            ),
        }
    }

    /// The whole program: globals, then every function with a body.
    pub fn program(&self) -> String {
        let p = self.prog;
        let mut out = String::new();
        for (_, v) in p.globals() {
            let _ = writeln!(
                out,
                "global {}: {}{}",
                v.name,
                p.types.display(v.ty),
                if v.thread_local { " thread_local" } else { "" }
            );
        }
        for (id, f, body) in p.defined_funcs() {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|v| format!("{}: {}", p.vars[*v].name, p.types.display(p.vars[*v].ty)))
                .collect();
            let _ = writeln!(
                out,
                "\nfunction {} ({}) -> {}{}  // {}",
                f.name,
                params.join(", "),
                p.types.display(f.ret),
                if f.atomic { " atomic" } else { "" },
                id
            );
            for (i, ins) in body.instrs.iter() {
                let _ = writeln!(
                    out,
                    "  {:>4}  {:<60} // {}",
                    i.index(),
                    self.instr(&ins.kind),
                    p.loc_str(ins.loc)
                );
            }
        }
        out
    }
}
