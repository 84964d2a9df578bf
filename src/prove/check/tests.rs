//! Hand-written certificates: each passes on its TRUE program, and is rejected on the FALSE
//! twin (where the assertion really fails, so no certificate may pass) and when tampered with.

use cranelift_entity::SecondaryMap;

use super::*;
use crate::frontend::load_source;
use crate::ir::{
    BinOp, DataModel, Expr, ExprKind, InstrKind, Place, PlaceBase, Type, VarData, VarKind,
};
use crate::prove::{templates, GhostUpdate, GhostValue, Invariant};

fn load(src: &str) -> Templates {
    let prog = load_source(src, DataModel::Lp64).expect("test program loads");
    let sharing = Sharing::analyse(&prog);
    templates::build(&prog, &sharing).expect("templates")
}

fn int(ts: &Templates) -> crate::ir::TypeId {
    ts.program
        .types
        .find(&Type::Int {
            bits: 32,
            signed: true,
        })
        .unwrap()
}

fn var(ts: &Templates, name: &str) -> Expr {
    let v = ts
        .program
        .var_by_name(name)
        .unwrap_or_else(|| panic!("{name}"));
    Expr::read(Place::var(v, ts.program.vars[v].ty))
}

fn read(ts: &Templates, v: VarId) -> Expr {
    Expr::read(Place::var(v, ts.program.vars[v].ty))
}

fn bin(ts: &Templates, op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        ty: int(ts),
    }
}

fn k(e: &Expr, c: u64) -> Expr {
    Expr::constant(c, e.ty)
}

/// `name OP c`.
fn rel(ts: &Templates, name: &str, op: BinOp, c: u64) -> Fact {
    let x = var(ts, name);
    let c = k(&x, c);
    Fact::Holds(bin(ts, op, x, c))
}

/// A certificate with `facts(t, l)` at every location, assertion failures (and the halts after
/// them) unreachable.
fn cert_with(ts: &Templates, facts: impl Fn(TemplateId, InstrId) -> Vec<Fact>) -> Certificate {
    let mut invariants = SecondaryMap::new();
    for (t, tpl) in ts.templates.iter() {
        let mut per: SecondaryMap<InstrId, Invariant> = SecondaryMap::new();
        for (l, ins) in tpl.body.instrs.iter() {
            let dead = matches!(&ins.kind, InstrKind::Assert { cond, .. } if cond.as_const() == Some(0))
                || matches!(ins.kind, InstrKind::Halt);
            per[l] = Invariant {
                unreachable: dead,
                facts: if dead { vec![] } else { facts(t, l) },
            };
        }
        invariants[t] = per;
    }
    Certificate {
        method: "hand-written".into(),
        ghosts: vec![],
        updates: vec![],
        invariants,
        counters: vec![],
    }
}

fn thread(ts: &Templates) -> TemplateId {
    ts.templates
        .iter()
        .find(|(_, t)| !t.is_main)
        .map(|(id, _)| id)
        .unwrap()
}

const HEAD: &str = "#include <pthread.h>\n#include <assert.h>\n\
extern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n\
extern void __VERIFIER_assume(int);\n";

