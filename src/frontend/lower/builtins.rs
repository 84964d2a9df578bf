//! Calls: SV-COMP builtins (`__VERIFIER_*`, `reach_error`, `assert`), the C library functions
//! the tasks use (`malloc`, `memset`, `abort`, …), the pthread API, and ordinary calls.
//!
//! Policy for functions without a body: see [`crate::ir::ExternalCall`].

use lang_c::ast::*;
use lang_c::span::{Node, Span};

use super::{Lowerer, Sym, R};
use crate::ir::*;

type Args = [Node<Expression>];

/// glibc's limit on thread-specific data keys, and the error when it is reached.
const PTHREAD_KEYS_MAX: u64 = 1024;
const EAGAIN: u64 = 11;

/// The result type of `__VERIFIER_nondet_<suffix>` when the program does not declare it.
fn nondet_type(suffix: &str) -> Option<(u8, bool, bool)> {
    // (bits or 0 for pointer-sized, signed, is_pointer)
    Some(match suffix {
        "bool" => (1, false, false),
        "char" => (8, true, false),
        "uchar" | "u8" => (8, false, false),
        "short" => (16, true, false),
        "ushort" | "u16" => (16, false, false),
        "int" => (32, true, false),
        "uint" | "unsigned" | "u32" => (32, false, false),
        "long" => (0, true, false),
        "ulong" | "size_t" => (0, false, false),
        "longlong" => (64, true, false),
        "ulonglong" | "u64" => (64, false, false),
        "pointer" => (0, false, true),
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    fn new_prop(&mut self, kind: PropKind) -> PropId {
        let func = self.cur_func().unwrap_or(self.init_id);
        self.props.push(Property {
            kind,
            loc: self.loc,
            func,
        })
    }

    /// `((e) ? (void) 0 : __assert_fail (...))`, what `assert(e)` expands to.
    pub(crate) fn assert_pattern(&mut self, c: &ConditionalExpression, span: Span) -> R<bool> {
        let Expression::Call(call) = &c.else_expression.node else {
            return Ok(false);
        };
        let Expression::Identifier(id) = &call.node.callee.node else {
            return Ok(false);
        };
        if id.node.name != "__assert_fail" {
            return Ok(false);
        }
        if super::expr::has_side_effects(&c.then_expression.node) {
            return Ok(false);
        }
        self.set_loc(span);
        let cond = self.rvalue(&c.condition)?;
        if !self.types.is_scalar(cond.ty) {
            return Err(self.invalid(span, "assert of a non-scalar"));
        }
        let cond = self.truth(cond);
        let prop = self.new_prop(PropKind::Assert);
        self.emit(InstrKind::Assert {
            cond: cond.clone(),
            prop,
        });
        // A failed assert aborts the program: executions continue only where it held.
        self.emit(InstrKind::Assume(cond));
        Ok(true)
    }

    fn arg_count(&self, name: &str, args: &Args, n: usize, span: Span) -> R<()> {
        if args.len() != n {
            return Err(self.invalid(
                span,
                format!("{name} expects {n} arguments, got {}", args.len()),
            ));
        }
        Ok(())
    }

    /// A pointer argument: its value.
    fn ptr_arg(&mut self, e: &Node<Expression>) -> R<Expr> {
        let v = self.rvalue(e)?;
        if !self.types.is_pointer(v.ty) && !self.types.is_integer(v.ty) {
            return Err(self.invalid(e.span, "pointer argument expected"));
        }
        Ok(v)
    }

    fn is_null(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Const(0))
            || matches!(&e.kind, ExprKind::Cast(x) if matches!(x.kind, ExprKind::Const(0)))
    }

    /// The place a pointer designates (`&x` gives `x` itself).
    fn deref_place(&mut self, p: Expr, span: Span) -> R<Place> {
        if let ExprKind::AddrOf(pl) = &p.kind {
            return Ok((**pl).clone());
        }
        let Some(t) = self.types.pointee(p.ty) else {
            return Err(self.invalid(span, "pointer expected"));
        };
        Ok(Place {
            base: PlaceBase::Deref(Box::new(p)),
            projs: vec![],
            ty: t,
        })
    }

    /// A builtin's argument converted to the type the builtin takes (as by assignment, so a
    /// void or struct value is an error, not a cast).
    fn convert_arg(&mut self, v: Expr, to: TypeId, span: Span) -> R<Expr> {
        if !self.types.is_scalar(v.ty) {
            return Err(self.invalid(
                span,
                format!("argument of type {}", self.types.display(v.ty)),
            ));
        }
        self.assign_convert(v, to, span)
    }

    fn zero_int(&mut self) -> Option<Expr> {
        let int = self.types.int32();
        Some(Expr::constant(0, int))
    }

    /// Result of a builtin that stores into a fresh temporary.
    fn result_temp(&mut self, ty: TypeId, want: bool) -> Option<Place> {
        want.then(|| self.temp(ty))
    }

    /// Handles a call of a known name; `None` when `name` is not a builtin.
    fn builtin(
        &mut self,
        name: &str,
        args: &Args,
        span: Span,
        want: bool,
    ) -> R<Option<Option<Expr>>> {
        // A program may define its own version of a library function; the SV-COMP builtins
        // keep their meaning whatever their body (a `reach_error` call is the violation).
        let always = matches!(
            name,
            "reach_error"
                | "__VERIFIER_error"
                | "__VERIFIER_assume"
                | "__VERIFIER_atomic_begin"
                | "__VERIFIER_atomic_end"
                | "__assert_fail"
        ) || name.starts_with("__VERIFIER_nondet_");
        if !always && self.defined.contains(name) {
            return Ok(None);
        }
        let r: Option<Expr> = match name {
            "reach_error" | "__VERIFIER_error" => {
                for a in args {
                    self.discard(a)?;
                }
                let prop = self.new_prop(PropKind::ReachError);
                let int = self.types.int32();
                self.emit(InstrKind::Assert {
                    cond: Expr::constant(0, int),
                    prop,
                });
                None
            }
            "__assert_fail" | "__assert_perror_fail" | "__assert" | "__builtin_trap" => {
                for a in args {
                    self.discard(a)?;
                }
                let prop = self.new_prop(PropKind::Assert);
                let int = self.types.int32();
                self.emit(InstrKind::Assert {
                    cond: Expr::constant(0, int),
                    prop,
                });
                self.emit(InstrKind::Halt);
                None
            }
            "__VERIFIER_assume" => {
                self.arg_count(name, args, 1, span)?;
                let c = self.rvalue(&args[0])?;
                let c = self.truth(c);
                self.emit(InstrKind::Assume(c));
                None
            }
            "abort" | "exit" | "_exit" | "_Exit" => {
                for a in args {
                    self.discard(a)?;
                }
                self.emit(InstrKind::Halt);
                None
            }
            "__builtin_unreachable" => {
                let int = self.types.int32();
                self.emit(InstrKind::Assume(Expr::constant(0, int)));
                None
            }
            "__VERIFIER_atomic_begin" => {
                self.emit(InstrKind::AtomicBegin);
                None
            }
            "__VERIFIER_atomic_end" => {
                self.emit(InstrKind::AtomicEnd);
                None
            }
            "__builtin_constant_p" => {
                // gcc's answer without optimisation: 1 for constant expressions, else 0.
                self.arg_count(name, args, 1, span)?;
                let pos = self.pos();
                let v = self.rvalue(&args[0]);
                let emitted = self.pos() != pos;
                self.truncate(pos);
                let k = matches!(v, Ok(ref x) if x.as_const().is_some()) && !emitted;
                let int = self.types.int32();
                Some(Expr::constant(k as u64, int))
            }
            "__builtin_bswap16" | "__builtin_bswap32" | "__builtin_bswap64" => {
                self.arg_count(name, args, 1, span)?;
                let bits: u8 = match name {
                    "__builtin_bswap16" => 16,
                    "__builtin_bswap32" => 32,
                    _ => 64,
                };
                let t = self.types.int(bits, false);
                let x = self.rvalue(&args[0])?;
                let x = self.convert_arg(x, t, span)?;
                let x = self.freeze(x);
                let mut acc: Option<Expr> = None;
                let n = bits as u64 / 8;
                for k in 0..n {
                    // Byte k moves to byte n-1-k.
                    let from = k * 8;
                    let to = (n - 1 - k) * 8;
                    let mask = Expr::constant(0xff, t);
                    let shifted = self.binary(BinOp::LShr, x.clone(), Expr::constant(from, t), t);
                    let byte = self.binary(BinOp::BitAnd, shifted, mask, t);
                    let placed = self.binary(BinOp::Shl, byte, Expr::constant(to, t), t);
                    acc = Some(match acc {
                        None => placed,
                        Some(a) => self.binary(BinOp::BitOr, a, placed, t),
                    });
                }
                acc
            }
            "__builtin_expect" => {
                self.arg_count(name, args, 2, span)?;
                let v = self.rvalue(&args[0])?;
                self.discard(&args[1])?;
                Some(v)
            }
            _ if name.starts_with("__VERIFIER_nondet_") => {
                let ty = match self.lookup(name).cloned() {
                    Some(Sym::Func(f)) => self.funcs[f].ret,
                    _ => {
                        let Some((bits, signed, ptr)) =
                            nondet_type(&name["__VERIFIER_nondet_".len()..])
                        else {
                            return Err(self.unsupported(span, format!("undeclared {name}")));
                        };
                        if ptr {
                            self.types.void_ptr()
                        } else if bits == 1 {
                            self.types.bool_()
                        } else if bits == 0 {
                            self.types.long(signed)
                        } else {
                            self.types.int(bits, signed)
                        }
                    }
                };
                if self.types.is_float(ty) {
                    return Err(self.unsupported(span, format!("{name} (floating point)")));
                }
                if self.types.is_void(ty) {
                    return Err(self.invalid(span, format!("{name} returns void")));
                }
                for a in args {
                    self.discard(a)?;
                }
                // Even an unused nondet call is a step; only a used value needs a place.
                let t = self.temp(ty);
                self.emit(InstrKind::Nondet { dst: t.clone() });
                Some(Expr::read(t))
            }
            "malloc" | "calloc" | "alloca" | "__builtin_alloca" | "kmalloc" | "kzalloc" => {
                let st = self.types.size_t();
                let (size, zeroed) = if name == "calloc" {
                    self.arg_count(name, args, 2, span)?;
                    let n = self.rvalue(&args[0])?;
                    let m = self.rvalue(&args[1])?;
                    let n = self.convert_arg(n, st, span)?;
                    let m = self.convert_arg(m, st, span)?;
                    (self.binary(BinOp::Mul, n, m, st), true)
                } else {
                    if args.is_empty() {
                        return Err(self.invalid(span, format!("{name} expects a size")));
                    }
                    let n = self.rvalue(&args[0])?;
                    for a in &args[1..] {
                        self.discard(a)?;
                    }
                    (self.convert_arg(n, st, span)?, name == "kzalloc")
                };
                let vp = self.types.void_ptr();
                let dst = self.result_temp(vp, want);
                let site = AllocSite::from_u32(self.alloc_sites);
                self.alloc_sites += 1;
                self.emit(InstrKind::Alloc {
                    dst: dst.clone(),
                    size,
                    zeroed,
                    site,
                });
                dst.map(Expr::read)
            }
            "free" => {
                self.arg_count(name, args, 1, span)?;
                let p = self.ptr_arg(&args[0])?;
                self.emit(InstrKind::Free(p));
                None
            }
            "memset" => {
                self.arg_count(name, args, 3, span)?;
                let d = self.ptr_arg(&args[0])?;
                let b = self.rvalue(&args[1])?;
                let n = self.rvalue(&args[2])?;
                let st = self.types.size_t();
                let int = self.types.int32();
                let d = self.freeze(d);
                let b = self.convert_arg(b, int, span)?;
                let n = self.convert_arg(n, st, span)?;
                self.emit(InstrKind::Memset {
                    dst: d.clone(),
                    byte: b,
                    len: n,
                });
                Some(d)
            }
            "memcpy" | "memmove" => {
                self.arg_count(name, args, 3, span)?;
                let d = self.ptr_arg(&args[0])?;
                let s = self.ptr_arg(&args[1])?;
                let n = self.rvalue(&args[2])?;
                let st = self.types.size_t();
                let d = self.freeze(d);
                let n = self.convert_arg(n, st, span)?;
                self.emit(InstrKind::Memcpy {
                    dst: d.clone(),
                    src: s,
                    len: n,
                });
                Some(d)
            }
            "strcpy" => {
                self.arg_count(name, args, 2, span)?;
                Some(self.strcpy(args, span)?)
            }
            "strncpy" | "strcat" | "strncat" | "sprintf" | "snprintf" | "vsprintf"
            | "vsnprintf" | "sscanf" | "scanf" | "fscanf" | "gets" | "fgets" | "read" | "fread"
            | "memccpy" | "stpcpy" | "strtok" | "realloc" => {
                // Library functions that write through their arguments or whose result aliases
                // memory: the no-body policy (nothing written) would be unsound for them.
                return Err(self.unsupported(span, name));
            }
            "pthread_create" => {
                self.arg_count(name, args, 4, span)?;
                let h = self.ptr_arg(&args[0])?;
                let attr = self.rvalue(&args[1])?;
                if !Self::is_null(&attr) {
                    self.warnings.push(format!(
                        "{}: thread attributes are ignored",
                        self.where_(span)
                    ));
                }
                let f = self.rvalue(&args[2])?;
                let arg = self.rvalue(&args[3])?;
                let vp = self.types.void_ptr();
                let arg = self.convert_arg(arg, vp, span)?;
                let handle = self.deref_place(h, span)?;
                let entry = match strip_casts(&f).kind {
                    ExprKind::FuncAddr(g) => Callee::Direct(g),
                    _ => Callee::Indirect(f),
                };
                self.emit(InstrKind::ThreadCreate { handle, entry, arg });
                self.zero_int()
            }
            "pthread_join" => {
                self.arg_count(name, args, 2, span)?;
                let t = self.rvalue(&args[0])?;
                let r = self.rvalue(&args[1])?;
                let retval = if Self::is_null(&r) { None } else { Some(r) };
                self.emit(InstrKind::ThreadJoin { thread: t, retval });
                self.zero_int()
            }
            "pthread_exit" => {
                self.arg_count(name, args, 1, span)?;
                let v = self.rvalue(&args[0])?;
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
                let m = self.ptr_arg(&args[0])?;
                let attr = self.rvalue(&args[1])?;
                if !Self::is_null(&attr) {
                    return Err(self.unsupported(span, format!("{name} with attributes")));
                }
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
                let m = self.ptr_arg(&args[0])?;
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
                let m = self.ptr_arg(&args[0])?;
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
                let c = self.ptr_arg(&args[0])?;
                let m = self.ptr_arg(&args[1])?;
                self.emit(InstrKind::CondWait { cond: c, mutex: m });
                self.zero_int()
            }
            "pthread_key_create" => {
                self.arg_count(name, args, 2, span)?;
                let k = self.ptr_arg(&args[0])?;
                let dtor = self.rvalue(&args[1])?;
                if !Self::is_null(&dtor) {
                    return Err(self.unsupported(span, "pthread_key_create with a destructor"));
                }
                Some(self.key_create(k, span)?)
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
            _ if (name.starts_with("__atomic_")
                || name.starts_with("__sync_")
                || name.starts_with("__c11_atomic"))
                && self.lookup(name).is_none() =>
            {
                return Err(self.unsupported(span, name));
            }
            "setjmp" | "longjmp" | "_setjmp" | "__builtin_setjmp" | "__builtin_longjmp"
            | "signal" | "fork" | "__builtin_va_start" | "__builtin_va_end"
            | "__builtin_va_copy" => {
                return Err(self.unsupported(span, name));
            }
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// `strcpy(d, s)` as the byte-copy loop it is (the loop is unwound like any other).
    fn strcpy(&mut self, args: &Args, span: Span) -> R<Expr> {
        let d = self.ptr_arg(&args[0])?;
        let s = self.ptr_arg(&args[1])?;
        let c = self.types.char_();
        let cp = self.types.pointer(c);
        let d = self.convert_arg(d, cp, span)?;
        let d = self.freeze(d);
        let s = self.convert_arg(s, cp, span)?;
        let s = self.freeze(s);
        let pd = self.types.ptrdiff_t();
        let i = self.temp(pd);
        self.emit(InstrKind::Assign {
            dst: i.clone(),
            src: Expr::constant(0, pd),
        });
        let head = self.emit(InstrKind::Skip);
        let ch = self.temp(c);
        let src_addr = self.ptr_add(s, Expr::read(i.clone()), false, span)?;
        self.emit(InstrKind::Assign {
            dst: ch.clone(),
            src: Expr::read(Place {
                base: PlaceBase::Deref(Box::new(src_addr)),
                projs: vec![],
                ty: c,
            }),
        });
        let dst_addr = self.ptr_add(d.clone(), Expr::read(i.clone()), false, span)?;
        self.emit(InstrKind::Assign {
            dst: Place {
                base: PlaceBase::Deref(Box::new(dst_addr)),
                projs: vec![],
                ty: c,
            },
            src: Expr::read(ch.clone()),
        });
        let one = Expr::constant(1, pd);
        let inc = self.binary(BinOp::Add, Expr::read(i.clone()), one, pd);
        self.emit(InstrKind::Assign { dst: i, src: inc });
        let more = self.truth(Expr::read(ch));
        self.emit_jump_to(head, Some(more));
        Ok(d)
    }

    /// The globals that model thread-specific data: the shared number of keys created and
    /// the per-thread (thread-local) value of every key.
    fn key_globals(&mut self) -> (VarId, VarId) {
        if let Some(k) = self.key_vars {
            return k;
        }
        let u = self.types.int(32, false);
        let count = self.new_var("$pthread_keys", u, VarKind::Global);
        let vp = self.types.void_ptr();
        let arr = self.types.intern(Type::Array {
            elem: vp,
            len: Some(PTHREAD_KEYS_MAX),
        });
        let values = self.new_var("$pthread_specific", arr, VarKind::Global);
        self.vars[values].thread_local = true;
        self.key_vars = Some((count, values));
        (count, values)
    }

    /// `pthread_key_create(key, NULL)`: atomically the next key number, or EAGAIN once
    /// PTHREAD_KEYS_MAX keys exist (as glibc does).
    fn key_create(&mut self, key_ptr: Expr, span: Span) -> R<Expr> {
        let (count, _) = self.key_globals();
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
    fn specific_slot(&mut self, k: Expr, span: Span) -> R<Place> {
        let (_, values) = self.key_globals();
        let vp = self.types.void_ptr();
        let pd = self.types.ptrdiff_t();
        let ix = self.convert_arg(k, pd, span)?;
        let ty = self.vars[values].ty;
        let mut p = Place::var(values, ty);
        p.projs.push(Proj::Index {
            index: Box::new(ix),
            elem_size: self.types.size_of(vp).unwrap_or(4),
        });
        p.ty = vp;
        Ok(p)
    }

    /// A call expression; `Some(value)` unless the callee returns `void`.
    pub(crate) fn call(&mut self, c: &CallExpression, span: Span, want: bool) -> R<Option<Expr>> {
        self.set_loc_keep_line(span);
        if let Expression::Identifier(id) = &c.callee.node {
            let name = id.node.name.as_str();
            // A local variable of the same name hides the library function.
            let shadowed = matches!(self.lookup(name), Some(Sym::Var(_)));
            if !shadowed {
                if let Some(r) = self.builtin(name, &c.arguments, span, want)? {
                    return Ok(r);
                }
            }
            if self.lookup(name).is_none() {
                // Implicit declaration (C89): `int name()`.
                let int = self.types.int32();
                let ty = self.types.intern(Type::Func {
                    ret: int,
                    params: vec![],
                    variadic: true,
                });
                let f = self.declare_func(name, ty);
                self.scopes[0].syms.insert(name.to_string(), Sym::Func(f));
                self.warnings.push(format!(
                    "{}: implicit declaration of function '{name}'",
                    self.where_(span)
                ));
            }
        }
        let callee = self.rvalue(&c.callee)?;
        let fty = match self.types.pointee(callee.ty) {
            Some(t) => t,
            None => return Err(self.invalid(span, "called object is not a function")),
        };
        let Type::Func {
            ret,
            params,
            variadic,
        } = self.types.get(fty).clone()
        else {
            return Err(self.invalid(span, "called object is not a function"));
        };
        if c.arguments.len() < params.len() || (!variadic && c.arguments.len() > params.len()) {
            return Err(self.invalid(
                span,
                format!(
                    "function expects {} arguments, got {}",
                    params.len(),
                    c.arguments.len()
                ),
            ));
        }
        let mut args = Vec::with_capacity(c.arguments.len());
        let n = c.arguments.len();
        for (i, a) in c.arguments.iter().enumerate() {
            let v = self.rvalue(a)?;
            let v = match params.get(i) {
                Some(&pt) => self.assign_convert(v, pt, a.span)?,
                None => self.promote(v),
            };
            // Later arguments' side effects must not change earlier argument values.
            let later_effects = c.arguments[i + 1..n]
                .iter()
                .any(|x| super::expr::has_side_effects(&x.node));
            args.push(if later_effects { self.freeze(v) } else { v });
        }
        let callee = match strip_casts(&callee).kind {
            ExprKind::FuncAddr(f) => Callee::Direct(f),
            _ => Callee::Indirect(callee),
        };
        let atomic = match &callee {
            Callee::Direct(f) => {
                self.funcs[*f].atomic && !self.cur_func().is_some_and(|g| self.funcs[g].atomic)
            }
            Callee::Indirect(_) => false,
        };
        // A result nobody reads needs no place.
        let dst = if self.types.is_void(ret) || !want {
            None
        } else {
            Some(self.temp(ret))
        };
        if atomic {
            self.emit(InstrKind::AtomicBegin);
        }
        self.emit(InstrKind::Call {
            dst: dst.clone(),
            callee,
            args,
        });
        if atomic {
            self.emit(InstrKind::AtomicEnd);
        }
        Ok(dst.map(Expr::read))
    }

    fn set_loc_keep_line(&mut self, span: Span) {
        if self.loc.line == 0 {
            self.set_loc(span);
        }
    }
}

/// The expression under any casts.
fn strip_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(x) => strip_casts(x),
        _ => e,
    }
}
