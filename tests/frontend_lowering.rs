//! The IR each C construct lowers to, checked on its structure (instruction kinds, operator
//! choice, types, offsets), under both data models.

use cranelift_entity::EntityRef;
use yogar::frontend::{load_source, FrontendError};
use yogar::ir::*;

fn lower_in(src: &str, model: DataModel) -> Program {
    match load_source(src, model) {
        Ok(p) => {
            if let Err(m) = yogar::ir::validate::validate(&p) {
                panic!("invalid IR: {m}");
            }
            p
        }
        Err(e) => panic!("lowering failed: {e}"),
    }
}

fn lower(src: &str) -> Program {
    lower_in(src, DataModel::Ilp32)
}

fn lower64(src: &str) -> Program {
    lower_in(src, DataModel::Lp64)
}

fn instrs<'p>(p: &'p Program, func: &str) -> Vec<&'p InstrKind> {
    let f = p.func_by_name(func).expect("function exists");
    p.funcs[f]
        .body
        .as_ref()
        .expect("function has a body")
        .instrs
        .values()
        .map(|i| &i.kind)
        .collect()
}

fn init_instrs(p: &Program) -> Vec<&InstrKind> {
    p.funcs[p.init]
        .body
        .as_ref()
        .unwrap()
        .instrs
        .values()
        .map(|i| &i.kind)
        .collect()
}

fn var(p: &Program, name: &str) -> VarId {
    p.var_by_name(name)
        .unwrap_or_else(|| panic!("no variable {name}"))
}

fn is_var(place: &Place, v: VarId) -> bool {
    place.base == PlaceBase::Var(v) && place.projs.is_empty()
}

/// The assignments to variable `v` (whole-variable places) in a list of instructions.
fn assigns_to<'p>(ins: &[&'p InstrKind], v: VarId) -> Vec<&'p Expr> {
    ins.iter()
        .filter_map(|k| match k {
            InstrKind::Assign { dst, src } if is_var(dst, v) => Some(src),
            _ => None,
        })
        .collect()
}

fn all_exprs(ins: &[&InstrKind]) -> Vec<Expr> {
    let mut out = Vec::new();
    for k in ins {
        k.walk_exprs(&mut |e| out.push(e.clone()));
    }
    out
}

fn has_binop(ins: &[&InstrKind], op: BinOp) -> bool {
    all_exprs(ins)
        .iter()
        .any(|e| matches!(e.kind, ExprKind::Binary(o, _, _) if o == op))
}

fn int_type(p: &Program, t: TypeId) -> (u8, bool) {
    match p.types.get(t) {
        Type::Int { bits, signed } => (*bits, *signed),
        Type::Bool => (1, false),
        other => panic!("not an integer type: {other:?}"),
    }
}

fn struct_of(p: &Program, v: VarId) -> &StructDef {
    match p.types.get(p.vars[v].ty) {
        Type::Struct(s) => &p.types.structs[*s],
        other => panic!("not a struct: {other:?}"),
    }
}

// ----- types and layout -----

#[test]
fn struct_layout_follows_the_data_model() {
    let src = "struct S { char c; int i; long long l; } s; struct D { char c; double d; } d;\n\
               union U { char c[5]; int i; } u;\n";
    let p32 = lower(src);
    let s = struct_of(&p32, var(&p32, "s"));
    assert_eq!(
        s.fields.iter().map(|f| f.offset).collect::<Vec<_>>(),
        vec![0, 4, 8]
    );
    assert_eq!((s.size, s.align), (16, 4));
    let d = struct_of(&p32, var(&p32, "d"));
    assert_eq!((d.fields[1].offset, d.size), (4, 12));
    let u = struct_of(&p32, var(&p32, "u"));
    assert_eq!((u.size, u.align, u.is_union), (8, 4, true));
    let p64 = lower64(src);
    let s = struct_of(&p64, var(&p64, "s"));
    assert_eq!((s.size, s.align), (16, 8));
    let d = struct_of(&p64, var(&p64, "d"));
    assert_eq!((d.fields[1].offset, d.size), (8, 16));
}