fn unbounded(write: u32) -> String {
    format!(
        "{HEAD}int x;\nvoid *t(void *a) {{ x = {write}; assert(x <= 1); return 0; }}\n\
         int main() {{ pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    )
}

fn kind_of(r: Result<CheckStats, CheckFailure>) -> Option<Kind> {
    match r {
        Ok(_) => None,
        Err(f) => {
            eprintln!("{f}");
            Some(f.obligation.map_or(Kind::Safety, |o| o.kind))
        }
    }
}

#[test]
fn unbounded_creation_bound_passes_and_its_false_twin_is_rejected() {
    let ts = load(&unbounded(1));
    let cert = cert_with(&ts, |_, _| vec![rel(&ts, "x", BinOp::SLe, 1)]);
    let stats = check(&ts, &cert, None).expect("the certificate holds");
    eprintln!(
        "checks {} (skipped {}), chunks {}, vc instrs {}, clauses {}, {:?}",
        stats.checks,
        stats.skipped_stable,
        stats.chunks,
        stats.vc_instrs,
        stats.clauses,
        stats.time
    );
    assert!(stats.checks > 5);
    // The FALSE twin writes 2: the same certificate, and a weaker one, are rejected.
    let ts2 = load(&unbounded(2));
    let cert = cert_with(&ts2, |_, _| vec![rel(&ts2, "x", BinOp::SLe, 1)]);
    assert_eq!(kind_of(check(&ts2, &cert, None)), Some(Kind::Consecution));
    let weaker = cert_with(&ts2, |_, _| vec![rel(&ts2, "x", BinOp::SLe, 2)]);
    assert!(check(&ts2, &weaker, None).is_err());
    let none = cert_with(&ts2, |_, _| vec![]);
    assert!(check(&ts2, &none, None).is_err());
}

#[test]
fn wrong_and_flipped_invariants_are_rejected() {
    let ts = load(&unbounded(1));
    // x == 0 everywhere: the thread's own write breaks it.
    let wrong = cert_with(&ts, |_, _| vec![rel(&ts, "x", BinOp::Eq, 0)]);
    assert!(matches!(
        kind_of(check(&ts, &wrong, None)),
        Some(Kind::Consecution | Kind::Stability)
    ));
    // x >= 1 everywhere: false initially.
    let flipped = cert_with(&ts, |_, _| vec![rel(&ts, "x", BinOp::SGe, 1)]);
    assert_eq!(kind_of(check(&ts, &flipped, None)), Some(Kind::Initiation));
    // x < 1: the write of 1 breaks it.
    let off_by_one = cert_with(&ts, |_, _| vec![rel(&ts, "x", BinOp::SLt, 1)]);
    assert!(check(&ts, &off_by_one, None).is_err());
}

fn created_once(main_assert: &str) -> String {
    format!(
        "{HEAD}int x;\nvoid *t(void *a) {{ x = 1; return 0; }}\n\
         int main() {{ pthread_t h; pthread_create(&h, 0, t, 0); assert({main_assert}); return 0; }}\n"
    )
}

#[test]
fn dropped_interference_is_rejected() {
    let ts = load(&created_once("x <= 1"));
    let good = cert_with(&ts, |_, _| vec![rel(&ts, "x", BinOp::SLe, 1)]);
    check(&ts, &good, None).expect("x <= 1 holds");
    // main claims x == 0 throughout, which its own steps keep, but the thread changes it.
    let main = ts.main;
    let dropped = cert_with(&ts, |t, _| {
        if t == main {
            vec![rel(&ts, "x", BinOp::Eq, 0)]
        } else {
            vec![rel(&ts, "x", BinOp::SLe, 1)]
        }
    });
    assert_eq!(kind_of(check(&ts, &dropped, None)), Some(Kind::Stability));
    // The FALSE twin asserts x == 0 in main: both certificates are rejected.
    let ts2 = load(&created_once("x == 0"));
    let good2 = cert_with(&ts2, |_, _| vec![rel(&ts2, "x", BinOp::SLe, 1)]);
    assert!(check(&ts2, &good2, None).is_err());
    let main2 = ts2.main;
    let dropped2 = cert_with(&ts2, |t, _| {
        if t == main2 {
            vec![rel(&ts2, "x", BinOp::Eq, 0)]
        } else {
            vec![rel(&ts2, "x", BinOp::SLe, 1)]
        }
    });
    assert_eq!(kind_of(check(&ts2, &dropped2, None)), Some(Kind::Stability));
}

/// An atomic-section lock (`lock`, with ghost owner `g`) around x, and a pthread mutex `m`
/// (owner ghost from the templates) around y.
fn locks(wait: &str, mutex: &str) -> String {
    format!(
        "{HEAD}int lock; int x; int y; pthread_mutex_t m, m2;\n\
         void *t(void *a) {{\n\
           __VERIFIER_atomic_begin(); {wait} lock = 1; __VERIFIER_atomic_end();\n\
           x = 1; assert(x == 1); x = 0;\n\
           lock = 0;\n\
           pthread_mutex_lock(&{mutex}); y = 1; assert(y == 1); y = 0; pthread_mutex_unlock(&{mutex});\n\
           return 0;\n\
         }}\n\
         int main() {{ pthread_t h; pthread_mutex_init(&m, 0); pthread_mutex_init(&m2, 0);\n\
           while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    )
}

/// The location of the first assignment of `c` to `name` in `t`.
fn assign_at(ts: &Templates, t: TemplateId, name: &str, c: u64) -> usize {
    let v = ts.program.var_by_name(name).unwrap();
    ts.templates[t]
        .body
        .instrs
        .iter()
        .find(|(_, i)| {
            matches!(&i.kind, InstrKind::Assign { dst, src }
                if dst.base == PlaceBase::Var(v) && src.as_const() == Some(c))
        })
        .map(|(l, _)| l.index())
        .unwrap_or_else(|| panic!("{name} := {c}"))
}

fn lock_cert(ts: &mut Templates, with_update: bool) -> Certificate {
    let uint = ts.program.types.int(32, false);
    let g = ts.program.vars.push(VarData {
        name: "ghost::g".into(),
        source_name: "g".into(),
        ty: uint,
        kind: VarKind::Global,
        thread_local: false,
        address_taken: false,
        loc: Default::default(),
    });
    let ts = &*ts;
    let t = thread(ts);
    let m = ts.program.var_by_name("m").unwrap();
    let owner = ts.mutex_owners[&m];
    let me = ts.templates[t].self_id;
    let l1 = assign_at(ts, t, "lock", 1);
    let l0 = assign_at(ts, t, "lock", 0);
    let x1 = assign_at(ts, t, "x", 1);
    let x0 = assign_at(ts, t, "x", 0);
    let y1 = assign_at(ts, t, "y", 1);
    let y0 = assign_at(ts, t, "y", 0);
    let body = &ts.templates[t].body;
    let ml = body
        .instrs
        .iter()
        .find(|(_, i)| matches!(i.kind, InstrKind::MutexLock(_)))
        .unwrap()
        .0
        .index();
    let mu = body
        .instrs
        .iter()
        .find(|(_, i)| matches!(i.kind, InstrKind::MutexUnlock(_)))
        .unwrap()
        .0
        .index();
    let z = |v: VarId| {
        let e = read(ts, v);
        let zero = k(&e, 0);
        bin(ts, BinOp::Eq, e, zero)
    };
    let ne0 = |v: VarId| {
        let e = read(ts, v);
        let zero = k(&e, 0);
        bin(ts, BinOp::Ne, e, zero)
    };
    let lock_v = ts.program.var_by_name("lock").unwrap();
    let x = ts.program.var_by_name("x").unwrap();
    let y = ts.program.var_by_name("y").unwrap();
    let mhp = super::obligations::main_mhp(ts);
    let mut cert = cert_with(ts, |tt, l| {
        let l = l.index();
        if tt == ts.main && !mhp[l] {
            // Before the first creation: nothing has run yet.
            return vec![
                rel(ts, "lock", BinOp::Eq, 0),
                rel(ts, "x", BinOp::Eq, 0),
                rel(ts, "y", BinOp::Eq, 0),
                Fact::Holds(z(g)),
            ];
        }
        let mut f = vec![
            Fact::Holds(bin(ts, BinOp::Eq, z(lock_v), z(g))),
            Fact::Holds(bin(ts, BinOp::LogOr, ne0(g), z(x))),
            Fact::Holds(bin(ts, BinOp::LogOr, ne0(owner), z(y))),
        ];
        if tt == t {
            if l > l1 && l <= l0 {
                f.push(Fact::Holds(bin(ts, BinOp::Eq, read(ts, g), read(ts, me))));
            }
            if l > x1 && l <= x0 {
                f.push(rel(ts, "x", BinOp::Eq, 1));
            }
            if l > ml && l <= mu {
                f.push(Fact::Holds(bin(
                    ts,
                    BinOp::Eq,
                    read(ts, owner),
                    read(ts, me),
                )));
            }
            if l > y1 && l <= y0 {
                f.push(rel(ts, "y", BinOp::Eq, 1));
            }
            // Released with the value restored.
            if l > x0 && l <= l0 {
                f.push(rel(ts, "x", BinOp::Eq, 0));
            }
            if l > y0 && l <= mu {
                f.push(rel(ts, "y", BinOp::Eq, 0));
            }
        }
        f
    });
    cert.ghosts = vec![g];
    if with_update {
        cert.updates.push(GhostUpdate {
            template: t,
            at: InstrId::new(l1),
            ghost: g,
            value: GhostValue::SelfId,
        });
    }
    cert.updates.push(GhostUpdate {
        template: t,
        at: InstrId::new(l0),
        ghost: g,
        value: GhostValue::Const(0),
    });
    cert
}

#[test]
fn lock_protocols_pass_with_their_ghosts() {
    let mut ts = load(&locks("__VERIFIER_assume(lock == 0);", "m"));
    let cert = lock_cert(&mut ts, true);
    let stats = check(&ts, &cert, None).expect("the certificate holds");
    eprintln!(
        "locks: checks {} (skipped {}), chunks {}, vc instrs {}, clauses {}, {:?} (symex {:?}, sat {:?})",
        stats.checks,
        stats.skipped_stable,
        stats.chunks,
        stats.vc_instrs,
        stats.clauses,
        stats.time, stats.symex_time, stats.solve_time
    );
    // Without the ghost update at the acquisition, `g == self` does not follow.
    let mut ts = load(&locks("__VERIFIER_assume(lock == 0);", "m"));
    let missing = lock_cert(&mut ts, false);
    assert!(check(&ts, &missing, None).is_err());
}

#[test]
fn lock_protocols_false_twins_are_rejected() {
    // No wait for the lock: two threads in the first critical section.
    let mut ts = load(&locks("", "m"));
    let cert = lock_cert(&mut ts, true);
    assert!(check(&ts, &cert, None).is_err());
    // The second critical section takes another mutex than the one the invariant names.
    let mut ts = load(&locks("__VERIFIER_assume(lock == 0);", "m2"));
    let cert = lock_cert(&mut ts, true);
    assert!(check(&ts, &cert, None).is_err());
}

#[test]
fn malformed_certificates_are_refused() {
    let ts = load(&unbounded(1));
    // A program variable as a ghost: an update would change the program.
    let mut cert = cert_with(&ts, |_, _| vec![rel(&ts, "x", BinOp::SLe, 1)]);
    let x = ts.program.var_by_name("x").unwrap();
    cert.ghosts = vec![x];
    let e = check(&ts, &cert, None).unwrap_err();
    assert!(e.obligation.is_none(), "{e}");
    // A fact of main about the thread's private variable.
    let t = thread(&ts);
    let private = ts.templates[t].self_id;
    let mut cert = cert_with(&ts, |_, _| vec![]);
    cert.invariants[ts.main][InstrId::new(0)]
        .facts
        .push(Fact::Holds(bin(&ts, BinOp::Ne, read(&ts, private), {
            let e = read(&ts, private);
            k(&e, 0)
        })));
    assert!(check(&ts, &cert, None).is_err());
}

fn thread_local_counter(storage: &str) -> String {
    format!(
        "{HEAD}{storage} int tl;\nint x;\n\
         void *t(void *a) {{ tl = tl + 1; x = tl; assert(x <= 1); return 0; }}\n\
         int main() {{ pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }}\n"
    )
}

/// `x <= 1` everywhere; in the thread, `tl == 0` until its increment and `tl == 1` after.
fn thread_local_cert(ts: &Templates) -> Certificate {
    let t = thread(ts);
    let tl = ts.program.var_by_name("tl").unwrap();
    let inc = ts.templates[t]
        .body
        .instrs
        .iter()
        .find(|(_, i)| {
            matches!(&i.kind, InstrKind::Assign { dst, src }
                if dst.base == PlaceBase::Var(tl) && src.as_const().is_none())
        })
        .map(|(l, _)| l.index())
        .unwrap();
    cert_with(ts, |tt, l| {
        let mut f = vec![rel(ts, "x", BinOp::SLe, 1)];
        if tt == t && l.index() > 0 {
            let c = if l.index() <= inc { 0 } else { 1 };
            f.push(rel(ts, "tl", BinOp::Eq, c));
        }
        f
    })
}

#[test]
fn thread_locals_start_at_zero_in_every_thread() {
    let ts = load(&thread_local_counter("__thread"));
    check(&ts, &thread_local_cert(&ts), None).expect("each thread counts its own tl");
    // The FALSE twin shares tl: the same certificate is rejected.
    let ts = load(&thread_local_counter(""));
    assert!(check(&ts, &thread_local_cert(&ts), None).is_err());
}

/// A timeout is no rejection: its message says so, and the ladder can tell the two apart.
#[test]
fn timeout_is_not_reported_as_rejection() {
    let t = timeout_failure();
    assert!(t.is_timeout());
    assert!(
        t.to_string().starts_with("certificate check timed out"),
        "{t}"
    );
    let malformed = CheckFailure {
        obligation: None,
        what: "malformed certificate".into(),
        detail: "x".into(),
    };
    assert!(!malformed.is_timeout());
    assert!(malformed.to_string().starts_with("certificate rejected"));
}
