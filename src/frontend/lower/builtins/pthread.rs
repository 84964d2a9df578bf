//! The pthread API: threads (create, join, exit, self), mutexes, condition variables and
//! thread-specific data keys; attributes that do not change the modelled behaviour are
//! accepted, every other `pthread_*` function is reported as unsupported.

use lang_c::ast::Expression;
use lang_c::span::{Node, Span};

use super::super::{Lowerer, Sym, R};
use super::{strip_casts, Builtin, Call};
use crate::ir::*;

/// glibc's limit on thread-specific data keys, and the error when it is reached.
const PTHREAD_KEYS_MAX: u64 = 1024;
const EAGAIN: u64 = 11;
/// glibc's mutex kinds (`PTHREAD_MUTEX_DEFAULT` is `PTHREAD_MUTEX_NORMAL`).
const PTHREAD_MUTEX_NORMAL: u64 = 0;
const PTHREAD_MUTEX_RECURSIVE: u64 = 1;
const PTHREAD_MUTEX_ERRORCHECK: u64 = 2;
/// glibc's value of `PTHREAD_CREATE_JOINABLE`.
const PTHREAD_CREATE_JOINABLE: u64 = 0;
/// Keys whose value and destructor are modelled: keys are numbered from 0, and a program that
/// uses a key numbered beyond reaches an out-of-bounds access of the key arrays, which is
/// unsupported (UNKNOWN), never a guess. Every key slot is a cell that a computed key number
/// may designate, so the arrays are kept small.
const KEY_SLOTS: u64 = 16;

