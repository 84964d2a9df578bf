//! Renaming variables in IR expressions, places and instructions: the inliner gives every
//! inlined call fresh variables, and the certificate checker gives the interfering instance
//! a second copy of its template's private variables. Both are plain substitutions: every
//! occurrence of a variable (read, written, address taken, declared) is replaced.

use std::collections::HashMap;

use crate::ir::{Callee, Expr, ExprKind, InstrKind, Place, PlaceBase, Proj, VarId};

/// A variable substitution; variables it does not map stay.
#[derive(Clone, Debug, Default)]
pub struct Renaming(pub HashMap<VarId, VarId>);

impl Renaming {
    pub fn var(&self, v: VarId) -> VarId {
        self.0.get(&v).copied().unwrap_or(v)
    }

    pub fn expr(&self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Const(c) => ExprKind::Const(*c),
            ExprKind::FuncAddr(f) => ExprKind::FuncAddr(*f),
            ExprKind::Read(p) => ExprKind::Read(Box::new(self.place(p))),
            ExprKind::AddrOf(p) => ExprKind::AddrOf(Box::new(self.place(p))),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(self.expr(a))),
            ExprKind::Binary(op, a, b) => {
                ExprKind::Binary(*op, Box::new(self.expr(a)), Box::new(self.expr(b)))
            }
            ExprKind::Ite(c, a, b) => ExprKind::Ite(
                Box::new(self.expr(c)),
                Box::new(self.expr(a)),
                Box::new(self.expr(b)),
            ),
            ExprKind::Cast(a) => ExprKind::Cast(Box::new(self.expr(a))),
            ExprKind::PtrAdd(a, b) => {
                ExprKind::PtrAdd(Box::new(self.expr(a)), Box::new(self.expr(b)))
            }
            ExprKind::PtrDiff(a, b) => {
                ExprKind::PtrDiff(Box::new(self.expr(a)), Box::new(self.expr(b)))
            }
            ExprKind::Float(op, args) => {
                ExprKind::Float(*op, args.iter().map(|a| self.expr(a)).collect())
            }
        };
        Expr { kind, ty: e.ty }
    }

    pub fn place(&self, p: &Place) -> Place {
        Place {
            base: match &p.base {
                PlaceBase::Var(v) => PlaceBase::Var(self.var(*v)),
                PlaceBase::Deref(e) => PlaceBase::Deref(Box::new(self.expr(e))),
            },
            projs: p
                .projs
                .iter()
                .map(|pr| match pr {
                    Proj::Field { index, offset } => Proj::Field {
                        index: *index,
                        offset: *offset,
                    },
                    Proj::Index { index, elem_size } => Proj::Index {
                        index: Box::new(self.expr(index)),
                        elem_size: *elem_size,
                    },
                })
                .collect(),
            ty: p.ty,
        }
    }

    fn callee(&self, c: &Callee) -> Callee {
        match c {
            Callee::Direct(f) => Callee::Direct(*f),
            Callee::Indirect(e) => Callee::Indirect(self.expr(e)),
        }
    }

    /// The instruction with its variables renamed (jump targets unchanged).
    pub fn instr(&self, k: &InstrKind) -> InstrKind {
        use InstrKind as K;
        let e = |x: &Expr| self.expr(x);
        let p = |x: &Place| self.place(x);
        match k {
            K::Skip => K::Skip,
            K::Decl(v) => K::Decl(self.var(*v)),
            K::Assign { dst, src } => K::Assign {
                dst: p(dst),
                src: e(src),
            },
            K::Nondet { dst } => K::Nondet { dst: p(dst) },
            K::Assume(c) => K::Assume(e(c)),
            K::Assert { cond, prop } => K::Assert {
                cond: e(cond),
                prop: *prop,
            },
            K::Goto {
                target,
                cond,
                back_edge,
            } => K::Goto {
                target: *target,
                cond: cond.as_ref().map(e),
                back_edge: *back_edge,
            },
            K::Call { dst, callee, args } => K::Call {
                dst: dst.as_ref().map(p),
                callee: self.callee(callee),
                args: args.iter().map(e).collect(),
            },
            K::Return(x) => K::Return(x.as_ref().map(e)),
            K::Halt => K::Halt,
            K::ThreadCreate { handle, entry, arg } => K::ThreadCreate {
                handle: p(handle),
                entry: self.callee(entry),
                arg: e(arg),
            },
            K::ThreadJoin { thread, retval } => K::ThreadJoin {
                thread: e(thread),
                retval: retval.as_ref().map(e),
            },
            K::ThreadExit(x) => K::ThreadExit(e(x)),
            K::ThreadSelf { dst } => K::ThreadSelf { dst: p(dst) },
            K::AtomicBegin => K::AtomicBegin,
            K::AtomicEnd => K::AtomicEnd,
            K::Fence(f) => K::Fence(*f),
            K::Approximate(a) => K::Approximate(*a),
            K::MutexInit(x) => K::MutexInit(e(x)),
            K::MutexLock(x) => K::MutexLock(e(x)),
            K::MutexUnlock(x) => K::MutexUnlock(e(x)),
            K::MutexTryLock { mutex, dst } => K::MutexTryLock {
                mutex: e(mutex),
                dst: dst.as_ref().map(p),
            },
            K::MutexDestroy(x) => K::MutexDestroy(e(x)),
            K::CondInit(x) => K::CondInit(e(x)),
            K::CondWait { cond, mutex } => K::CondWait {
                cond: e(cond),
                mutex: e(mutex),
            },
            K::CondSignal(x) => K::CondSignal(e(x)),
            K::CondBroadcast(x) => K::CondBroadcast(e(x)),
            K::CondDestroy(x) => K::CondDestroy(e(x)),
            K::Alloc {
                dst,
                size,
                zeroed,
                site,
                kind,
            } => K::Alloc {
                dst: dst.as_ref().map(p),
                size: e(size),
                zeroed: *zeroed,
                site: *site,
                kind: *kind,
            },
            K::Free(x) => K::Free(e(x)),
            K::Memset { dst, byte, len } => K::Memset {
                dst: e(dst),
                byte: e(byte),
                len: e(len),
            },
            K::Memcpy { dst, src, len } => K::Memcpy {
                dst: e(dst),
                src: e(src),
                len: e(len),
            },
        }
    }
}

/// Every variable an expression mentions (read, or address taken).
pub fn expr_vars(e: &Expr, out: &mut Vec<VarId>) {
    e.walk(&mut |x| {
        if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &x.kind {
            if let PlaceBase::Var(v) = p.base {
                out.push(v);
            }
        }
    });
}

/// Every variable an instruction mentions (read, written, declared or address taken).
pub fn instr_vars(k: &InstrKind, out: &mut Vec<VarId>) {
    k.walk_exprs(&mut |x| {
        if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &x.kind {
            if let PlaceBase::Var(v) = p.base {
                out.push(v);
            }
        }
    });
    if let InstrKind::Decl(v) = k {
        out.push(*v);
    }
    if let Some(Place {
        base: PlaceBase::Var(v),
        ..
    }) = k.dst()
    {
        out.push(*v);
    }
}