#[test]
fn bit_fields_share_a_storage_unit() {
    let p =
        lower("struct B { int a : 3; int b : 5; int c; unsigned d : 30; unsigned e : 4; } b;\n");
    let s = struct_of(&p, var(&p, "b"));
    let f: Vec<(u64, Option<(u32, u32)>)> =
        s.fields.iter().map(|f| (f.offset, f.bitfield)).collect();
    assert_eq!(
        f,
        vec![
            (0, Some((0, 3))),
            (0, Some((3, 5))),
            (4, None),
            (8, Some((0, 30))),
            (12, Some((0, 4)))
        ]
    );
    assert_eq!(s.size, 16);
}

#[test]
fn sizeof_long_and_pointers_depend_on_the_data_model() {
    let src = "unsigned long a = sizeof(long); unsigned long b = sizeof(void *);\n\
               unsigned long c = sizeof(int[3][4]);\n";
    for (p, w) in [(lower(src), 4u64), (lower64(src), 8)] {
        let ins = init_instrs(&p);
        assert_eq!(assigns_to(&ins, var(&p, "a"))[0].as_const(), Some(w));
        assert_eq!(assigns_to(&ins, var(&p, "b"))[0].as_const(), Some(w));
        assert_eq!(assigns_to(&ins, var(&p, "c"))[0].as_const(), Some(48));
    }
}

#[test]
fn enums_typedefs_and_integer_constants() {
    let p = lower(
        "enum E { A, B = 5, C }; enum N { M = -1 }; typedef enum E e_t; e_t x = C; enum N n;\n\
         long long big = 4294967296; unsigned u = 4294967295u; int h = 0x7fffffff;\n",
    );
    let ins = init_instrs(&p);
    assert_eq!(assigns_to(&ins, var(&p, "x"))[0].as_const(), Some(6));
    // gcc: an enum without negative values is unsigned int, else int.
    assert_eq!(int_type(&p, p.vars[var(&p, "x")].ty), (32, false));
    assert_eq!(int_type(&p, p.vars[var(&p, "n")].ty), (32, true));
    assert_eq!(
        assigns_to(&ins, var(&p, "big"))[0].as_const(),
        Some(1 << 32)
    );
    assert_eq!(
        assigns_to(&ins, var(&p, "u"))[0].as_const(),
        Some(u32::MAX as u64)
    );
}

// ----- conversions and operators -----

#[test]
fn integer_promotions_and_usual_arithmetic_conversions_are_explicit() {
    let p = lower(
        "unsigned char a, b; int c; int i; unsigned u; int r1, r2, r3, r4;\n\
         int main() { c = a + b; r1 = i < u; r2 = i < c; r3 = i / 2; r4 = u / 2u; return 0; }\n",
    );
    let ins = instrs(&p, "main");
    let c = assigns_to(&ins, var(&p, "c"))[0];
    let ExprKind::Binary(BinOp::Add, l, _) = &c.kind else {
        panic!("expected an addition, got {c:?}")
    };
    assert!(
        matches!(l.kind, ExprKind::Cast(_)),
        "u8 operand is promoted by a cast"
    );
    assert_eq!(int_type(&p, l.ty), (32, true));
    let r1 = assigns_to(&ins, var(&p, "r1"))[0];
    assert!(
        matches!(r1.kind, ExprKind::Binary(BinOp::ULt, _, _)),
        "int < unsigned compares unsigned"
    );
    let r2 = assigns_to(&ins, var(&p, "r2"))[0];
    assert!(matches!(r2.kind, ExprKind::Binary(BinOp::SLt, _, _)));
    assert!(matches!(
        assigns_to(&ins, var(&p, "r3"))[0].kind,
        ExprKind::Binary(BinOp::SDiv, _, _)
    ));
    // unsigned / unsigned, then converted to the int r4.
    let r4 = assigns_to(&ins, var(&p, "r4"))[0];
    assert!(
        matches!(&r4.kind, ExprKind::Cast(x) if matches!(x.kind, ExprKind::Binary(BinOp::UDiv, _, _)))
    );
}

