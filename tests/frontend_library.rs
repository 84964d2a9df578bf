//! The IR library calls and builtins lower to (assertions, nondet and assumptions, atomics,
//! pthread calls, allocation, thread-local data, external functions), and what the frontend
//! ignores or rejects, checked on its structure under both data models.

use yogar::frontend::{load_source, FrontendError};
use yogar::ir::*;

#[path = "common/lowering.rs"]
mod common;
use common::*;

// ----- builtins and library -----

#[test]
fn reach_error_is_the_property_whatever_its_body() {
    let p = lower(
        "#include <assert.h>\nvoid reach_error() { assert(0); }\nint x;\n\
                   int main() {\n if (x) reach_error();\n return 0;\n}\n",
    );
    let ins = instrs(&p, "main");
    assert!(
        !ins.iter().any(|k| matches!(k, InstrKind::Call { .. })),
        "reach_error is not called"
    );
    let (prop, cond) = ins
        .iter()
        .find_map(|k| match k {
            InstrKind::Assert { cond, prop } => Some((*prop, cond)),
            _ => None,
        })
        .unwrap();
    assert_eq!(cond.as_const(), Some(0));
    assert_eq!(p.props[prop].kind, PropKind::ReachError);
    assert_eq!(p.props[prop].loc.line, 5);
    assert!(p.files[p.props[prop].loc.file as usize].ends_with(".c"));
}

#[test]
fn assert_becomes_an_assertion_that_halts_on_failure() {
    let p = lower("#include <assert.h>\nint x;\nint main() { assert(x > 0); return 0; }\n");
    let ins = instrs(&p, "main");
    let n_assert = ins
        .iter()
        .filter(|k| matches!(k, InstrKind::Assert { .. }))
        .count();
    assert_eq!(n_assert, 1);
    assert!(
        ins.iter().any(|k| matches!(k, InstrKind::Halt))
            || ins.iter().any(|k| matches!(k, InstrKind::Assume(_)))
    );
    assert!(p.props.values().all(|pr| pr.kind == PropKind::Assert));
}

#[test]
fn nondet_assume_and_atomic_builtins() {
    let p = lower(
        "extern int __VERIFIER_nondet_int(void); extern unsigned char __VERIFIER_nondet_uchar(void);\n\
         extern void __VERIFIER_assume(int); extern void __VERIFIER_atomic_begin(void);\n\
         extern void __VERIFIER_atomic_end(void); int g;\n\
         void __VERIFIER_atomic_inc(void) { g++; }\n\
         int main() { int x = __VERIFIER_nondet_int(); unsigned char c = __VERIFIER_nondet_uchar();\n\
         _Bool b = __VERIFIER_nondet_bool(); long l = __VERIFIER_nondet_long();\n\
         __VERIFIER_assume(x > 0); __VERIFIER_atomic_begin(); g = x; __VERIFIER_atomic_end();\n\
         __VERIFIER_atomic_inc(); return c + b + l; }\n",
    );
    let ins = instrs(&p, "main");
    let nondet_types: Vec<(u8, bool)> = ins
        .iter()
        .filter_map(|k| match k {
            InstrKind::Nondet { dst } => Some(int_type(&p, dst.ty)),
            _ => None,
        })
        .collect();
    assert_eq!(
        nondet_types,
        vec![(32, true), (8, false), (1, false), (32, true)]
    );
    assert!(ins.iter().any(|k| matches!(k, InstrKind::Assume(_))));
    // The atomic function call is wrapped: begin, call, end.
    let call = ins
        .iter()
        .position(|k| matches!(k, InstrKind::Call { .. }))
        .unwrap();
    assert!(matches!(ins[call - 1], InstrKind::AtomicBegin));
    assert!(matches!(ins[call + 1], InstrKind::AtomicEnd));
    assert_eq!(
        ins.iter()
            .filter(|k| matches!(k, InstrKind::AtomicBegin))
            .count(),
        2
    );
    let f = p.func_by_name("__VERIFIER_atomic_inc").unwrap();
    assert!(p.funcs[f].atomic);
}

