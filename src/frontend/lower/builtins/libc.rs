//! C library functions with a modelled effect: program end (`abort`, `exit`), allocation,
//! `memset`, `memcpy`, `strcpy`; and those reported as unsupported because they write through
//! their arguments or leave the program's control flow (`sprintf`, `setjmp`, `fork`, …).

use lang_c::span::Span;

use super::super::{Lowerer, R};
use super::{Args, Builtin, Call};
use crate::ir::*;

/// Library functions without a body in the program that only read through their pointer
/// arguments (they write to no object of the program): a call of one of them keeps the no-body
/// policy (a nondet result, nothing written) even when it receives a pointer. Every other
/// function without a body that receives a pointer makes the program unsupported (see
/// `Lowerer::resolve_external_calls`). The printf family is here on condition that its format
/// has no `%n` (checked where the call is lowered); results that point into an argument
/// (`strchr`) are nondet pointers, which point to no known object.
pub(in crate::frontend::lower) const READ_ONLY: &[&str] = &[
    "printf",
    "fprintf",
    "vprintf",
    "vfprintf",
    "dprintf",
    "puts",
    "fputs",
    "putchar",
    "putc",
    "fputc",
    "perror",
    "strlen",
    "strnlen",
    "strcmp",
    "strncmp",
    "strcasecmp",
    "strncasecmp",
    "memcmp",
    "strchr",
    "strrchr",
    "strstr",
    "strspn",
    "strcspn",
    "strpbrk",
    "memchr",
    "atoi",
    "atol",
    "atoll",
    "atof",
    "fflush",
    "assert_perror",
];

/// The members of [`READ_ONLY`] that read a format: a `%n` in it writes.
pub(in crate::frontend::lower) const PRINTF_FAMILY: &[&str] =
    &["printf", "fprintf", "vprintf", "vfprintf", "dprintf"];

impl Lowerer<'_> {
    /// The C library functions; `None` for any other name.
    pub(super) fn libc_builtin(&mut self, call: &Call) -> Builtin {
        let (name, args, span, want) = call.parts();
        let r: Option<Expr> = match name {
            "abort" | "exit" | "_exit" | "_Exit" => {
                for a in args {
                    self.discard(a)?;
                }
                self.emit(InstrKind::Halt);
                None
            }
            "malloc" | "calloc" | "alloca" | "__builtin_alloca" | "kmalloc" | "kzalloc" => {
                let hint = self.alloc_hint.take();
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
                let dst = self.result_temp(hint.unwrap_or(vp), want);
                let site = AllocSite::from_u32(self.alloc_sites);
                self.alloc_sites += 1;
                self.emit(InstrKind::Alloc {
                    dst: dst.clone(),
                    size,
                    zeroed,
                    site,
                    kind: if name.contains("alloca") {
                        crate::ir::AllocKind::Stack
                    } else {
                        crate::ir::AllocKind::Heap
                    },
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
            "sscanf" => Some(self.sscanf(args, span)?),
            "strncpy" | "strcat" | "strncat" | "sprintf" | "snprintf" | "vsprintf"
            | "vsnprintf" | "scanf" | "fscanf" | "gets" | "fgets" | "read" | "fread"
            | "memccpy" | "stpcpy" | "strtok" | "realloc" => {
                // Library functions that write through their arguments or whose result aliases
                // memory: the no-body policy (nothing written) would be unsound for them.
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
}
