//! Struct layouts (sizes, alignments, member offsets) and `sizeof` checked against gcc itself:
//! the layout the frontend computes is turned into `_Static_assert`s that gcc must accept for
//! the same data model (`gcc -fsyntax-only`, with `-m32` for ILP32).

use std::process::Command;

use yogar::frontend::load_source;
use yogar::ir::{DataModel, Type};

const TYPES: &str = r#"
#include <pthread.h>
struct a { char c; int i; long long l; char t; } v_a;
struct b { char c; double d; short s; } v_b;
struct c { int x : 3; int y : 5; char z; unsigned w : 20; unsigned long long q : 40; } v_c;
union d { char c[5]; int i; short s; } v_d;
struct e { char c; struct { short s; char t; } in; long l; char tail[3]; } v_e;
struct f { char c; int i; } __attribute__((packed)) v_f;
struct g { char c; int i __attribute__((aligned(8))); } v_g;
struct h { char c; } __attribute__((aligned(16))) v_h;
struct i { char c; union { int a; char b[6]; }; void *p; int flex[]; } v_i;
struct j { struct a arr[3]; struct j *next; void (*fp)(int); } v_j;
struct k { char a : 1; char : 0; char b : 3; long double ld; } v_k;
struct l { _Bool b; short s : 9; long w; enum { E1, E2 = 70000 } e; } v_l;
struct m { char c; int i __attribute__((packed)); short s; } v_mm;
struct n { char c; struct f inner; long long ll __attribute__((aligned(16))); } v_n;
pthread_mutex_t v_m; pthread_cond_t v_cv; pthread_t v_t; pthread_attr_t v_at;
"#;

fn check(model: DataModel, flag: Option<&str>) {
    let prog = match load_source(TYPES, model) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let mut asserts = String::new();
    let mut n = 0;
    for (_, v) in prog.globals() {
        if !v.name.starts_with("v_") {
            continue;
        }
        let size = prog.types.size_of(v.ty).unwrap();
        asserts += &format!(
            "_Static_assert(sizeof({}) == {size}, \"size {}\");\n",
            v.name, v.name
        );
        let align = prog.types.align_of(v.ty);
        if let Type::Struct(s) = prog.types.get(v.ty) {
            let d = &prog.types.structs[*s];
            asserts += &format!(
                "_Static_assert(__alignof__({}) == {align}, \"align {}\");\n",
                v.name, v.name
            );
            for f in &d.fields {
                let (Some(name), None) = (&f.name, f.bitfield) else {
                    continue;
                };
                asserts += &format!(
                    "_Static_assert(__builtin_offsetof(__typeof__({}), {name}) == {}, \"{}.{name}\");\n",
                    v.name, f.offset, v.name
                );
                n += 1;
            }
        }
        n += 1;
    }
    assert!(n > 40, "too few checks: {n}");
    let dir = std::env::temp_dir().join(format!("yogar-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("layout-{model:?}.c"));
    std::fs::write(&path, format!("{TYPES}\n{asserts}")).unwrap();
    let mut cmd = Command::new("gcc");
    cmd.arg("-fsyntax-only");
    if let Some(f) = flag {
        cmd.arg(f);
    }
    let out = match cmd.arg(&path).output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped: gcc not runnable: {e}");
            return;
        }
    };
    assert!(
        out.status.success(),
        "gcc disagrees with the {model:?} layout:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn ilp32_layouts_match_gcc_m32() {
    check(DataModel::Ilp32, Some("-m32"));
}

#[test]
fn lp64_layouts_match_gcc() {
    check(DataModel::Lp64, None);
}