#[test]
fn pthread_calls_become_concurrency_instructions() {
    let p = lower(
        "#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t cv; int x;\n\
         void *t(void *a) { pthread_mutex_lock(&m); while (!x) pthread_cond_wait(&cv, &m);\n\
         pthread_mutex_unlock(&m); pthread_exit(0); }\n\
         int main() { pthread_t th[2]; pthread_mutex_init(&m, 0); pthread_cond_init(&cv, 0);\n\
         pthread_create(&th[1], 0, t, (void *)&x); int r = pthread_mutex_trylock(&m);\n\
         x = 1; pthread_cond_signal(&cv); pthread_cond_broadcast(&cv); pthread_join(th[1], 0);\n\
         pthread_t me = pthread_self(); pthread_mutex_destroy(&m); return r; }\n",
    );
    let main = instrs(&p, "main");
    let tf = p.func_by_name("t").unwrap();
    let create = main
        .iter()
        .find_map(|k| match k {
            InstrKind::ThreadCreate { handle, entry, arg } => Some((handle, entry, arg)),
            _ => None,
        })
        .unwrap();
    assert_eq!(create.1, &Callee::Direct(tf));
    assert!(matches!(create.0.projs[..], [Proj::Index { .. }]));
    assert!(matches!(&create.2.kind, ExprKind::Cast(x) if matches!(x.kind, ExprKind::AddrOf(_))));
    for want in [
        "MutexInit",
        "CondInit",
        "MutexTryLock",
        "CondSignal",
        "CondBroadcast",
        "ThreadJoin",
        "ThreadSelf",
        "MutexDestroy",
    ] {
        assert!(
            main.iter().any(|k| format!("{k:?}").starts_with(want)),
            "missing {want}"
        );
    }
    let t = instrs(&p, "t");
    for want in ["MutexLock", "CondWait", "MutexUnlock", "ThreadExit"] {
        assert!(
            t.iter().any(|k| format!("{k:?}").starts_with(want)),
            "missing {want}"
        );
    }
    assert_eq!(p.thread_create_sites(), 1);
}

#[test]
fn malloc_calloc_free_and_memset() {
    let p = lower("#include <stdlib.h>\n#include <string.h>\nint *a, *b;\n\
                   int main() { a = malloc(4 * sizeof(int)); b = calloc(2, sizeof(int)); memset(a, 0, 16);\n\
                   free(a); return 0; }\n");
    let ins = instrs(&p, "main");
    let allocs: Vec<(bool, AllocSite)> = ins
        .iter()
        .filter_map(|k| match k {
            InstrKind::Alloc { zeroed, site, .. } => Some((*zeroed, *site)),
            _ => None,
        })
        .collect();
    assert_eq!(allocs.len(), 2);
    assert!(!allocs[0].0 && allocs[1].0);
    assert_ne!(allocs[0].1, allocs[1].1);
    assert!(ins.iter().any(|k| matches!(k, InstrKind::Free(_))));
    assert!(ins.iter().any(|k| matches!(k, InstrKind::Memset { .. })));
}

#[test]
fn thread_local_globals_are_marked() {
    let p =
        lower("__thread int a; _Thread_local int b; int c;\nint main() { return a + b + c; }\n");
    assert!(p.vars[var(&p, "a")].thread_local);
    assert!(p.vars[var(&p, "b")].thread_local);
    assert!(!p.vars[var(&p, "c")].thread_local);
}

#[test]
fn external_functions_return_nondet_and_are_listed() {
    let p = lower("int ext(int); int y;\nint main() { y = ext(1); return 0; }\n");
    let ins = instrs(&p, "main");
    assert!(ins.iter().any(|k| matches!(k, InstrKind::Nondet { .. })));
    assert!(!ins.iter().any(|k| matches!(k, InstrKind::Call { .. })));
    assert_eq!(p.external_calls.len(), 1);
    assert_eq!(p.external_calls[0].name, "ext");
}

