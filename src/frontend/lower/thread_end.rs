//! What a thread does when it ends: thread-specific data destructors (POSIX
//! `pthread_key_create` with a destructor).
//!
//! When a thread returns from its start function or calls `pthread_exit`, POSIX runs, for every
//! key whose value in that thread is not null and whose destructor is not null, the destructor
//! on the value, after setting the value to null; if destructors set values again, it repeats,
//! at most `PTHREAD_DESTRUCTOR_ITERATIONS` rounds. The end of `main` (and `exit`) runs none.
//!
//! The lowering writes this as ordinary IR, so every consumer (symbolic execution, the
//! explorers, the sharing analyses) sees the calls without knowing about keys:
//! - `__yogar_tls_destructors()` holds the rounds: glibc's loop, unrolled to its
//!   `PTHREAD_DESTRUCTOR_ITERATIONS` = 4 rounds, each a loop over the keys created so far
//!   (glibc nulls every non-null value and calls the key's destructor if there is one; after
//!   the last round remaining values are dropped, which no thread can observe). A round in which
//!   no destructor set a value finds every value null, so running all four rounds is the same
//!   as glibc's early stop.
//! - each function a `pthread_create` names directly is started through a wrapper with its
//!   signature that calls it and then the destructors;
//! - `pthread_exit(v)` becomes a call of `__yogar_thread_exit(v)`, which runs the destructors
//!   and then ends the thread (the call never returns).
//!
//! This is only done when some key has a destructor; a `pthread_create` through a function
//! pointer is then unsupported (the wrapper would have to be chosen by value).

use std::collections::HashMap;

use super::{FnCtx, Lowerer, R};
use crate::frontend::error::FrontendError;
use crate::ir::*;

/// glibc's `PTHREAD_DESTRUCTOR_ITERATIONS`.
const DESTRUCTOR_ROUNDS: usize = 4;

