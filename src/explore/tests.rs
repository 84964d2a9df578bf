//! The interpreter on small programs: C arithmetic against Rust's, pointers, structs, arrays,
//! blocking locks, atomic sections, and the search on tiny concurrent programs.

use super::interp::{Machine, RunEnd};
use super::replay::{replay, Limits, ReplayResult};
use crate::frontend::load_source;
use crate::ir::{DataModel, Program};

fn load(src: &str) -> Program {
    load_source(src, DataModel::Lp64).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Runs with the given scheduler choice (among the runnable threads) and nondet value.
fn run_with(prog: &Program, pick: impl Fn(&[usize]) -> usize, nondet: u64) -> RunEnd {
    let mut m = Machine::new(prog).unwrap();
    for _ in 0..100_000 {
        let r = m.runnable();
        if r.is_empty() {
            return RunEnd::Deadlock;
        }
        if let Err(e) = m.step(pick(&r), &mut |_| nondet) {
            return e;
        }
    }
    panic!("run did not end");
}

fn run(src: &str) -> RunEnd {
    run_with(&load(src), |r| r[0], 0)
}

fn is_violation(e: &RunEnd) -> bool {
    matches!(e, RunEnd::Violation { .. })
}

const HEADER: &str = "#include <assert.h>\n#include <pthread.h>\n";

/// `int` arithmetic of the interpreter against Rust's wrapping i32 arithmetic; a wrong
/// expected value must fail.
#[test]
fn int_arithmetic_matches_rust() {
    let vals: [i32; 8] = [0, 1, -1, 7, -7, i32::MAX, i32::MIN, 12345];
    let mut body = String::new();
    let mut wrong = String::new();
    let lit = |v: i32| format!("(int){}u", v as u32);
    for &a in &vals {
        for &b in &vals {
            let mut checks = vec![
                ("+", a.wrapping_add(b)),
                ("-", a.wrapping_sub(b)),
                ("*", a.wrapping_mul(b)),
                ("&", a & b),
                ("|", a | b),
                ("^", a ^ b),
                ("<", (a < b) as i32),
                (">=", (a >= b) as i32),
            ];
            if b != 0 && !(a == i32::MIN && b == -1) {
                checks.push(("/", a / b));
                checks.push(("%", a % b));
            }
            for (op, r) in checks {
                body.push_str(&format!(
                    "  a = {}; b = {}; assert((a {op} b) == {});\n",
                    lit(a),
                    lit(b),
                    lit(r)
                ));
            }
            wrong = format!(
                "  a = {}; b = {}; assert((a + b) == {});\n",
                lit(a),
                lit(b),
                lit(a.wrapping_add(b).wrapping_add(1))
            );
        }
    }
    let prog = |b: &str| format!("{HEADER}int a, b;\nint main(void) {{\n{b}  return 0;\n}}\n");
    assert_eq!(run(&prog(&body)), RunEnd::Finished);
    assert!(is_violation(&run(&prog(&wrong))));
}

#[test]
fn narrow_unsigned_and_shifts_wrap() {
    let ok = format!(
        "{HEADER}unsigned char c; unsigned u; short s; long l;
int main(void) {{
  c = 250; c = c + 10; assert(c == 4);
  u = 0; u = u - 1; assert(u == 4294967295u);
  s = 32767; s = s + 1; assert(s == -32768);
  u = 1; u = u << 31; assert(u == 2147483648u); assert((u >> 31) == 1);
  s = -8; assert((s >> 1) == -4);
  l = 1; l = l << 40; assert(l == 1099511627776L);
  return 0;
}}"
    );
    assert_eq!(run(&ok), RunEnd::Finished);
    let bad = format!("{HEADER}unsigned char c;\nint main(void) {{ c = 255; c = c + 1; assert(c == 256); return 0; }}");
    assert!(is_violation(&run(&bad)));
}

#[test]
fn division_by_zero_stops_the_thread() {
    let src = format!(
        "{HEADER}int a, b;\nint main(void) {{ a = 1; b = 0; a = a / b; assert(0); return 0; }}"
    );
    assert_eq!(run(&src), RunEnd::Finished);
    let min = format!(
        "{HEADER}int a, b;\nint main(void) {{ a = -2147483647 - 1; b = -1; a = a / b; assert(0); return 0; }}"
    );
    assert_eq!(run(&min), RunEnd::Finished);
    let fine = min.replace("b = -1", "b = 2");
    assert!(is_violation(&run(&fine)));
}

#[test]
fn pointers_arrays_structs() {
    let ok = format!(
        "{HEADER}struct pt {{ char tag; int x; long y; }};
int arr[4]; struct pt s, t; struct pt *ps;
int main(void) {{
  int v = 1; int *p = &v; *p = 5; assert(v == 5);
  int *q = arr + 2; *q = 7; assert(arr[2] == 7); assert(q - arr == 2); assert(q != arr);
  for (int i = 0; i < 4; i++) arr[i] = i * 10;
  assert(arr[3] == 30 && *(arr + 1) == 10);
  ps = &s; ps->x = 3; ps->y = -9; s.tag = 'a';
  t = s; assert(t.x == 3 && t.y == -9 && t.tag == 'a');
  int *px = &t.x; *px = 4; assert(t.x == 4 && s.x == 3);
  int **pp = &p; **pp = 6; assert(v == 6);
  return 0;
}}"
    );
    assert_eq!(run(&ok), RunEnd::Finished);
    let bad = format!(
        "{HEADER}struct pt {{ int x; int y; }}; struct pt s;
int main(void) {{ struct pt *p = &s; p->y = 2; assert(s.x == 2); return 0; }}"
    );
    assert!(is_violation(&run(&bad)));
    let oob =
        format!("{HEADER}int arr[2]; int i;\nint main(void) {{ i = 2; arr[i] = 1; return 0; }}");
    assert!(matches!(run(&oob), RunEnd::Trap { .. }));
}

#[test]
fn heap_and_function_pointers() {
    let ok = format!(
        "{HEADER}#include <stdlib.h>
int twice(int x) {{ return 2 * x; }}
int (*fp)(int);
int main(void) {{
  int *h = malloc(3 * sizeof(int)); h[2] = 11; assert(h[2] == 11);
  fp = twice; assert(fp(4) == 8);
  free(h);
  return 0;
}}"
    );
    assert_eq!(run(&ok), RunEnd::Finished);
}

#[test]
fn failed_assume_stops_the_thread_and_nondet_comes_from_the_callback() {
    let src = format!(
        "{HEADER}extern int __VERIFIER_nondet_int(void); extern void __VERIFIER_assume(int);
int x;
int main(void) {{ x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 3); assert(x != 7); return 0; }}"
    );
    let prog = load(&src);
    assert_eq!(run_with(&prog, |r| r[0], 2), RunEnd::Finished);
    assert_eq!(run_with(&prog, |r| r[0], 5), RunEnd::Finished);
    assert!(is_violation(&run_with(&prog, |r| r[0], 7)));
}

