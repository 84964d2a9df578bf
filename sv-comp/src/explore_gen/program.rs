//! Random pthread programs of the kind the explorers must run (issue #28): two shared arrays
//! read and written at computed indices (from inputs, locals and array contents) and through
//! pointer arithmetic with such indices (`*(a + i)`), pointers to shared cells (a global, an
//! array cell, a cell chosen by an input, `a + i`, the thread argument),
//! nondet inputs of 1 to 6 values, 1 to 4 worker threads, two mutexes, assertions in the
//! workers and in `main` after the joins. Deterministic by seed.
//!
//! Every value stays small and non-negative (inputs and constants are, and only `+` and `%`
//! combine them), so no program has undefined behaviour: an index is always reduced modulo
//! its array's length. Loops count to a constant; [`Generated::unwind`] is the bound that
//! closes every loop, so the SAT engine's verdict at that bound (with unwinding assertions)
//! is the program's verdict.

use std::fmt::Write as _;

/// A generated program and the loop bound it needs.
pub struct Generated {
    pub source: String,
    /// `--unwind` that closes every loop of the program.
    pub unwind: u32,
}

/// SplitMix64: a small deterministic generator (the programs must not depend on a crate's
/// version of its algorithm).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

/// What one worker body may use.
struct Scope {
    /// The arrays and their lengths.
    arrays: [(char, u64); 2],
    /// Inside a loop over `k`.
    in_loop: bool,
}

impl Scope {
    fn array(&self, r: &mut Rng) -> (char, u64) {
        self.arrays[r.range(0, 1) as usize]
    }

    /// An index into an array of `n` cells: constant, from the input, the local, the loop
    /// counter or another array's content, always reduced modulo `n`.
    fn index(&self, r: &mut Rng, n: u64) -> String {
        match r.range(0, if self.in_loop { 6 } else { 5 }) {
            0 => r.range(0, n - 1).to_string(),
            1 => format!("x % {n}"),
            2 => format!("(x + {}) % {n}", r.range(1, 3)),
            3 => format!("(unsigned)v % {n}"),
            4 => {
                let (b, bn) = self.array(r);
                format!("(unsigned){b}[{}] % {n}", r.range(0, bn - 1))
            }
            5 => format!("(x + y) % {n}"),
            _ => format!("(x + k) % {n}"),
        }
    }

    /// A small non-negative value.
    fn value(&self, r: &mut Rng) -> String {
        match r.range(0, 4) {
            0 => r.range(0, 3).to_string(),
            1 => "x".into(),
            2 => format!("x + {}", r.range(1, 2)),
            3 => "v".into(),
            _ => "1".into(),
        }
    }

    /// An access through pointer arithmetic with a computed offset: `a + i` for an index `i`
    /// of [`Scope::index`] (so always inside the array).
    fn pointer_stmt(&self, r: &mut Rng, out: &mut String, ind: &str) {
        let (a, n) = self.array(r);
        let i = self.index(r, n);
        let _ = match r.range(0, 2) {
            0 => writeln!(out, "{ind}*({a} + {i}) = {};", self.value(r)),
            1 => writeln!(out, "{ind}v = v + *({a} + {i});"),
            _ => writeln!(
                out,
                "{ind}{{\n{ind}  int *r = {a} + {i};\n{ind}  *r = *r + {};\n{ind}}}",
                self.value(r)
            ),
        };
    }

    /// One statement (`depth` limits nesting).
    fn stmt(&mut self, r: &mut Rng, depth: u32, out: &mut String, ind: &str) {
        if r.chance(1, 6) {
            self.pointer_stmt(r, out, ind);
            return;
        }
        let top = if depth == 0 { 7 } else { 10 };
        match r.range(0, top) {
            0 => {
                let (a, n) = self.array(r);
                let _ = writeln!(out, "{ind}{a}[{}] = {};", self.index(r, n), self.value(r));
            }
            1 => {
                let (a, n) = self.array(r);
                let _ = writeln!(out, "{ind}{a}[{}] += {};", self.index(r, n), self.value(r));
            }
            2 => {
                let (a, n) = self.array(r);
                let _ = writeln!(out, "{ind}v = v + {a}[{}];", self.index(r, n));
            }
            3 => {
                let _ = writeln!(out, "{ind}*p = *p + {};", self.value(r));
            }
            4 => {
                let _ = writeln!(out, "{ind}v = *p;");
            }
            5 => {
                let _ = writeln!(out, "{ind}*q = *q + 1;");
            }
            6 => {
                let _ = writeln!(out, "{ind}assert(v != {});", r.range(3, 12));
            }
            7 => {
                let m = r.range(0, 1);
                let _ = writeln!(out, "{ind}pthread_mutex_lock(&m{m});");
                for _ in 0..r.range(1, 2) {
                    self.stmt(r, depth - 1, out, ind);
                }
                let _ = writeln!(out, "{ind}pthread_mutex_unlock(&m{m});");
            }
            8 => {
                let _ = writeln!(out, "{ind}if (x > {}) {{", r.range(0, 3));
                self.stmt(r, depth - 1, out, &format!("{ind}  "));
                let _ = writeln!(out, "{ind}}}");
            }
            9 if !self.in_loop => {
                let _ = writeln!(out, "{ind}for (int k = 0; k < 2; k++) {{");
                self.in_loop = true;
                self.stmt(r, depth - 1, out, &format!("{ind}  "));
                self.in_loop = false;
                let _ = writeln!(out, "{ind}}}");
            }
            _ => {
                let (a, n) = self.array(r);
                let _ = writeln!(
                    out,
                    "{ind}{a}[{}] = {a}[{}] + 1;",
                    self.index(r, n),
                    r.range(0, n - 1)
                );
            }
        }
    }
}