impl Lowerer<'_> {
    /// Makes thread ends run the destructors of thread-specific data, if any key has one.
    pub(super) fn thread_end_destructors(&mut self) -> R<()> {
        let Some(keys) = self.key_vars else {
            return Ok(());
        };
        let Some(at) = keys.destructor_at else {
            return Ok(());
        };
        self.loc = at;
        let run = self.destructor_rounds(keys)?;
        let vp = self.types.void_ptr();
        let exit = self.synth_function("__yogar_thread_exit", vp, &[vp], at, |lw, ps| {
            lw.emit(InstrKind::Call {
                dst: None,
                callee: Callee::Direct(run),
                args: vec![],
            });
            lw.emit(InstrKind::ThreadExit(Expr::read(Place::var(ps[0], vp))));
            Ok(())
        })?;
        let mut wrappers: HashMap<FuncId, FuncId> = HashMap::new();
        let ids: Vec<FuncId> = self.funcs.keys().collect();
        for f in ids {
            if f == run || f == exit {
                continue;
            }
            let Some(body) = &self.funcs[f].body else {
                continue;
            };
            let mut edits: Vec<(InstrId, InstrKind)> = Vec::new();
            for (id, ins) in body.instrs.iter() {
                match &ins.kind {
                    InstrKind::ThreadExit(v) => edits.push((
                        id,
                        InstrKind::Call {
                            dst: None,
                            callee: Callee::Direct(exit),
                            args: vec![v.clone()],
                        },
                    )),
                    InstrKind::ThreadCreate {
                        handle,
                        entry: Callee::Direct(g),
                        arg,
                    } => edits.push((
                        id,
                        InstrKind::ThreadCreate {
                            handle: handle.clone(),
                            entry: Callee::Direct(*g),
                            arg: arg.clone(),
                        },
                    )),
                    InstrKind::ThreadCreate { .. } => {
                        let e = FrontendError::Unsupported(format!(
                            "{}: unsupported: pthread_create through a function pointer \
                             together with thread-specific data destructors",
                            self.where_loc(ins.loc)
                        ));
                        self.poisoned.push((f, e));
                    }
                    _ => {}
                }
            }
            for (id, mut kind) in edits {
                if let InstrKind::ThreadCreate {
                    entry: Callee::Direct(g),
                    ..
                } = &mut kind
                {
                    let w = match wrappers.get(g) {
                        Some(&w) => w,
                        None => {
                            let w = self.start_wrapper(*g, run)?;
                            wrappers.insert(*g, w);
                            w
                        }
                    };
                    *g = w;
                }
                if let Some(b) = &mut self.funcs[f].body {
                    b.instrs[id].kind = kind;
                }
            }
        }
        Ok(())
    }

    /// `file:line` of a location.
    fn where_loc(&self, loc: Loc) -> String {
        format!("{}:{}", self.map.file_name(loc.file), loc.line)
    }

    /// `__yogar_tls_destructors()`: the destructor rounds (see the module documentation).
    fn destructor_rounds(&mut self, keys: super::builtins::KeyVars) -> R<FuncId> {
        let void = self.types.void();
        let at = self.loc;
        self.synth_function("__yogar_tls_destructors", void, &[], at, |lw, _| {
            let u = lw.types.int(32, false);
            let int = lw.types.int32();
            let vp = lw.types.void_ptr();
            let dt = lw.destructor_type();
            let span = lang_c::span::Span::none();
            let count = Expr::read(Place::var(keys.count, u));
            for _ in 0..DESTRUCTOR_ROUNDS {
                let k = lw.temp(u);
                lw.emit(InstrKind::Assign {
                    dst: k.clone(),
                    src: Expr::constant(0, u),
                });
                let head = lw.pos();
                let more = lw.binary(BinOp::ULt, Expr::read(k.clone()), count.clone(), int);
                let done = lw.unary(UnOp::LogNot, more, int);
                let leave = lw.emit_jump(Some(done));
                let v = lw.temp(vp);
                let slot = lw.key_array_slot(keys.values, Expr::read(k.clone()), span)?;
                lw.emit(InstrKind::Assign {
                    dst: v.clone(),
                    src: Expr::read(slot.clone()),
                });
                let null = lw.unary(UnOp::LogNot, Expr::read(v.clone()), int);
                let skip_null = lw.emit_jump(Some(null));
                lw.emit(InstrKind::Assign {
                    dst: slot,
                    src: Expr::constant(0, vp),
                });
                let d = lw.temp(dt);
                let dslot = lw.key_array_slot(keys.destructors, Expr::read(k.clone()), span)?;
                lw.emit(InstrKind::Assign {
                    dst: d.clone(),
                    src: Expr::read(dslot),
                });
                let none = lw.unary(UnOp::LogNot, Expr::read(d.clone()), int);
                let skip_none = lw.emit_jump(Some(none));
                lw.emit(InstrKind::Call {
                    dst: None,
                    callee: Callee::Indirect(Expr::read(d)),
                    args: vec![Expr::read(v)],
                });
                lw.patch_here(skip_null);
                lw.patch_here(skip_none);
                let inc = lw.binary(BinOp::Add, Expr::read(k.clone()), Expr::constant(1, u), u);
                lw.emit(InstrKind::Assign { dst: k, src: inc });
                lw.emit_jump_to(head, None);
                lw.patch_here(leave);
            }
            lw.emit(InstrKind::Return(None));
            Ok(())
        })
    }

    /// A start function with `g`'s signature that calls `g`, then `run`.
    fn start_wrapper(&mut self, g: FuncId, run: FuncId) -> R<FuncId> {
        let ret = self.funcs[g].ret;
        let ptys: Vec<TypeId> = self.funcs[g]
            .params
            .iter()
            .map(|&p| self.vars[p].ty)
            .collect();
        let name = format!("__yogar_thread_start_{}", self.funcs[g].name);
        let at = self.funcs[g].loc;
        let void = self.types.void();
        self.synth_function(&name, ret, &ptys, at, |lw, ps| {
            let args: Vec<Expr> = ps
                .iter()
                .zip(&ptys)
                .map(|(&p, &t)| Expr::read(Place::var(p, t)))
                .collect();
            let dst = (ret != void).then(|| lw.temp(ret));
            lw.emit(InstrKind::Call {
                dst: dst.clone(),
                callee: Callee::Direct(g),
                args,
            });
            lw.emit(InstrKind::Call {
                dst: None,
                callee: Callee::Direct(run),
                args: vec![],
            });
            lw.emit(InstrKind::Return(dst.map(Expr::read)));
            Ok(())
        })
    }

    /// A function the lowering writes itself: `build` emits its body (which must end in a
    /// return or a thread exit) given its parameters.
    fn synth_function(
        &mut self,
        name: &str,
        ret: TypeId,
        params: &[TypeId],
        at: Loc,
        build: impl FnOnce(&mut Self, &[VarId]) -> R<()>,
    ) -> R<FuncId> {
        let ty = self.types.intern(Type::Func {
            ret,
            params: params.to_vec(),
            variadic: false,
        });
        let f = self.funcs.push(Function {
            name: name.to_string(),
            ty,
            ret,
            params: vec![],
            locals: vec![],
            body: None,
            atomic: false,
            loc: at,
        });
        self.loc = at;
        let ps: Vec<VarId> = params
            .iter()
            .enumerate()
            .map(|(i, &t)| self.new_var(&format!("$param{i}"), t, VarKind::Param(f)))
            .collect();
        self.funcs[f].params = ps.clone();
        let saved = self.func_cx.replace(FnCtx::new(f));
        let r = build(self, &ps);
        let cx = std::mem::replace(&mut self.func_cx, saved);
        r?;
        let Some(cx) = cx else {
            return Err(FrontendError::Invalid(
                "internal: lost function context".into(),
            ));
        };
        let body = self.finish_body(cx.instrs, &cx.labels, &cx.gotos)?;
        self.funcs[f].locals = cx.locals;
        self.funcs[f].body = Some(body);
        Ok(f)
    }
}