#[test]
fn constant_folding_matches_c_arithmetic() {
    let p = lower(
        "int a = -7 / 2; int b = -7 % 2; unsigned c = -1; int d = (unsigned char)300;\n\
         int e = -8 >> 1; unsigned f = 0xffffffffu >> 4; signed char g = 200; _Bool h = 7;\n\
         unsigned i = __builtin_bswap32(0x11223344);\n",
    );
    let ins = init_instrs(&p);
    let val = |n: &str| {
        let v = var(&p, n);
        let e = assigns_to(&ins, v)[0];
        e.as_const()
            .unwrap_or_else(|| panic!("{n} not constant: {e:?}"))
    };
    assert_eq!(val("a") as i64, -7 / 2);
    assert_eq!(val("b") as i64, -7 % 2);
    assert_eq!(val("c"), u32::MAX as u64);
    assert_eq!(val("d"), 300 % 256);
    assert_eq!(val("e") as i64, -8 >> 1);
    assert_eq!(val("f"), (0xffffffffu32 >> 4) as u64);
    assert_eq!(val("g") as i64, 200u8 as i8 as i64);
    assert_eq!(val("h"), 1);
    assert_eq!(val("i"), 0x11223344u32.swap_bytes() as u64);
}

#[test]
fn pointer_arithmetic_scales_by_the_element_size() {
    let p = lower(
        "int a[10]; int *p, *q; long d; struct S { int x; char y[6]; } *s;\n\
         int main() { p = a + 2; q = p - 1; d = q - p; s = s + 1; return 0; }\n",
    );
    let ins = instrs(&p, "main");
    let e = assigns_to(&ins, var(&p, "p"))[0];
    let ExprKind::PtrAdd(_, off) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(off.as_const(), Some(8));
    let e = assigns_to(&ins, var(&p, "q"))[0];
    let ExprKind::PtrAdd(_, off) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(off.as_const().map(|v| v as i64 as i32), Some(-4));
    let e = assigns_to(&ins, var(&p, "d"))[0];
    assert!(matches!(&e.kind, ExprKind::Binary(BinOp::SDiv, a, b)
        if matches!(a.kind, ExprKind::PtrDiff(_, _)) && b.as_const() == Some(4)));
    let e = assigns_to(&ins, var(&p, "s"))[0];
    let ExprKind::PtrAdd(_, off) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(off.as_const(), Some(12));
}

#[test]
fn multi_dimensional_arrays_and_members_are_structured_places() {
    let p = lower(
        "struct P { int x; int y[3]; } ps[2]; int m[2][3];\n\
         int main() { m[1][2] = 5; ps[1].y[2] = 7; return 0; }\n",
    );
    let ins = instrs(&p, "main");
    let places: Vec<&Place> = ins
        .iter()
        .filter_map(|k| match k {
            InstrKind::Assign { dst, .. } => Some(dst),
            _ => None,
        })
        .collect();
    let m = places
        .iter()
        .find(|pl| pl.base == PlaceBase::Var(var(&p, "m")))
        .unwrap();
    let sizes: Vec<(Option<u64>, u64)> = m
        .projs
        .iter()
        .map(|pr| match pr {
            Proj::Index { index, elem_size } => (index.as_const(), *elem_size),
            Proj::Field { .. } => panic!("no fields in m"),
        })
        .collect();
    assert_eq!(sizes, vec![(Some(1), 12), (Some(2), 4)]);
    let ps = places
        .iter()
        .find(|pl| pl.base == PlaceBase::Var(var(&p, "ps")))
        .unwrap();
    assert!(matches!(ps.projs[0], Proj::Index { elem_size: 16, .. }));
    assert!(matches!(
        ps.projs[1],
        Proj::Field {
            index: 1,
            offset: 4
        }
    ));
    assert!(matches!(ps.projs[2], Proj::Index { elem_size: 4, .. }));
}

// ----- initialisers -----

