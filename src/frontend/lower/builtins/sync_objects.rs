//! Synchronisation objects beyond mutexes and condition variables, lowered to atomic sections
//! on cells of the object itself: counting semaphores (`sem_*`), spin locks, read-write locks,
//! `pthread_once`, barriers, and `pthread_cond_timedwait`.
//!
//! A wait is an atomic section that assumes the condition under which the call returns: an
//! execution in which the thread reaches it too early ends there, and the interleavings in
//! which it gets there later are other executions. For the reachability of an error this is
//! exact (as `while (!c);` is `assume(c)`): every real execution is one of the modelled ones,
//! and a blocked thread does nothing another thread could observe. The cells are `int`s at
//! fixed byte offsets of the object (which the program touches only through these calls);
//! the static initialisers (`PTHREAD_RWLOCK_INITIALIZER`, `PTHREAD_ONCE_INIT`) are all
//! zeros, which is each object's free state. Semaphores never fail (`sem_trywait` aside);
//! a read-write lock gives a read lock whenever no writer holds it (glibc's default,
//! reader-preferring); `pthread_cond_timedwait` is a wait (spurious wake-ups allowed) that
//! returns 0 or `ETIMEDOUT`, which covers every timing.

use lang_c::span::Span;

use super::super::{Lowerer, R};
use super::{Builtin, Call};
use crate::ir::*;

const EBUSY: u64 = 16;
const EINVAL: u64 = 22;
const ETIMEDOUT: u64 = 110;