/// Main holds the mutex while the worker tries to take it: the worker must wait, so main's
/// write comes first even when the scheduler always prefers the worker.
#[test]
fn lock_blocks_other_threads() {
    let src = format!(
        "{HEADER}pthread_mutex_t m; int x;
void *w(void *a) {{ pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }}
int main(void) {{
  pthread_t t; pthread_mutex_lock(&m); pthread_create(&t, 0, w, 0);
  x = 2; pthread_mutex_unlock(&m); pthread_join(t, 0); assert(x == 1); return 0;
}}"
    );
    let prog = load(&src);
    let prefer_worker = |r: &[usize]| *r.last().unwrap();
    assert_eq!(run_with(&prog, prefer_worker, 0), RunEnd::Finished);
    // Without the lock in main, the same schedule lets the worker write first.
    let unlocked = src.replace("pthread_mutex_lock(&m); pthread_create", "pthread_create");
    let unlocked = unlocked.replace("x = 2; pthread_mutex_unlock(&m);", "x = 2;");
    assert!(is_violation(&run_with(&load(&unlocked), prefer_worker, 0)));
    // Observed directly: while main holds the lock, only main can run.
    let mut m = Machine::new(&prog).unwrap();
    let mut blocked_seen = false;
    while m.num_threads() < 2 || !m.is_done(1) {
        let r = m.runnable();
        if m.num_threads() == 2 && !m.is_done(1) && !m.enabled(1) {
            blocked_seen = true;
            assert_eq!(r, vec![0]);
        }
        if m.step(*r.last().unwrap(), &mut |_| 0).is_err() {
            break;
        }
    }
    assert!(blocked_seen);
}

#[test]
fn atomic_section_excludes_others() {
    let src = format!(
        "{HEADER}extern void __VERIFIER_atomic_begin(void); extern void __VERIFIER_atomic_end(void);
int x;
void *w(void *a) {{ x = 5; return 0; }}
int main(void) {{
  pthread_t t; pthread_create(&t, 0, w, 0);
  __VERIFIER_atomic_begin(); x = 1; x = x + 1; assert(x == 2); __VERIFIER_atomic_end();
  pthread_join(t, 0); return 0;
}}"
    );
    // Alternate threads as much as possible: the atomic section still runs alone.
    let prog = load(&src);
    let mut m = Machine::new(&prog).unwrap();
    let mut k = 0usize;
    let end = loop {
        let r = m.runnable();
        if r.is_empty() {
            break RunEnd::Deadlock;
        }
        k += 1;
        if let Err(e) = m.step(r[k % r.len()], &mut |_| 0) {
            break e;
        }
    };
    assert_eq!(end, RunEnd::Finished);
    // The exhaustive search agrees: no interleaving breaks the atomic section.
    assert!(matches!(
        replay(&prog, &[], &Limits::default()),
        ReplayResult::NotConfirmed(_)
    ));
}

/// With no witness at all, the exhaustive search finds the lost update of two unlocked
/// increments (which needs a switch between a read and a write of `x = x + 1`), and finds
/// nothing once a mutex protects them.
#[test]
fn search_finds_lost_update_only_without_lock() {
    let racy = format!(
        "{HEADER}int x; pthread_mutex_t m;
void *w(void *a) {{ x = x + 1; return 0; }}
int main(void) {{
  pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0);
  pthread_join(t1, 0); pthread_join(t2, 0); assert(x == 2); return 0;
}}"
    );
    let r = replay(&load(&racy), &[], &Limits::default());
    assert!(matches!(r, ReplayResult::Confirmed { .. }), "{r:?}");
    let locked = racy.replace(
        "x = x + 1;",
        "pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m);",
    );
    let r = replay(&load(&locked), &[], &Limits::default());
    match r {
        ReplayResult::NotConfirmed(why) => assert!(why.starts_with("search exhausted"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn pthread_exit_in_main_lets_threads_run() {
    let src = format!(
        "{HEADER}int x;
void *w(void *a) {{ x = 1; assert(0); return 0; }}
int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); pthread_exit(0); }}"
    );
    assert!(is_violation(&run(&src)));
    // A return from main stops main only: the worker's violation could as well have come
    // before it.
    let ret = src.replace("pthread_exit(0);", "return 0;");
    assert!(is_violation(&run(&ret)));
}