impl Lowerer<'_> {
    /// The pthread functions; `None` for any other name.
    pub(super) fn pthread_builtin(&mut self, call: &Call) -> Builtin {
        let (name, args, span, want) = call.parts();
        let r: Option<Expr> = match name {
            "pthread_create" => {
                self.arg_count(name, args, 4, span)?;
                let h = self.sync_ptr_arg(&args[0])?;
                let attr = self.rvalue(&args[1])?;
                if !Self::is_null(&attr) {
                    self.warnings.push(format!(
                        "{}: thread attributes are ignored",
                        self.where_(span)
                    ));
                }
                let f = self.sync_arg(&args[2])?;
                let arg = self.sync_arg(&args[3])?;
                let vp = self.types.void_ptr();
                let arg = self.convert_arg(arg, vp, span)?;
                // A null `pthread_t *` (allowed by CBMC and glibc): the id goes nowhere.
                let handle = if Self::is_null(&h) {
                    let ty = self.types.long(false);
                    self.temp(ty)
                } else {
                    self.deref_place(h, span)?
                };
                let entry = match strip_casts(&f).kind {
                    ExprKind::FuncAddr(g) => Callee::Direct(g),
                    _ => Callee::Indirect(f),
                };
                self.emit(InstrKind::ThreadCreate { handle, entry, arg });
                self.zero_int()
            }
            "pthread_join" => {
                self.arg_count(name, args, 2, span)?;
                let t = self.sync_arg(&args[0])?;
                let r = self.sync_arg(&args[1])?;
                let retval = if Self::is_null(&r) { None } else { Some(r) };
                self.emit(InstrKind::ThreadJoin { thread: t, retval });
                self.zero_int()
            }
            "pthread_exit" => {
                self.arg_count(name, args, 1, span)?;
                let v = self.sync_arg(&args[0])?;
                let vp = self.types.void_ptr();
                let v = self.convert_arg(v, vp, span)?;
                self.emit(InstrKind::ThreadExit(v));
                None
            }
            "pthread_self" => {
                let ty = match self.lookup(name).cloned() {
                    Some(Sym::Func(f)) => self.funcs[f].ret,
                    _ => self.types.long(false),
                };
                let t = self.temp(ty);
                self.emit(InstrKind::ThreadSelf { dst: t.clone() });
                Some(Expr::read(t))
            }
            "pthread_equal" => {
                self.arg_count(name, args, 2, span)?;
                let a = self.rvalue(&args[0])?;
                let b = self.rvalue(&args[1])?;
                let int = self.types.int32();
                let b = self.convert_arg(b, a.ty, span)?;
                Some(self.binary(BinOp::Eq, a, b, int))
            }
            "pthread_mutex_init" | "pthread_cond_init" => {
                self.arg_count(name, args, 2, span)?;
                let m = self.sync_ptr_arg(&args[0])?;
                let attr = self.rvalue(&args[1])?;
                if !Self::is_null(&attr) && name == "pthread_cond_init" {
                    return Err(self.unsupported(span, format!("{name} with attributes")));
                }
                if name == "pthread_mutex_init" && self.kinds.mutex_kinds {
                    let attr = (!Self::is_null(&attr)).then(|| self.reads_first(attr));
                    self.kinds_init(m, attr);
                    return Ok(Some(self.zero_int()));
                }
                // Without kinds, a mutex attribute object can only have been given the normal
                // type (see `mutexattr_settype`): the mutex is an ordinary one.
                self.emit(if name == "pthread_mutex_init" {
                    InstrKind::MutexInit(m)
                } else {
                    InstrKind::CondInit(m)
                });
                self.zero_int()
            }
            "pthread_mutex_lock"
            | "pthread_mutex_unlock"
            | "pthread_mutex_destroy"
            | "pthread_cond_signal"
            | "pthread_cond_broadcast"
            | "pthread_cond_destroy" => {
                self.arg_count(name, args, 1, span)?;
                let m = self.sync_ptr_arg(&args[0])?;
                if self.kinds.mutex_kinds {
                    match name {
                        "pthread_mutex_lock" => return Ok(Some(Some(self.kinds_lock(m)))),
                        "pthread_mutex_unlock" => return Ok(Some(Some(self.kinds_unlock(m)))),
                        _ => {}
                    }
                }
                self.emit(match name {
                    "pthread_mutex_lock" => InstrKind::MutexLock(m),
                    "pthread_mutex_unlock" => InstrKind::MutexUnlock(m),
                    "pthread_mutex_destroy" => InstrKind::MutexDestroy(m),
                    "pthread_cond_signal" => InstrKind::CondSignal(m),
                    "pthread_cond_broadcast" => InstrKind::CondBroadcast(m),
                    _ => InstrKind::CondDestroy(m),
                });
                self.zero_int()
            }
            "pthread_mutex_trylock" => {
                self.arg_count(name, args, 1, span)?;
                let m = self.sync_ptr_arg(&args[0])?;
                if self.kinds.mutex_kinds {
                    return Ok(Some(Some(self.kinds_trylock(m))));
                }
                let int = self.types.int32();
                let dst = self.result_temp(int, want);
                self.emit(InstrKind::MutexTryLock {
                    mutex: m,
                    dst: dst.clone(),
                });
                dst.map(Expr::read)
            }
            "pthread_cond_wait" => {
                self.arg_count(name, args, 2, span)?;
                let c = self.sync_ptr_arg(&args[0])?;
                let m = self.sync_ptr_arg(&args[1])?;
                if self.kinds.mutex_kinds {
                    return Ok(Some(Some(self.kinds_cond_wait(c, m))));
                }
                self.emit(InstrKind::CondWait { cond: c, mutex: m });
                self.zero_int()
            }
            "pthread_key_create" => {
                self.arg_count(name, args, 2, span)?;
                let k = self.ptr_arg(&args[0])?;
                let dtor = self.rvalue(&args[1])?;
                let dtor = if Self::is_null(&dtor) {
                    None
                } else {
                    let dt = self.destructor_type();
                    Some(self.convert_arg(dtor, dt, span)?)
                };
                Some(self.key_create(k, dtor, span)?)
            }
            "pthread_getspecific" => {
                self.arg_count(name, args, 1, span)?;
                let k = self.rvalue(&args[0])?;
                let slot = self.specific_slot(k, span)?;
                Some(Expr::read(slot))
            }
            "pthread_setspecific" => {
                self.arg_count(name, args, 2, span)?;
                let k = self.rvalue(&args[0])?;
                let v = self.rvalue(&args[1])?;
                let vp = self.types.void_ptr();
                let v = self.assign_convert(v, vp, span)?;
                let slot = self.specific_slot(k, span)?;
                self.emit(InstrKind::Assign { dst: slot, src: v });
                self.zero_int()
            }
            "pthread_detach" => {
                // No effect on the thread; a join anywhere makes the program unsupported
                // (see `lower::detach`).
                self.arg_count(name, args, 1, span)?;
                self.discard(&args[0])?;
                let at = self.where_(span);
                self.note_detach(format!("pthread_detach at {at}"));
                self.zero_int()
            }
            "pthread_attr_setdetachstate" => {
                self.arg_count(name, args, 2, span)?;
                let a = self.ptr_arg(&args[0])?;
                let state = self.rvalue(&args[1])?;
                // PTHREAD_CREATE_JOINABLE (0) is the default state: nothing to note. Any other
                // value, or one not known here, may detach the threads created with it.
                if state.as_const() != Some(PTHREAD_CREATE_JOINABLE) {
                    let at = self.where_(span);
                    self.note_detach(format!("a detached thread attribute at {at}"));
                }
                if self.kinds.detach_state {
                    let int = self.types.int32();
                    let state = self.convert_arg(state, int, span)?;
                    Some(self.detach_state_set(a, state))
                } else {
                    self.zero_int()
                }
            }
            "pthread_attr_getdetachstate" => {
                self.arg_count(name, args, 2, span)?;
                let a = self.ptr_arg(&args[0])?;
                let out = self.ptr_arg(&args[1])?;
                let out = self.deref_place(out, span)?;
                self.detach_state_get(a, out);
                self.zero_int()
            }
            "pthread_attr_init" if self.kinds.detach_state => {
                self.arg_count(name, args, 1, span)?;
                let a = self.ptr_arg(&args[0])?;
                self.detach_state_init(a);
                self.zero_int()
            }
            "pthread_mutexattr_init" | "pthread_mutexattr_destroy" => {
                self.arg_count(name, args, 1, span)?;
                if name == "pthread_mutexattr_init" && self.kinds.mutex_kinds {
                    let a = self.ptr_arg(&args[0])?;
                    self.kinds_attr_init(a);
                } else {
                    self.discard(&args[0])?;
                }
                self.zero_int()
            }
            "pthread_mutexattr_settype" => {
                self.arg_count(name, args, 2, span)?;
                if self.kinds.mutex_kinds {
                    let a = self.ptr_arg(&args[0])?;
                    let kind = self.rvalue(&args[1])?;
                    let int = self.types.int32();
                    let kind = self.convert_arg(kind, int, span)?;
                    return Ok(Some(Some(self.kinds_settype(a, kind))));
                }
                self.discard(&args[0])?;
                let kind = self.rvalue(&args[1])?;
                self.mutexattr_settype(kind, span)?;
                self.zero_int()
            }
            "pthread_mutexattr_gettype" => {
                self.arg_count(name, args, 2, span)?;
                let a = self.ptr_arg(&args[0])?;
                let out = self.ptr_arg(&args[1])?;
                let out = self.deref_place(out, span)?;
                let a = self.kinds.mutex_kinds.then_some(a);
                self.kinds_gettype(a, out);
                self.zero_int()
            }
            "pthread_attr_init"
            | "pthread_attr_destroy"
            | "pthread_attr_setstacksize"
            | "pthread_attr_setscope"
            | "pthread_attr_setschedpolicy" => {
                // Stack size and scheduling attributes do not change the modelled behaviour.
                for a in args {
                    self.discard(a)?;
                }
                self.zero_int()
            }
            _ if name.starts_with("pthread_") => {
                return Err(self.unsupported(span, name));
            }
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// `pthread_mutexattr_settype(attr, kind)` in a program without mutex kinds (see
    /// `lower::mutex_kinds`, whose syntactic scan chose that): only the normal type
    /// (`PTHREAD_MUTEX_NORMAL`, which is also `PTHREAD_MUTEX_DEFAULT`) can be set; anything
    /// else is an error here (the scan would have chosen the model of kinds).
    ///
    /// Why this makes `pthread_mutex_init(m, attr)` exact with any attribute object: the
    /// object is opaque and only the `pthread_mutexattr_*` calls change it. `init` and
    /// `destroy` give the default (normal) type; `settype` sets only the normal type; every
    /// other setter (`setpshared`, `setprotocol`, `setrobust`, ...) is unsupported. So in
    /// every such program the frontend accepts, each reachable attribute object describes a
    /// normal mutex, which is the mutex modelled.
    fn mutexattr_settype(&mut self, kind: Expr, span: Span) -> R<()> {
        match kind.as_const() {
            Some(PTHREAD_MUTEX_NORMAL) => Ok(()),
            Some(PTHREAD_MUTEX_RECURSIVE) => Err(self.unsupported(
                span,
                "pthread_mutexattr_settype with PTHREAD_MUTEX_RECURSIVE (recursive mutexes)",
            )),
            Some(PTHREAD_MUTEX_ERRORCHECK) => Err(self.unsupported(
                span,
                "pthread_mutexattr_settype with PTHREAD_MUTEX_ERRORCHECK (error-checking mutexes)",
            )),
            _ => Err(self.unsupported(
                span,
                "pthread_mutexattr_settype with a kind other than PTHREAD_MUTEX_NORMAL",
            )),
        }
    }

    /// A pointer argument of a synchronisation call, with its reads of memory done first
    /// (see [`Self::sync_arg`]).
    pub(super) fn sync_ptr_arg(&mut self, e: &Node<Expression>) -> R<Expr> {
        let v = self.ptr_arg(e)?;
        Ok(self.reads_first(v))
    }

    /// An argument of a thread or synchronisation call, with its reads of memory done first.
    pub(super) fn sync_arg(&mut self, e: &Node<Expression>) -> R<Expr> {
        let v = self.rvalue(e)?;
        Ok(self.reads_first(v))
    }

    /// `e` with every read that another thread's write could reach moved into a register
    /// temporary assigned just before, so that the call itself reads no memory.
    ///
    /// Why: C evaluates a call's arguments before the call, and other threads may run in
    /// between. `pthread_mutex_lock(&ms[idx])` may read `idx == 0`, let another thread set
    /// `idx = 1` and take `ms[0]`, then take `ms[0]` itself. An engine that read `idx` in the
    /// lock's own step would only see the lock at the moment it passes, when `idx` may
    /// already be 1; for a lock or join, which wait, that loses runs (a wrong TRUE). With the
    /// read in its own instruction, every engine orders it like any other read.
    ///
    /// A read stays in place only when no other thread can write it: a temporary. A local's address may be taken later in its function, so
    /// locals and parameters count as memory here. Places keep their shape (`&t[i]` becomes
    /// `&t[tmp]`), so a handle or mutex named directly stays a direct place.
    pub(super) fn reads_first(&mut self, e: Expr) -> Expr {
        let Expr { kind, ty } = e;
        let kind = match kind {
            ExprKind::Read(p) if self.private_place(&p) => {
                ExprKind::Read(Box::new(self.place_reads_first(*p)))
            }
            ExprKind::Read(p) => {
                let t = self.temp(ty);
                let src = Expr {
                    kind: ExprKind::Read(p),
                    ty,
                };
                self.emit(InstrKind::Assign {
                    dst: t.clone(),
                    src,
                });
                return Expr::read(t);
            }
            ExprKind::AddrOf(p) => ExprKind::AddrOf(Box::new(self.place_reads_first(*p))),
            ExprKind::Const(_) | ExprKind::FuncAddr(_) => kind,
            ExprKind::Unary(op, a) => ExprKind::Unary(op, Box::new(self.reads_first(*a))),
            ExprKind::Cast(a) => ExprKind::Cast(Box::new(self.reads_first(*a))),
            ExprKind::Binary(op, a, b) => {
                let a = self.reads_first(*a);
                ExprKind::Binary(op, Box::new(a), Box::new(self.reads_first(*b)))
            }
            ExprKind::PtrAdd(a, b) => {
                let a = self.reads_first(*a);
                ExprKind::PtrAdd(Box::new(a), Box::new(self.reads_first(*b)))
            }
            ExprKind::PtrDiff(a, b) => {
                let a = self.reads_first(*a);
                ExprKind::PtrDiff(Box::new(a), Box::new(self.reads_first(*b)))
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.reads_first(*c);
                let a = self.reads_first(*a);
                let b = self.reads_first(*b);
                ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b))
            }
            ExprKind::Float(op, args) => {
                ExprKind::Float(op, args.into_iter().map(|a| self.reads_first(a)).collect())
            }
        };
        Expr { kind, ty }
    }

    /// `p` with the reads in its pointer and indices done first ([`Self::reads_first`]).
    fn place_reads_first(&mut self, p: Place) -> Place {
        let Place { base, projs, ty } = p;
        let base = match base {
            PlaceBase::Deref(e) => PlaceBase::Deref(Box::new(self.reads_first(*e))),
            b => b,
        };
        let projs = projs
            .into_iter()
            .map(|pr| match pr {
                Proj::Index { index, elem_size } => Proj::Index {
                    index: Box::new(self.reads_first(*index)),
                    elem_size,
                },
                f => f,
            })
            .collect();
        Place { base, projs, ty }
    }

    /// Whether only the running thread can write `p`: a temporary, named directly (no
    /// pointer reaches a temporary). Even a thread-local variable may be written through a
    /// pointer another thread holds.
    fn private_place(&self, p: &Place) -> bool {
        match p.base {
            PlaceBase::Var(v) => matches!(self.vars[v].kind, VarKind::Temp(_)),
            PlaceBase::Deref(_) => false,
        }
    }

    /// The type of a key's destructor, `void (*)(void *)`.
    pub(in crate::frontend::lower) fn destructor_type(&mut self) -> TypeId {
        let void = self.types.void();
        let vp = self.types.void_ptr();
        let f = self.types.intern(Type::Func {
            ret: void,
            params: vec![vp],
            variadic: false,
        });
        self.types.pointer(f)
    }

    /// The globals that model thread-specific data: the shared number of keys created, the
    /// per-thread (thread-local) value of every key, and the shared destructor of every key
    /// (null for none).
    pub(in crate::frontend::lower) fn key_globals(&mut self) -> KeyVars {
        if let Some(k) = self.key_vars {
            return k;
        }
        let u = self.types.int(32, false);
        let count = self.new_var("$pthread_keys", u, VarKind::Global);
        let vp = self.types.void_ptr();
        let arr = self.types.intern(Type::Array {
            elem: vp,
            len: Some(KEY_SLOTS),
        });
        let values = self.new_var("$pthread_specific", arr, VarKind::Global);
        self.vars[values].thread_local = true;
        let dt = self.destructor_type();
        let darr = self.types.intern(Type::Array {
            elem: dt,
            len: Some(KEY_SLOTS),
        });
        let destructors = self.new_var("$pthread_destructor", darr, VarKind::Global);
        let k = KeyVars {
            count,
            values,
            destructors,
            destructor_at: None,
        };
        self.key_vars = Some(k);
        k
    }

    /// `pthread_key_create(key, destructor)`: atomically the next key number, with its
    /// destructor recorded, or EAGAIN once PTHREAD_KEYS_MAX keys exist (as glibc does).
    fn key_create(&mut self, key_ptr: Expr, dtor: Option<Expr>, span: Span) -> R<Expr> {
        let KeyVars {
            count, destructors, ..
        } = self.key_globals();
        if dtor.is_some() {
            let here = self.loc;
            if let Some(k) = &mut self.key_vars {
                k.destructor_at.get_or_insert(here);
            }
        }
        let u = self.types.int(32, false);
        let int = self.types.int32();
        let key_place = self.deref_place(key_ptr, span)?;
        let r = self.temp(int);
        let n = Expr::read(Place::var(count, u));
        self.emit(InstrKind::AtomicBegin);
        self.emit(InstrKind::Assign {
            dst: r.clone(),
            src: Expr::constant(EAGAIN, int),
        });
        let full = self.binary(
            BinOp::UGe,
            n.clone(),
            Expr::constant(PTHREAD_KEYS_MAX, u),
            int,
        );
        let skip = self.emit_jump(Some(full));
        let kv = self.assign_convert(n.clone(), key_place.ty, span)?;
        self.emit(InstrKind::Assign {
            dst: key_place,
            src: kv,
        });
        // A key number may be reused only after pthread_key_delete, which is not modelled:
        // the slot is still null unless a destructor is given.
        if let Some(d) = dtor {
            let slot = self.key_array_slot(destructors, n.clone(), span)?;
            self.emit(InstrKind::Assign { dst: slot, src: d });
        }
        let inc = self.binary(BinOp::Add, n, Expr::constant(1, u), u);
        self.emit(InstrKind::Assign {
            dst: Place::var(count, u),
            src: inc,
        });
        self.emit(InstrKind::Assign {
            dst: r.clone(),
            src: Expr::constant(0, int),
        });
        self.patch_here(skip);
        self.emit(InstrKind::AtomicEnd);
        Ok(Expr::read(r))
    }

    /// This thread's value slot of key `k`.
    pub(in crate::frontend::lower) fn specific_slot(&mut self, k: Expr, span: Span) -> R<Place> {
        let values = self.key_globals().values;
        self.key_array_slot(values, k, span)
    }

    /// Element `k` of one of the key arrays.
    pub(in crate::frontend::lower) fn key_array_slot(
        &mut self,
        arr: VarId,
        k: Expr,
        span: Span,
    ) -> R<Place> {
        let ty = self.vars[arr].ty;
        let Type::Array { elem, .. } = self.types.get(ty).clone() else {
            return Err(self.invalid(span, "internal: key array expected"));
        };
        let pd = self.types.ptrdiff_t();
        let ix = self.convert_arg(k, pd, span)?;
        let mut p = Place::var(arr, ty);
        p.projs.push(Proj::Index {
            index: Box::new(ix),
            elem_size: self.types.size_of(elem).unwrap_or(4),
        });
        p.ty = elem;
        Ok(p)
    }
}

/// The globals that model thread-specific data.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyVars {
    /// Keys created so far (shared).
    pub count: VarId,
    /// Per thread, the value of every key.
    pub values: VarId,
    /// Per key, its destructor or null (shared).
    pub destructors: VarId,
    /// Where the first `pthread_key_create` with a destructor is: only if there is one does
    /// a thread's end run destructors.
    pub destructor_at: Option<Loc>,
}