impl Lowerer<'_> {
    /// The synchronisation objects above; `None` for any other name.
    pub(super) fn sync_object_builtin(&mut self, call: &Call) -> Builtin {
        let (name, args, span, _) = call.parts();
        let n = match name {
            "sem_init" | "pthread_barrier_init" | "pthread_cond_timedwait" => 3,
            "pthread_rwlock_init" | "pthread_spin_init" | "pthread_once" | "sem_getvalue" => 2,
            "sem_wait"
            | "sem_trywait"
            | "sem_post"
            | "sem_destroy"
            | "pthread_spin_lock"
            | "pthread_spin_trylock"
            | "pthread_spin_unlock"
            | "pthread_spin_destroy"
            | "pthread_rwlock_rdlock"
            | "pthread_rwlock_wrlock"
            | "pthread_rwlock_tryrdlock"
            | "pthread_rwlock_trywrlock"
            | "pthread_rwlock_unlock"
            | "pthread_rwlock_destroy"
            | "pthread_barrier_wait"
            | "pthread_barrier_destroy" => 1,
            _ => return Ok(None),
        };
        self.arg_count(name, args, n, span)?;
        let int = self.types.int32();
        let obj = self.sync_ptr_arg(&args[0])?;
        let obj = self.freeze(obj);
        let c = self.cell(obj.clone(), 0);
        let read = |p: &Place| Expr::read(p.clone());
        let k = |v: u64| Expr::constant(v, int);
        let r: Expr = match name {
            "sem_init" | "pthread_spin_init" | "pthread_rwlock_init" => {
                let v = if name == "sem_init" {
                    self.discard(&args[1])?;
                    let v = self.rvalue(&args[2])?;
                    self.convert_arg(v, int, span)?
                } else {
                    if name == "pthread_rwlock_init" {
                        let attr = self.rvalue(&args[1])?;
                        if !Self::is_null(&attr) {
                            return Err(self.unsupported(span, format!("{name} with attributes")));
                        }
                    } else {
                        self.discard(&args[1])?;
                    }
                    k(0)
                };
                self.emit(InstrKind::Assign { dst: c, src: v });
                k(0)
            }
            "sem_destroy"
            | "pthread_spin_destroy"
            | "pthread_rwlock_destroy"
            | "pthread_barrier_destroy" => k(0),
            "sem_wait" => {
                let pos = self.binary(BinOp::SGt, read(&c), k(0), int);
                self.atomically(|lw| {
                    lw.emit(InstrKind::Assume(pos));
                    let dec = lw.binary(BinOp::Sub, read(&c), k(1), int);
                    lw.emit(InstrKind::Assign { dst: c, src: dec });
                });
                k(0)
            }
            "sem_post" => {
                let inc = self.binary(BinOp::Add, read(&c), k(1), int);
                self.atomically(|lw| lw.emit_unit(InstrKind::Assign { dst: c, src: inc }));
                k(0)
            }
            "sem_trywait" | "pthread_rwlock_tryrdlock" => {
                // Takes one unit (a read lock) if there is one.
                let (ok, fail) = if name == "sem_trywait" {
                    (self.binary(BinOp::SGt, read(&c), k(0), int), u64::MAX)
                } else {
                    (self.binary(BinOp::SGe, read(&c), k(0), int), EBUSY)
                };
                let delta = if name == "sem_trywait" {
                    BinOp::Sub
                } else {
                    BinOp::Add
                };
                let new = self.binary(delta, read(&c), k(1), int);
                self.try_step(ok, c, new, fail)
            }
            "sem_getvalue" => {
                let v = self.ptr_arg(&args[1])?;
                let v = self.freeze(v);
                let t = self.temp(int);
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src: read(&c),
                });
                let dst = self.cell(v, 0);
                self.emit(InstrKind::Assign {
                    dst,
                    src: Expr::read(t),
                });
                k(0)
            }
            "pthread_spin_lock" | "pthread_rwlock_wrlock" => {
                let free = self.binary(BinOp::Eq, read(&c), k(0), int);
                let taken = if name == "pthread_spin_lock" {
                    1
                } else {
                    u64::MAX
                };
                self.atomically(|lw| {
                    lw.emit(InstrKind::Assume(free));
                    lw.emit(InstrKind::Assign {
                        dst: c,
                        src: Expr::constant(taken, int),
                    });
                });
                k(0)
            }
            "pthread_spin_trylock" | "pthread_rwlock_trywrlock" => {
                let free = self.binary(BinOp::Eq, read(&c), k(0), int);
                let taken = if name == "pthread_spin_trylock" {
                    1
                } else {
                    u64::MAX
                };
                self.try_step(free, c, k(taken), EBUSY)
            }
            "pthread_spin_unlock" => {
                self.emit(InstrKind::Assign { dst: c, src: k(0) });
                k(0)
            }
            "pthread_rwlock_rdlock" => {
                let no_writer = self.binary(BinOp::SGe, read(&c), k(0), int);
                let inc = self.binary(BinOp::Add, read(&c), k(1), int);
                self.atomically(|lw| {
                    lw.emit(InstrKind::Assume(no_writer));
                    lw.emit(InstrKind::Assign { dst: c, src: inc });
                });
                k(0)
            }
            "pthread_rwlock_unlock" => {
                // -1: the writer's lock; n > 0: n readers.
                let writer = self.binary(BinOp::Eq, read(&c), k(u64::MAX), int);
                let dec = self.binary(BinOp::Sub, read(&c), k(1), int);
                let new = Expr {
                    kind: ExprKind::Ite(Box::new(writer), Box::new(k(0)), Box::new(dec)),
                    ty: int,
                };
                self.atomically(|lw| lw.emit_unit(InstrKind::Assign { dst: c, src: new }));
                k(0)
            }
            "pthread_once" => self.once(obj, &args[1], span)?,
            "pthread_barrier_init" => {
                let attr = self.rvalue(&args[1])?;
                if !Self::is_null(&attr) {
                    return Err(self.unsupported(span, format!("{name} with attributes")));
                }
                let n = self.rvalue(&args[2])?;
                let n = self.convert_arg(n, int, span)?;
                let n = self.freeze(n);
                let arrived = self.cell(obj.clone(), 4);
                let generation = self.cell(obj, 8);
                self.emit(InstrKind::Assign {
                    dst: c,
                    src: n.clone(),
                });
                self.emit(InstrKind::Assign {
                    dst: arrived,
                    src: k(0),
                });
                self.emit(InstrKind::Assign {
                    dst: generation,
                    src: k(0),
                });
                let zero = self.binary(BinOp::Eq, n, k(0), int);
                Expr {
                    kind: ExprKind::Ite(Box::new(zero), Box::new(k(EINVAL)), Box::new(k(0))),
                    ty: int,
                }
            }
            "pthread_barrier_wait" => self.barrier_wait(obj),
            "pthread_cond_timedwait" => {
                let m = self.sync_ptr_arg(&args[1])?;
                self.discard(&args[2])?;
                let waited = if self.kinds.mutex_kinds {
                    let w = self.kinds_cond_wait(obj, m);
                    Some(self.freeze(w))
                } else {
                    self.emit(InstrKind::CondWait {
                        cond: obj,
                        mutex: m,
                    });
                    None
                };
                // Timed out or not: a two-valued input.
                let b = self.types.bool_();
                let out = self.temp(b);
                self.emit(InstrKind::Nondet { dst: out.clone() });
                let r = Expr {
                    kind: ExprKind::Ite(
                        Box::new(Expr::read(out)),
                        Box::new(k(ETIMEDOUT)),
                        Box::new(k(0)),
                    ),
                    ty: int,
                };
                // A wait that failed (EPERM: not the owner of an error-checking or recursive
                // mutex) returns its error without waiting.
                match waited {
                    Some(w) => {
                        let failed = self.binary(BinOp::Ne, w.clone(), k(0), int);
                        Expr {
                            kind: ExprKind::Ite(Box::new(failed), Box::new(w), Box::new(r)),
                            ty: int,
                        }
                    }
                    None => r,
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(Some(r)))
    }

    /// The `int` at byte `offset` of the object `p` points to.
    pub(super) fn cell(&mut self, p: Expr, offset: u64) -> Place {
        let int = self.types.int32();
        let pi = self.types.pointer(int);
        let mut p = if p.ty == pi { p } else { self.cast(p, pi) };
        if offset != 0 {
            let pd = self.types.ptrdiff_t();
            p = Expr {
                kind: ExprKind::PtrAdd(Box::new(p), Box::new(Expr::constant(offset, pd))),
                ty: pi,
            };
        }
        Place {
            base: PlaceBase::Deref(Box::new(p)),
            projs: vec![],
            ty: int,
        }
    }

    fn emit_unit(&mut self, k: InstrKind) {
        self.emit(k);
    }

    /// `f`'s instructions as one atomic section.
    fn atomically(&mut self, f: impl FnOnce(&mut Self)) {
        self.emit(InstrKind::AtomicBegin);
        f(self);
        self.emit(InstrKind::AtomicEnd);
    }

    /// Atomically: if `ok`, `c = new`. Gives 0 when it did, else `fail`.
    fn try_step(&mut self, ok: Expr, c: Place, new: Expr, fail: u64) -> Expr {
        let int = self.types.int32();
        let r = self.temp(int);
        self.atomically(|lw| {
            lw.emit(InstrKind::Assign {
                dst: r.clone(),
                src: Expr::constant(fail, int),
            });
            let not_ok = lw.unary(UnOp::LogNot, ok, int);
            let skip = lw.emit_jump(Some(not_ok));
            lw.emit(InstrKind::Assign { dst: c, src: new });
            lw.emit(InstrKind::Assign {
                dst: r.clone(),
                src: Expr::constant(0, int),
            });
            lw.patch_here(skip);
        });
        Expr::read(r)
    }

    /// `pthread_once(o, f)`: the first caller marks `*o` running (1), calls `f` and marks it
    /// done (2); every other caller returns only once it is done.
    fn once(
        &mut self,
        o: Expr,
        f: &lang_c::span::Node<lang_c::ast::Expression>,
        span: Span,
    ) -> R<Expr> {
        let int = self.types.int32();
        let f = self.sync_arg(f)?;
        let void = self.types.void();
        let fty = self.types.intern(Type::Func {
            ret: void,
            params: vec![],
            variadic: false,
        });
        let fpt = self.types.pointer(fty);
        let f = self.convert_arg(f, fpt, span)?;
        let c = self.cell(o, 0);
        let s = self.temp(int);
        self.atomically(|lw| {
            lw.emit(InstrKind::Assign {
                dst: s.clone(),
                src: Expr::read(c.clone()),
            });
            let first = lw.binary(
                BinOp::Eq,
                Expr::read(s.clone()),
                Expr::constant(0, int),
                int,
            );
            let not_first = lw.unary(UnOp::LogNot, first, int);
            let skip = lw.emit_jump(Some(not_first));
            lw.emit(InstrKind::Assign {
                dst: c.clone(),
                src: Expr::constant(1, int),
            });
            lw.patch_here(skip);
        });
        let not_first = self.binary(BinOp::Ne, Expr::read(s), Expr::constant(0, int), int);
        let to_wait = self.emit_jump(Some(not_first));
        let callee = match super::strip_casts(&f).kind {
            ExprKind::FuncAddr(g) => Callee::Direct(g),
            _ => Callee::Indirect(f),
        };
        self.emit(InstrKind::Call {
            dst: None,
            callee,
            args: vec![],
        });
        self.emit(InstrKind::Assign {
            dst: c.clone(),
            src: Expr::constant(2, int),
        });
        let done = self.emit_jump(None);
        self.patch_here(to_wait);
        let finished = self.binary(BinOp::Eq, Expr::read(c), Expr::constant(2, int), int);
        self.emit(InstrKind::Assume(finished));
        self.patch_here(done);
        self.emit(InstrKind::Skip);
        Ok(Expr::constant(0, int))
    }

    /// `pthread_barrier_wait(b)`: cells 0 (the count), 4 (arrived) and 8 (the generation).
    /// The last thread to arrive starts the next generation and gets
    /// `PTHREAD_BARRIER_SERIAL_THREAD` (-1); the others return 0 once the generation moved.
    fn barrier_wait(&mut self, b: Expr) -> Expr {
        let int = self.types.int32();
        let count = self.cell(b.clone(), 0);
        let arrived = self.cell(b.clone(), 4);
        let generation = self.cell(b, 8);
        let g = self.temp(int);
        let r = self.temp(int);
        self.atomically(|lw| {
            lw.emit(InstrKind::Assign {
                dst: g.clone(),
                src: Expr::read(generation.clone()),
            });
            let a = lw.binary(
                BinOp::Add,
                Expr::read(arrived.clone()),
                Expr::constant(1, int),
                int,
            );
            let last = lw.binary(BinOp::Eq, a.clone(), Expr::read(count), int);
            let not_last = lw.unary(UnOp::LogNot, last, int);
            let others = lw.emit_jump(Some(not_last));
            lw.emit(InstrKind::Assign {
                dst: arrived.clone(),
                src: Expr::constant(0, int),
            });
            let next = lw.binary(
                BinOp::Add,
                Expr::read(g.clone()),
                Expr::constant(1, int),
                int,
            );
            lw.emit(InstrKind::Assign {
                dst: generation.clone(),
                src: next,
            });
            lw.emit(InstrKind::Assign {
                dst: r.clone(),
                src: Expr::constant(u64::MAX, int),
            });
            let end = lw.emit_jump(None);
            lw.patch_here(others);
            lw.emit(InstrKind::Assign {
                dst: arrived,
                src: a,
            });
            lw.emit(InstrKind::Assign {
                dst: r.clone(),
                src: Expr::constant(0, int),
            });
            lw.patch_here(end);
            lw.emit(InstrKind::Skip);
        });
        let serial = self.binary(
            BinOp::Ne,
            Expr::read(r.clone()),
            Expr::constant(0, int),
            int,
        );
        let skip = self.emit_jump(Some(serial));
        let moved = self.binary(BinOp::Ne, Expr::read(generation), Expr::read(g), int);
        self.emit(InstrKind::Assume(moved));
        self.patch_here(skip);
        self.emit(InstrKind::Skip);
        Expr::read(r)
    }
}
