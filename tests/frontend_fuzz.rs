//! Bounded-time robustness test: two thousand token-level mutations (delete, duplicate, swap)
//! of small seed programs go through parsing and lowering; none may panic. The seed of the
//! generator is fixed, so a failure reproduces.

use std::panic::{catch_unwind, AssertUnwindSafe};

use yogar::frontend::lower_preprocessed;
use yogar::ir::DataModel;

const SEEDS: &[&str] = &[
    "int x, a[3]; struct S { int f; char g[2]; } s = { 1, { 2, 3 } };\n\
     int main() { int i = 0; while (i < 3) { a[i] += x++ ? i : -i; i++; } s.g[1] = a[2] << 1; return s.f; }\n",
    "typedef struct N { struct N *next; int v; } N; N n1, *h = &n1; int c;\n\
     int f(int k) { return k > 0 ? f(k - 1) + 1 : 0; }\n\
     int main() { for (N *p = h; p; p = p->next) c += p->v; switch (c) { case 1: c = 2; break; default: c--; } return f(c) && c || !c; }\n",
    "void reach_error(void); void *malloc(unsigned long); int __VERIFIER_nondet_int(void);\n\
     void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void); int g;\n\
     void *t(void *a) { __VERIFIER_atomic_begin(); g = g + 1; __VERIFIER_atomic_end(); return a; }\n\
     int main() { int *p = malloc(sizeof(int) * 2); p[1] = __VERIFIER_nondet_int(); if (p[1] == 3) reach_error();\n\
     do { g = (g, p[1]--); } while (g > 0); return ({ int z = g; z; }); }\n",
    "enum E { A = 1, B = A << 2 }; union U { int i; char c[4]; } u = { .c = { [2] = 'x' } };\n\
     unsigned long long big = 0xffffffffffffffffULL; char *s = \"a\\tb\\\\\";\n\
     int main() { int (*fp)(void) = main; u.i = B % 3 / (A | 1) ^ ~B; goto done; done: return sizeof u + (s[1] == '\\t'); }\n",
    "typedef unsigned long pthread_t; typedef struct { int l; } pthread_mutex_t; typedef struct { int c; } pthread_cond_t;\n\
     int pthread_create(pthread_t *, void *, void *(*)(void *), void *); int pthread_join(pthread_t, void **);\n\
     int pthread_mutex_lock(pthread_mutex_t *); int pthread_mutex_unlock(pthread_mutex_t *);\n\
     int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *); int pthread_cond_signal(pthread_cond_t *);\n\
     pthread_mutex_t m; pthread_cond_t c; __thread int tl; int flag, data[4];\n\
     void *w(void *a) { pthread_mutex_lock(&m); while (!flag) pthread_cond_wait(&c, &m); data[(long)a] = tl++; pthread_mutex_unlock(&m); return a; }\n\
     int main() { pthread_t t[2]; void *r; for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, w, (void *)i);\n\
     pthread_mutex_lock(&m); flag = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); pthread_join(t[0], &r); return (int)(long)r; }\n",
    "struct in { short s[2]; char c; }; struct out { int k; struct in i[2]; union { int u; char b[4]; }; } o = { 1, { { { 2, 3 }, 'x' }, [1].c = 'y' }, .u = 7 };\n\
     int tab[3][2] = { 1, 2, [2] = { 5 } }; static const char *msg = \"ok\";\n\
     int main() { struct out copy = o; int s = 0; switch (copy.i[1].c) { case 'y': s = 1; case 'z' ... 'z' + 1: s += 2; break; default: ; }\n\
     return s + tab[2][0] + sizeof(struct out) + msg[0] + (int)__builtin_offsetof(struct out, i[1].c); }\n",
];

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// Splits C text into identifier/number runs, whitespace runs and single other characters.
fn tokens(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in src.chars() {
        let word = c.is_ascii_alphanumeric() || c == '_';
        if word {
            cur.push(c);
            continue;
        }
        if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        out.push(c.to_string());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[test]
fn mutated_programs_never_panic() {
    // YOGAR_FUZZ_ROUNDS / YOGAR_FUZZ_SEED run a longer or different campaign by hand.
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let rounds = env("YOGAR_FUZZ_ROUNDS").unwrap_or(2000) as usize;
    let mut rng = Rng(env("YOGAR_FUZZ_SEED").unwrap_or(0x9e37_79b9_7f4a_7c15) | 1);
    let start = std::time::Instant::now();
    let mut lowered = 0;
    let mut runs = 0;
    for round in 0..rounds {
        let seed = SEEDS[round % SEEDS.len()];
        let mut toks = tokens(seed);
        for _ in 0..1 + rng.below(3) {
            let n = toks.len() as u64;
            let i = rng.below(n) as usize;
            match rng.below(3) {
                0 => {
                    toks.remove(i);
                }
                1 => {
                    let t = toks[i].clone();
                    toks.insert(i, t);
                }
                _ => toks.swap(i, rng.below(n) as usize),
            }
        }
        let text = format!("# 1 \"fuzz.c\"\n{}", toks.concat());
        let model = if round % 2 == 0 {
            DataModel::Ilp32
        } else {
            DataModel::Lp64
        };
        let r = catch_unwind(AssertUnwindSafe(|| lower_preprocessed(&text, model)));
        match r {
            Ok(Ok(p)) => {
                if let Err(m) = yogar::ir::validate::validate(&p) {
                    panic!("invalid IR ({m}) for:\n{text}");
                }
                lowered += 1
            }
            Ok(Err(e)) => assert_eq!(e.to_string().lines().count(), 1, "multi-line error: {e}"),
            Err(_) => panic!("panic on mutated program:\n{text}"),
        }
        runs += 1;
    }
    eprintln!("{runs} mutants, {lowered} lowered, {:?}", start.elapsed());
    // The unmutated seeds all lower (the mutants exercise both paths).
    for s in SEEDS {
        let text = format!("# 1 \"seed.c\"\n{s}");
        if let Err(e) = lower_preprocessed(&text, DataModel::Ilp32) {
            panic!("seed does not lower: {e}");
        }
    }
}
