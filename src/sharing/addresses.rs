//! Objects made per instance whose address the program may observe: a pointer to one of them
//! may be compared, converted to an integer, tested as a condition, used in integer
//! arithmetic or a pointer difference, or handed to a thread, join, mutex or `free`.
//!
//! Symbolic execution numbers every object it makes, and a pointer is the object's number
//! and an offset. Two instances of one thread code (symmetry's twins) make their own objects
//! under different numbers, so a pointer to such an object is a value that tells the twins
//! apart — unless nothing ever looks at the number. The uses that do not look at it are the
//! *transparent* ones:
//! * a dereference (the base of a place): it selects the object whose number the pointer
//!   holds, which renaming the objects maps to the renamed object;
//! * a copy: an assignment's source, a call's argument, a function's returned value, the
//!   operands an `?:` chooses between, a conversion to another pointer type; the copy is
//!   itself an expression whose uses are checked the same way (the points-to sets follow
//!   pointers through variables and memory), and a copy into memory another thread reaches
//!   makes the object shared, which the sharing pass finds on its own;
//! * pointer arithmetic (`PtrAdd`'s pointer operand) and a member or element of the place:
//!   it moves the offset, not the number (the IR's rule that a pointer stays in its object,
//!   on which the points-to analysis and symbolic execution's object selection already rely);
//! * the pointer operands of `memset` and `memcpy`, which only access what they designate.
//!
//! Every other position an expression whose points-to set holds the object may take
//! observes the address. The check is over-approximate in the pass's usual ways: the
//! points-to sets cover every value a pointer may have, every defined function is walked
//! (reachable or not), and the instructions are matched exhaustively, so a new kind of
//! instruction needs a decision here before it compiles.

use std::collections::BTreeSet;

use super::{AbsObj, PointsTo};
use crate::ir::{Callee, Expr, ExprKind, InstrKind, Place, PlaceBase, Program, Proj};

/// The per-instance objects (heap, address-taken locals) whose address some use observes.
pub(super) fn observed(prog: &Program, points_to: &PointsTo) -> BTreeSet<AbsObj> {
    let mut walk = Walk {
        prog,
        points_to,
        observed: BTreeSet::new(),
    };
    for (_, _, body) in prog.defined_funcs() {
        for ins in body.instrs.values() {
            walk.instr(&ins.kind);
        }
    }
    walk.observed
}

struct Walk<'a> {
    prog: &'a Program,
    points_to: &'a PointsTo,
    observed: BTreeSet<AbsObj>,
}

impl Walk<'_> {
    fn instr(&mut self, kind: &InstrKind) {
        match kind {
            InstrKind::Skip
            | InstrKind::Decl(_)
            | InstrKind::Halt
            | InstrKind::AtomicBegin
            | InstrKind::AtomicEnd
            | InstrKind::Fence(_)
            | InstrKind::Approximate(_)
            | InstrKind::Return(None) => {}
            InstrKind::Assign { dst, src } => {
                self.place(dst);
                self.expr(src, true);
            }
            InstrKind::Nondet { dst } | InstrKind::ThreadSelf { dst } => self.place(dst),
            InstrKind::Return(Some(e)) => self.expr(e, true),
            InstrKind::Assume(e)
            | InstrKind::Assert { cond: e, .. }
            | InstrKind::ThreadExit(e)
            | InstrKind::MutexInit(e)
            | InstrKind::MutexLock(e)
            | InstrKind::MutexUnlock(e)
            | InstrKind::MutexDestroy(e)
            | InstrKind::CondInit(e)
            | InstrKind::CondSignal(e)
            | InstrKind::CondBroadcast(e)
            | InstrKind::CondDestroy(e)
            | InstrKind::Free(e) => self.expr(e, false),
            InstrKind::Goto { cond, .. } => {
                if let Some(c) = cond {
                    self.expr(c, false);
                }
            }
            InstrKind::Call { dst, callee, args } => {
                if let Some(d) = dst {
                    self.place(d);
                }
                self.callee(callee);
                for a in args {
                    self.expr(a, true);
                }
            }
            InstrKind::ThreadCreate { handle, entry, arg } => {
                self.place(handle);
                self.callee(entry);
                self.expr(arg, false);
            }
            InstrKind::ThreadJoin { thread, retval } => {
                self.expr(thread, false);
                if let Some(r) = retval {
                    self.expr(r, false);
                }
            }
            InstrKind::MutexTryLock { mutex, dst } => {
                self.expr(mutex, false);
                if let Some(d) = dst {
                    self.place(d);
                }
            }
            InstrKind::CondWait { cond, mutex } => {
                self.expr(cond, false);
                self.expr(mutex, false);
            }
            InstrKind::Alloc { dst, size, .. } => {
                if let Some(d) = dst {
                    self.place(d);
                }
                self.expr(size, false);
            }
            InstrKind::Memset { dst, byte, len } => {
                self.expr(dst, true);
                self.expr(byte, false);
                self.expr(len, false);
            }
            InstrKind::Memcpy { dst, src, len } => {
                self.expr(dst, true);
                self.expr(src, true);
                self.expr(len, false);
            }
        }
    }

    fn callee(&mut self, c: &Callee) {
        if let Callee::Indirect(e) = c {
            self.expr(e, false);
        }
    }

    /// Walks `e`; unless it is in a transparent position (module doc), every per-instance
    /// object its value may point to is observed.
    fn expr(&mut self, e: &Expr, transparent: bool) {
        if !transparent {
            let pts = self.points_to.expr(self.prog, e);
            self.observed
                .extend(pts.into_iter().filter(|o| !o.is_single()));
        }
        match &e.kind {
            ExprKind::Const(_) | ExprKind::FuncAddr(_) => {}
            ExprKind::Read(p) | ExprKind::AddrOf(p) => self.place(p),
            ExprKind::Unary(_, a) => self.expr(a, false),
            ExprKind::Binary(_, a, b) | ExprKind::PtrDiff(a, b) => {
                self.expr(a, false);
                self.expr(b, false);
            }
            ExprKind::Ite(c, a, b) => {
                self.expr(c, false);
                self.expr(a, true);
                self.expr(b, true);
            }
            ExprKind::Cast(a) => {
                let types = &self.prog.types;
                let keep = types.is_pointer(e.ty) && types.is_pointer(a.ty);
                self.expr(a, keep);
            }
            ExprKind::PtrAdd(a, b) => {
                self.expr(a, true);
                self.expr(b, false);
            }
            ExprKind::Float(_, args) => {
                for a in args {
                    self.expr(a, false);
                }
            }
        }
    }

    /// A place's base pointer is dereferenced (transparent); its indices are integers.
    fn place(&mut self, p: &Place) {
        if let PlaceBase::Deref(e) = &p.base {
            self.expr(e, true);
        }
        for proj in &p.projs {
            if let Proj::Index { index, .. } = proj {
                self.expr(index, false);
            }
        }
    }
}
