//! The IR each C construct lowers to, checked on its structure (instruction kinds, operator
//! choice, types, offsets), under both data models.

use cranelift_entity::EntityRef;
use yogar::ir::*;

#[path = "common/lowering.rs"]
mod common;
use common::*;

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