#[test]
fn designated_and_nested_initialisers() {
    let p = lower(
        "struct P { int x, y, z; } p = { .y = 2, 3 };\n\
         int a[5] = { [3] = 7, 8 }; int b[] = { 1, 2, 3 };\n\
         struct Q { int v[2]; int w; } q = { 1, 2, 3 }; char s[] = \"hi\";\n",
    );
    let ins = init_instrs(&p);
    let stores = |v: VarId| -> Vec<(Vec<u64>, u64)> {
        ins.iter()
            .filter_map(|k| match k {
                InstrKind::Assign { dst, src } if dst.base == PlaceBase::Var(v) => {
                    let path = dst
                        .projs
                        .iter()
                        .map(|pr| match pr {
                            Proj::Field { index, .. } => *index as u64,
                            Proj::Index { index, .. } => index.as_const().unwrap(),
                        })
                        .collect();
                    Some((path, src.as_const().unwrap()))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(stores(var(&p, "p")), vec![(vec![1], 2), (vec![2], 3)]);
    assert_eq!(stores(var(&p, "a")), vec![(vec![3], 7), (vec![4], 8)]);
    assert_eq!(p.types.size_of(p.vars[var(&p, "b")].ty), Some(12));
    assert_eq!(
        stores(var(&p, "q")),
        vec![(vec![0, 0], 1), (vec![0, 1], 2), (vec![1], 3)]
    );
    assert_eq!(p.types.size_of(p.vars[var(&p, "s")].ty), Some(3));
    assert_eq!(
        stores(var(&p, "s")),
        vec![(vec![0], 'h' as u64), (vec![1], 'i' as u64), (vec![2], 0)]
    );
}

#[test]
fn local_aggregates_are_zeroed_before_their_initialiser() {
    let p = lower("int main() { int a[4] = { 1 }; return a[3]; }\n");
    let ins = instrs(&p, "main");
    let a = var(&p, "main::a");
    let ms = ins
        .iter()
        .position(|k| matches!(k, InstrKind::Memset { len, .. } if len.as_const() == Some(16)));
    let st = ins
        .iter()
        .position(|k| matches!(k, InstrKind::Assign { dst, .. } if dst.base == PlaceBase::Var(a)));
    assert!(
        ms.is_some() && st.is_some() && ms < st,
        "memset then store: {ins:?}"
    );
}

// ----- evaluation order -----

#[test]
fn post_increment_reads_once_and_yields_the_old_value() {
    let p = lower("int x, y; int main() { y = x++; return 0; }\n");
    let ins = instrs(&p, "main");
    let (x, y) = (var(&p, "x"), var(&p, "y"));
    // tmp := x; x := tmp + 1; y := tmp
    let InstrKind::Assign { dst: t, src } = ins[0] else {
        panic!("{:?}", ins[0])
    };
    assert!(matches!(&src.kind, ExprKind::Read(pl) if is_var(pl, x)));
    let InstrKind::Assign { dst, src } = ins[1] else {
        panic!()
    };
    assert!(is_var(dst, x));
    assert!(matches!(&src.kind, ExprKind::Binary(BinOp::Add, a, b)
        if matches!(&a.kind, ExprKind::Read(pl) if **pl == *t) && b.as_const() == Some(1)));
    let InstrKind::Assign { dst, src } = ins[2] else {
        panic!()
    };
    assert!(is_var(dst, y));
    assert!(matches!(&src.kind, ExprKind::Read(pl) if **pl == *t));
}

#[test]
fn short_circuit_with_side_effects_becomes_a_branch() {
    let p = lower(
        "int f(void); int g(void) { return 1; } int r;\n\
                   int main() { r = 0 < 1 && g(); if (r || g()) r = 2; return 0; }\n",
    );
    let ins = instrs(&p, "main");
    let call = ins
        .iter()
        .position(|k| matches!(k, InstrKind::Call { .. }))
        .unwrap();
    let jump = ins
        .iter()
        .position(|k| matches!(k, InstrKind::Goto { cond: Some(_), .. }))
        .unwrap();
    // Constant lhs: no jump needed before the first call; the || must jump around its call.
    let second_call = ins
        .iter()
        .rposition(|k| matches!(k, InstrKind::Call { .. }))
        .unwrap();
    assert!(call < second_call);
    assert!(
        jump < second_call,
        "the call in `r || g()` is guarded by a jump"
    );
    // Pure operands stay one expression.
    let p = lower("int a, b, r; int main() { r = a && b; return 0; }\n");
    let ins = instrs(&p, "main");
    assert!(has_binop(&ins, BinOp::LogAnd));
    assert!(!ins.iter().any(|k| matches!(k, InstrKind::Goto { .. })));
}

#[test]
fn conditional_with_calls_assigns_a_temporary_in_each_branch() {
    let p = lower(
        "int g(int x) { return x; } int r, c;\n\
                   int main() { r = c ? g(1) : g(2); return 0; }\n",
    );
    let ins = instrs(&p, "main");
    let calls = ins
        .iter()
        .filter(|k| matches!(k, InstrKind::Call { .. }))
        .count();
    assert_eq!(calls, 2);
    let gotos = ins
        .iter()
        .filter(|k| matches!(k, InstrKind::Goto { .. }))
        .count();
    assert_eq!(gotos, 2);
    // Pure branches: one Ite expression.
    let p = lower("int r, c, a; int main() { r = c ? a : 3; return 0; }\n");
    let ins = instrs(&p, "main");
    assert!(matches!(
        assigns_to(&ins, var(&p, "r"))[0].kind,
        ExprKind::Ite(_, _, _)
    ));
}

#[test]
fn compound_assignment_comma_and_statement_expressions() {
    let p = lower("int a[3], i, x, y;\n\
                   int main() { a[i] += 2; x = (y = 1, y + 1); y = ({ int t = 4; t * 2; }); return 0; }\n");
    let ins = instrs(&p, "main");
    let a = var(&p, "a");
    let st = ins
        .iter()
        .find_map(|k| match k {
            InstrKind::Assign { dst, src } if dst.base == PlaceBase::Var(a) => Some(src),
            _ => None,
        })
        .unwrap();
    assert!(matches!(&st.kind, ExprKind::Binary(BinOp::Add, _, b) if b.as_const() == Some(2)));
    let y = var(&p, "y");
    assert_eq!(assigns_to(&ins, y)[0].as_const(), Some(1));
    assert!(matches!(
        assigns_to(&ins, var(&p, "x"))[0].kind,
        ExprKind::Binary(BinOp::Add, _, _)
    ));
}

// ----- control flow -----

#[test]
fn loops_are_numbered_by_their_back_edges() {
    let p = lower("int x; int main() { while (x < 3) x++; for (int i = 0; i < 2; i++) { if (i) continue; x--; }\n\
                   do { x++; } while (0); return 0; }\n");
    let f = p.func_by_name("main").unwrap();
    let body = p.funcs[f].body.as_ref().unwrap();
    assert_eq!(body.loops.len(), 2, "do-while(0) is not a loop");
    for (_, l) in body.loops.iter() {
        assert!(l.head < l.back_edge);
        assert!(matches!(&body.instrs[l.back_edge].kind,
            InstrKind::Goto { target, back_edge: Some(_), .. } if *target == l.head));
    }
    // Every jump target is inside the body.
    for (i, ins) in body.instrs.iter() {
        for s in body.successors(i) {
            assert!(s.index() < body.instrs.len(), "{ins:?}");
        }
    }
}

#[test]
fn switch_goto_and_labels() {
    let p = lower("int x, r; int main() { switch (x) { case 1: r = 10; break; case 2: case 3: r = 20; default: r++; }\n\
                   goto end; r = 99; end: return r; }\n");
    let ins = instrs(&p, "main");
    let conds: Vec<u64> = ins
        .iter()
        .filter_map(|k| match k {
            InstrKind::Goto {
                cond:
                    Some(Expr {
                        kind: ExprKind::Binary(BinOp::Eq, _, k),
                        ..
                    }),
                ..
            } => k.as_const(),
            _ => None,
        })
        .collect();
    assert_eq!(conds, vec![1, 2, 3]);
    let f = p.func_by_name("main").unwrap();
    assert!(p.funcs[f].body.as_ref().unwrap().loops.is_empty());
}

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
