//! Unit tests of the thread templates: inlining, dispatch through pointers, instances,
//! atomic depth and the cases that give up.

use super::*;
use crate::frontend::load_source;
use crate::ir::{DataModel, PlaceBase};

fn templates(src: &str) -> Result<Templates, GiveUp> {
    let prog = load_source(src, DataModel::Lp64).expect("test program loads");
    let sharing = Sharing::analyse(&prog);
    build(&prog, &sharing)
}

fn by_name<'a>(ts: &'a Templates, name: &str) -> &'a Template {
    ts.templates
        .values()
        .find(|t| ts.program.funcs[t.entry].name == name)
        .expect("template exists")
}

const HEAD: &str =
    "#include <pthread.h>\n#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n";

#[test]
fn calls_are_inlined_with_fresh_locals_and_returns_assigned() {
    let src = format!(
        "{HEAD}int x;\nint inc(int a) {{ int r = a + 1; return r; }}\n\
         void *t(void *arg) {{ x = inc(x); x = inc(x); return 0; }}\n\
         int main() {{ pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    );
    let ts = templates(&src).unwrap();
    assert_eq!(ts.templates.len(), 2);
    let main = &ts.templates[ts.main];
    assert!(main.is_main);
    assert_eq!(main.instances, Instances::One);
    let t = by_name(&ts, "t");
    assert_eq!(t.instances, Instances::Many);
    assert!(t
        .body
        .instrs
        .values()
        .all(|i| !matches!(i.kind, InstrKind::Call { .. })));
    // Two calls: two distinct copies of inc's parameter, with the source name kept.
    let copies: Vec<&VarData> = t
        .locals
        .iter()
        .map(|&v| &ts.program.vars[v])
        .filter(|v| v.name.starts_with("inc::a#"))
        .collect();
    assert_eq!(copies.len(), 2, "{:?}", copies);
    assert!(copies.iter().all(|v| v.source_name == "a"));
    assert_ne!(copies[0].name, copies[1].name);
    assert!(t.locals.contains(&t.self_id));
    assert!(t.param.is_some());
    // Every jump lands inside the body; the origin of inlined code is `inc`.
    let inc = ts.program.func_by_name("inc").unwrap();
    assert!(t.origin.values().any(|o| o.is_some_and(|(f, _)| f == inc)));
    for (i, ins) in t.body.instrs.iter() {
        if let InstrKind::Goto { target, .. } = ins.kind {
            assert!(target.index() < t.body.instrs.len(), "jump at {i:?}");
        }
    }
}

#[test]
fn instances_count_creation_sites() {
    let once = format!(
        "{HEAD}int x;\nvoid *t(void *a) {{ x = 1; return 0; }}\n\
         int main() {{ pthread_t h; pthread_create(&h, 0, t, 0); return 0; }}\n"
    );
    let ts = templates(&once).unwrap();
    assert_eq!(by_name(&ts, "t").instances, Instances::One);
    let twice = format!(
        "{HEAD}int x;\nvoid *t(void *a) {{ x = 1; return 0; }}\n\
         int main() {{ pthread_t h, g; pthread_create(&h, 0, t, 0); pthread_create(&g, 0, t, 0); return 0; }}\n"
    );
    let ts = templates(&twice).unwrap();
    assert_eq!(by_name(&ts, "t").instances, Instances::Many);
    let by_thread = format!(
        "{HEAD}int x;\nvoid *u(void *a) {{ x = 2; return 0; }}\n\
         void *t(void *a) {{ pthread_t h; pthread_create(&h, 0, u, 0); return 0; }}\n\
         int main() {{ pthread_t h; pthread_create(&h, 0, t, 0); return 0; }}\n"
    );
    let ts = templates(&by_thread).unwrap();
    assert_eq!(by_name(&ts, "t").instances, Instances::One);
    assert_eq!(by_name(&ts, "u").instances, Instances::Many);
    let in_helper = format!(
        "{HEAD}int x;\nvoid *t(void *a) {{ x = 1; return 0; }}\n\
         void spawn(void) {{ pthread_t h; pthread_create(&h, 0, t, 0); }}\n\
         int main() {{ spawn(); spawn(); return 0; }}\n"
    );
    let ts = templates(&in_helper).unwrap();
    assert_eq!(by_name(&ts, "t").instances, Instances::Many);
}

#[test]
fn recursion_gives_up() {
    let src = format!(
        "{HEAD}int f(int n) {{ if (n > 0) return f(n - 1); return 0; }}\n\
         int main() {{ return f(__VERIFIER_nondet_int()); }}\n"
    );
    assert!(matches!(templates(&src), Err(GiveUp::Recursion { func }) if func == "f"));
}

#[test]
fn atomic_functions_are_one_section_and_not_wrapped_twice() {
    let src = format!(
        "{HEAD}int x;\nvoid __VERIFIER_atomic_inc(void) {{ x = x + 1; }}\n\
         void *t(void *a) {{ __VERIFIER_atomic_inc(); return 0; }}\n\
         int main() {{ pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    );
    let ts = templates(&src).unwrap();
    let t = by_name(&ts, "t");
    let begins = t
        .body
        .instrs
        .values()
        .filter(|i| matches!(i.kind, InstrKind::AtomicBegin))
        .count();
    assert_eq!(begins, 1);
    let x = ts.program.var_by_name("x").unwrap();
    let write = t
        .body
        .instrs
        .iter()
        .find(|(_, i)| {
            matches!(&i.kind, InstrKind::Assign { dst, .. } if dst.base == PlaceBase::Var(x))
        })
        .map(|(i, _)| i)
        .unwrap();
    assert_eq!(t.atomic_depth[write], 1);
    let last = InstrId::new(t.body.instrs.len() - 1);
    assert_eq!(t.atomic_depth[last], 0);
}

#[test]
fn calls_through_pointers_dispatch_over_the_points_to_set() {
    let src = format!(
        "{HEAD}int x;\nint one(int a) {{ return 1; }}\nint two(int a) {{ return 2; }}\n\
         int (*fp)(int);\n\
         int main() {{ if (__VERIFIER_nondet_int()) fp = one; else fp = two; x = fp(0); return 0; }}\n"
    );
    let ts = templates(&src).unwrap();
    let main = &ts.templates[ts.main];
    let names: Vec<&str> = main
        .origin
        .values()
        .filter_map(|o| o.map(|(f, _)| ts.program.funcs[f].name.as_str()))
        .collect();
    assert!(names.contains(&"one") && names.contains(&"two"));
    assert!(main
        .body
        .instrs
        .values()
        .any(|i| matches!(&i.kind, InstrKind::Assume(c) if c.as_const() == Some(0))));
}

#[test]
fn atomic_depth_must_agree_on_all_paths() {
    let src = format!(
        "{HEAD}extern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n\
         int x;\nint main() {{ if (__VERIFIER_nondet_int()) __VERIFIER_atomic_begin(); x = 1; __VERIFIER_atomic_end(); return 0; }}\n"
    );
    assert!(matches!(templates(&src), Err(GiveUp::AtomicDepth { .. })));
}

#[test]
fn thread_locals_are_private_and_initialised_at_every_start() {
    let src = format!(
        "{HEAD}__thread int tl = 5;\nint x;\n\
         void *t(void *a) {{ tl = tl + 1; x = tl; return 0; }}\n\
         int main() {{ pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    );
    let ts = templates(&src).unwrap();
    let tl = ts.program.var_by_name("tl").unwrap();
    for t in ts.templates.values() {
        assert!(t.locals.contains(&tl));
        assert!(matches!(&t.body.instrs[InstrId::new(0)].kind,
            InstrKind::Assign { dst, src } if dst.base == PlaceBase::Var(tl) && src.as_const() == Some(0)));
    }
}

#[test]
fn mutexes_get_owner_ghosts() {
    let src = format!(
        "{HEAD}int x;\npthread_mutex_t m;\n\
         void *t(void *a) {{ pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); return 0; }}\n\
         int main() {{ pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    );
    let ts = templates(&src).unwrap();
    let m = ts.program.var_by_name("m").unwrap();
    let owner = ts.mutex_owners[&m];
    assert!(ts.program.vars[owner].is_global());
    assert_eq!(ts.mutex_owners.len(), 1);
}