#[test]
fn function_pointers_and_struct_assignment() {
    let p = lower(
        "struct S { int a, b; } s1, s2; int f(int x) { return x; } int (*fp)(int) = f; int r;\n\
                   int main() { s1 = s2; r = fp(3); r = (*fp)(4); return 0; }\n",
    );
    let ins = instrs(&p, "main");
    assert!(ins
        .iter()
        .any(|k| matches!(k, InstrKind::Assign { dst, .. } if is_var(dst, var(&p, "s1")))));
    let indirect = ins
        .iter()
        .filter(|k| {
            matches!(
                k,
                InstrKind::Call {
                    callee: Callee::Indirect(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(indirect, 2);
    let f = p.func_by_name("f").unwrap();
    assert!(init_instrs(&p)
        .iter()
        .any(|k| matches!(k, InstrKind::Assign { src, .. } if src.kind == ExprKind::FuncAddr(f))));
}

#[test]
fn dollar_identifiers_keep_their_source_names() {
    let p = lower("int y$w_buff0; int main() { y$w_buff0 = 1; return y$w_buff0; }\n");
    assert!(p.var_by_name("y$w_buff0").is_some());
}

#[test]
fn floating_point_is_exact_except_long_double() {
    lower("#include <math.h>\ndouble d; int main() { return 0; }\n");
    let p = lower("double d; float f; int main() { d = 1.5; f = 1; return 0; }\n");
    let consts = consts_assigned(&p);
    assert!(consts.contains(&1.5f64.to_bits()), "{consts:?}");
    assert!(consts.contains(&(1.0f32.to_bits() as u64)), "{consts:?}");
    assert!(!has_approximation(&p));
    // Float and double operations are exact; long double ones approximated.
    let p = lower("double d; int main() { d = 1.5; return d > 1.0; }\n");
    assert!(!has_approximation(&p));
    let p = lower("long double e; int main() { e = 1; return e > 0; }\n");
    assert!(has_approximation(&p));
    let e = load_source(
        "int main() { long double d = 1.5L; return 0; }\n",
        DataModel::Ilp32,
    )
    .unwrap_err();
    assert!(
        matches!(e, FrontendError::Unsupported(ref m) if m.contains("long double")),
        "{e}"
    );
}

/// The constants the program's functions assign.
fn consts_assigned(p: &yogar::ir::Program) -> Vec<u64> {
    let mut out = Vec::new();
    for (_, _, body) in p.defined_funcs() {
        for ins in body.instrs.values() {
            if let InstrKind::Assign { src, .. } = &ins.kind {
                if let Some(c) = src.as_const() {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Whether some instruction marks its executions as over-approximated by floating point.
fn has_approximation(p: &yogar::ir::Program) -> bool {
    p.defined_funcs().any(|(_, _, b)| {
        b.instrs.values().any(|i| {
            matches!(
                i.kind,
                InstrKind::Approximate(yogar::ir::Approximation::FloatValue)
            )
        })
    })
}

#[test]
fn unsupported_code_in_unreachable_functions_is_ignored() {
    lower("void never(void) { __asm__(\"nop\"); } int main() { return 0; }\n");
    let e = load_source(
        "void used(void) { __asm__(\"nop\"); } int main() { used(); return 0; }\n",
        DataModel::Ilp32,
    )
    .unwrap_err();
    assert!(
        matches!(e, FrontendError::Unsupported(ref m) if m.contains("inline assembly")),
        "{e}"
    );
}

#[test]
fn strcpy_is_a_copy_loop() {
    let p = lower(
        "#include <string.h>\nchar buf[8];\nint main() { strcpy(buf, \"ab\"); return buf[0]; }\n",
    );
    let f = p.func_by_name("main").unwrap();
    assert_eq!(p.funcs[f].body.as_ref().unwrap().loops.len(), 1);
}

#[test]
fn user_definitions_of_library_functions_are_called() {
    let p = lower(
        "int calls; void *malloc(unsigned long n) { calls++; return 0; }\n\
                   void reach_error(void) { calls = 100; }\n\
                   int main() { void *p = malloc(4); if (!p) reach_error(); return 0; }\n",
    );
    let ins = instrs(&p, "main");
    let malloc = p.func_by_name("malloc").unwrap();
    assert!(ins
        .iter()
        .any(|k| matches!(k, InstrKind::Call { callee: Callee::Direct(f), .. } if *f == malloc)));
    assert!(!ins.iter().any(|k| matches!(k, InstrKind::Alloc { .. })));
    // reach_error stays the property even with a body.
    assert!(ins.iter().any(|k| matches!(k, InstrKind::Assert { .. })));
}

#[test]
fn thread_specific_data_uses_a_thread_local_table() {
    let p = lower("#include <pthread.h>\npthread_key_t k;\n\
                   int main() { int r = pthread_key_create(&k, 0); pthread_setspecific(k, (void *)5);\n\
                   return (int)(long)pthread_getspecific(k) + r; }\n");
    let table = var(&p, "$pthread_specific");
    assert!(p.vars[table].thread_local);
    // Sixteen keys are modelled (a key beyond is an out-of-bounds access, unsupported).
    assert_eq!(p.types.size_of(p.vars[table].ty), Some(16 * 4));
    // Without a destructor, a thread's end runs nothing.
    assert!(p.func_by_name("__yogar_tls_destructors").is_none());
    let count = var(&p, "$pthread_keys");
    assert!(!p.vars[count].thread_local);
    let ins = instrs(&p, "main");
    let stores_table = ins
        .iter()
        .any(|k| matches!(k, InstrKind::Assign { dst, .. } if dst.base == PlaceBase::Var(table)));
    assert!(stores_table);
    let begin = ins
        .iter()
        .position(|k| matches!(k, InstrKind::AtomicBegin))
        .unwrap();
    let end = ins
        .iter()
        .position(|k| matches!(k, InstrKind::AtomicEnd))
        .unwrap();
    let inc = ins
        .iter()
        .position(|k| matches!(k, InstrKind::Assign { dst, .. } if is_var(dst, count)))
        .unwrap();
    assert!(
        begin < inc && inc < end,
        "the key counter is updated atomically"
    );
    // With a destructor, the thread started by name runs through a wrapper that calls the
    // destructor rounds when it returns.
    let p = lower(
        "#include <pthread.h>\nvoid d(void *x) {}\npthread_key_t k;\n\
         void *w(void *a) { return a; }\n\
         int main() { pthread_t t; pthread_create(&t, 0, w, 0); return pthread_key_create(&k, d); }\n",
    );
    let rounds = p.func_by_name("__yogar_tls_destructors").unwrap();
    let wrapper = p.func_by_name("__yogar_thread_start_w").unwrap();
    assert!(instrs(&p, "main").iter().any(|k| matches!(k,
        InstrKind::ThreadCreate { entry: Callee::Direct(f), .. } if *f == wrapper)));
    assert!(instrs(&p, "__yogar_thread_start_w")
        .iter()
        .any(|k| matches!(k,
        InstrKind::Call { callee: Callee::Direct(f), .. } if *f == rounds)));
}

#[test]
fn operands_that_may_trap_are_evaluated_only_when_c_does() {
    // A dereference, a variable index or a division in a conditional operand: a real branch.
    for src in [
        "struct S { int x; } *p; int r; int main() { r = p && p->x; return 0; }\n",
        "int a[4], i, r; int main() { r = i < 4 ? a[i] : 0; return 0; }\n",
        "int x, r; int main() { r = x != 0 ? 10 / x : 0; return 0; }\n",
    ] {
        let p = lower(src);
        let ins = instrs(&p, "main");
        assert!(
            ins.iter()
                .any(|k| matches!(k, InstrKind::Goto { cond: Some(_), .. })),
            "no branch for {src}"
        );
        let exprs = all_exprs(&ins);
        assert!(!exprs.iter().any(|e| matches!(e.kind, ExprKind::Ite(..))));
        assert!(!has_binop(&ins, BinOp::LogAnd));
    }
    // Plain reads, constant indices and division by a constant stay one expression.
    let p = lower(
        "int a[4], x, y, r; int main() { r = x ? a[2] / 2 : y % 3; r = x && a[1]; return 0; }\n",
    );
    let ins = instrs(&p, "main");
    assert!(!ins.iter().any(|k| matches!(k, InstrKind::Goto { .. })));
}

#[test]
fn thread_local_initialisers_run_per_thread() {
    let p = lower("__thread int t = 5; int g = 7; int *gp = (int[]){ 1, 2 };\nint main() { return t + g + gp[1]; }\n");
    let t = var(&p, "t");
    let tls = p.funcs[p.tls_init].body.as_ref().unwrap();
    let tls_ins: Vec<&InstrKind> = tls.instrs.values().map(|i| &i.kind).collect();
    assert_eq!(assigns_to(&tls_ins, t)[0].as_const(), Some(5));
    let init = init_instrs(&p);
    assert!(
        assigns_to(&init, t).is_empty(),
        "not initialised once for all threads"
    );
    assert_eq!(assigns_to(&init, var(&p, "g"))[0].as_const(), Some(7));
    // A file-scope compound literal is a global object.
    let c = var(&p, "$compound");
    assert!(p.vars[c].is_global());
}

#[test]
fn locations_of_a_preprocessed_file_are_its_own_lines() {
    // A `.i` names the `.c` it came from; traces and witnesses cite the file given.
    let dir = std::env::temp_dir().join(format!("yogar-loc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("task.i");
    std::fs::write(
        &path,
        "# 1 \"orig.c\"\nvoid reach_error(void);\n# 500 \"orig.c\"\nint x;\nint main() {\n  if (x) reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    let p = yogar::frontend::load_file(&path, DataModel::Ilp32).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let (_, prop) = p.props.iter().next().unwrap();
    assert_eq!(prop.loc.line, 6);
    assert!(p.files[prop.loc.file as usize].ends_with("task.i"));
}

#[test]
fn thread_and_mutex_operands_are_read_before_the_call() {
    let src = "#include <pthread.h>
        pthread_mutex_t ms[2]; int idx; pthread_t hs[2]; struct s { pthread_mutex_t m; } *sp;
        void *f(void *a) { return 0; }
        int main(void) {
          int i = 0;
          pthread_create(&hs[idx], 0, f, (void *)&idx);
          pthread_mutex_lock(&ms[idx]);
          pthread_mutex_unlock(&sp->m);
          pthread_join(hs[i], 0);
          return 0;
        }";
    let p = lower(src);
    let main = instrs(&p, "main");
    let (idx, sp, hs) = (var(&p, "idx"), var(&p, "sp"), var(&p, "hs"));
    // No synchronisation operand reads a variable other than a temporary; each read of
    // idx, sp and hs[i] is an assignment of its own before the call.
    for k in main.iter().filter(|k| k.synchronises()) {
        k.walk_exprs(&mut |e| {
            if let ExprKind::Read(pl) = &e.kind {
                match pl.base {
                    PlaceBase::Var(v) => assert!(
                        matches!(p.vars[v].kind, VarKind::Temp(_)),
                        "{k:?} reads {}",
                        p.vars[v].name
                    ),
                    PlaceBase::Deref(_) => panic!("{k:?} reads through a pointer"),
                }
            }
        });
    }
    let read_into_temp = |v: VarId| {
        main.iter().any(|k| {
            matches!(k, InstrKind::Assign { dst, src } if matches!(dst.base, PlaceBase::Var(t) if matches!(p.vars[t].kind, VarKind::Temp(_)))
                && matches!(&src.kind, ExprKind::Read(pl) if pl.base == PlaceBase::Var(v)))
        })
    };
    assert!(read_into_temp(idx), "idx is read into a temporary");
    assert!(read_into_temp(sp), "sp is read into a temporary");
    assert!(read_into_temp(hs), "hs[i] is read into a temporary");
    // The handle written by the creation stays a direct place.
    assert!(main.iter().any(|k| matches!(k,
        InstrKind::ThreadCreate { handle, .. } if handle.base == PlaceBase::Var(hs))));
}

#[test]
fn validation_rejects_a_lock_that_reads_memory() {
    let mut p = lower(
        "#include <pthread.h>
        pthread_mutex_t ms[2]; int idx;
        int main(void) { pthread_mutex_lock(&ms[idx]); return 0; }",
    );
    let (ms, idx) = (var(&p, "ms"), var(&p, "idx"));
    let f = p.func_by_name("main").expect("main");
    let body = p.funcs[f].body.as_mut().expect("body");
    let lock = body
        .instrs
        .values_mut()
        .find(|i| matches!(i.kind, InstrKind::MutexLock(_)))
        .expect("a lock");
    let InstrKind::MutexLock(op) = &mut lock.kind else {
        unreachable!()
    };
    let ExprKind::AddrOf(place) = &mut op.kind else {
        panic!("the lock names &ms[..] directly: {op:?}")
    };
    assert_eq!(place.base, PlaceBase::Var(ms));
    let Some(Proj::Index { index, .. }) = place.projs.first_mut() else {
        panic!("an index")
    };
    let ty = index.ty;
    **index = Expr::read(Place::var(idx, p.vars[idx].ty));
    if index.ty != ty {
        **index = Expr {
            kind: ExprKind::Cast(Box::new((**index).clone())),
            ty,
        };
    }
    let err = yogar::ir::validate::validate(&p).expect_err("a lock reading idx is invalid");
    assert!(
        err.contains("synchronisation operand reads memory"),
        "{err}"
    );
}