/// The program of `seed`.
pub fn generate(seed: u64) -> Generated {
    let mut r = Rng(seed ^ 0x5eed_0000_2800_0000);
    let na = r.range(2, 4);
    let nb = r.range(2, 3);
    let workers = r.range(1, 4);
    let mut src = format!(
        "// yogar-bench explore-gen, seed {seed}: {workers} worker(s), a[{na}], b[{nb}].\n\
         #include <pthread.h>\n#include <assert.h>\n\n\
         extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\n\n\
         int a[{na}];\nint b[{nb}];\nint g0, g1;\n\
         pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;\n\
         pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;\n"
    );
    let mut scope = Scope {
        arrays: [('a', na), ('b', nb)],
        in_loop: false,
    };
    let mut unwind = 2;
    for w in 0..workers {
        let vals = r.range(1, 6);
        let lo = r.range(0, 2);
        let _ = write!(
            src,
            "\nvoid *w{w}(void *arg) {{\n  int *q = (int *)arg;\n  \
             int x = __VERIFIER_nondet_int();\n  __VERIFIER_assume(x >= {lo} && x <= {});\n",
            lo + vals - 1
        );
        // A second input in half the workers (else `y` is the constant 0).
        let yvals = if r.chance(1, 2) { r.range(2, 4) } else { 1 };
        let _ = write!(
            src,
            "  int y = __VERIFIER_nondet_int();\n  __VERIFIER_assume(y >= 0 && y < {yvals});\n  \
             int v = 0;\n"
        );
        let p = match r.range(0, 4) {
            0 => "&g0".to_string(),
            1 => "&g1".to_string(),
            2 => format!("&a[{}]", r.range(0, na - 1)),
            3 => format!("&b[x % {nb}]"),
            _ => format!("a + (x + y) % {na}"),
        };
        let _ = writeln!(src, "  int *p = {p};");
        let mut body = String::new();
        for _ in 0..r.range(2, 4) {
            scope.stmt(&mut r, 2, &mut body, "  ");
        }
        if body.contains("for (") {
            unwind = 3;
        }
        src.push_str(&body);
        src.push_str("  return 0;\n}\n");
    }
    src.push_str("\nint main(void) {\n");
    let _ = writeln!(src, "  pthread_t t[{workers}];");
    for w in 0..workers {
        let arg = if r.chance(1, 2) { "&g0" } else { "&g1" };
        let _ = writeln!(src, "  pthread_create(&t[{w}], 0, w{w}, {arg});");
    }
    for w in 0..workers {
        let _ = writeln!(src, "  pthread_join(t[{w}], 0);");
    }
    let cond = match r.range(0, 4) {
        0 => format!("a[{}] <= {}", r.range(0, na - 1), r.range(2, 10)),
        1 => format!("g0 + g1 != {}", r.range(1, 8)),
        2 => format!("b[{}] != {}", r.range(0, nb - 1), r.range(1, 6)),
        3 => format!(
            "a[{}] + b[{}] < {}",
            r.range(0, na - 1),
            r.range(0, nb - 1),
            r.range(3, 12)
        ),
        _ => format!(
            "a[{}] != b[{}] + {}",
            r.range(0, na - 1),
            r.range(0, nb - 1),
            r.range(1, 4)
        ),
    };
    let _ = writeln!(src, "  assert({cond});\n  return 0;\n}}");
    Generated {
        source: src,
        unwind,
    }
}

#[cfg(test)]
mod tests {
    use super::generate;

    /// The same seed gives the same program; the programs have what the issue asks for.
    #[test]
    fn deterministic_and_of_the_kind_asked() {
        assert_eq!(generate(7).source, generate(7).source);
        assert_ne!(generate(7).source, generate(8).source);
        let all: Vec<_> = (0..100).map(generate).collect();
        let has = |s: &str| all.iter().filter(|g| g.source.contains(s)).count();
        assert!(has("x % ") > 30, "input-dependent indices");
        assert!(has("*(a + ") + has("*(b + ") > 20, "pointer arithmetic");
        assert!(
            has("= a + (x + y)") > 5,
            "a pointer at an input-dependent offset"
        );
        assert!(has("pthread_mutex_lock(&m1)") > 10);
        assert!(has("pthread_create(&t[3]") > 10, "four workers");
        assert!(all.iter().any(|g| g.unwind == 3) && all.iter().any(|g| g.unwind == 2));
        for g in &all {
            assert!(g.source.contains("assert("));
            assert_eq!(g.unwind == 3, g.source.contains("for ("));
        }
    }
}
