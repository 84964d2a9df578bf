//! The `locked_counters` family of the `prove` section, generated rather than kept as files:
//! `N` distinct thread templates (worker `i` adds `i + 1`), each with `S` counters of its own,
//! updated in an atomic section inside a loop that never ends; a counter wraps from past 10
//! to 0 and each thread asserts its counters stay in 0..=10. No bound closes the loops, so
//! only a proof decides it (TRUE for every N and S).

use std::fmt::Write as _;

/// The C program with `n` templates and `s` counters per template.
pub fn program(n: u32, s: u32) -> String {
    let mut c = format!(
        "// Prover family (yogar-bench section `prove`): {n} thread template(s), {s} counter(s) each.\n\
         #include <assert.h>\n#include <pthread.h>\n\n\
         void __VERIFIER_atomic_begin(void);\nvoid __VERIFIER_atomic_end(void);\n"
    );
    for i in 0..n {
        for j in 0..s {
            let _ = writeln!(c, "int c{i}_{j} = 0;");
        }
    }
    for i in 0..n {
        let _ = write!(
            c,
            "\nvoid *worker{i}(void *arg) {{\n  while (1) {{\n    __VERIFIER_atomic_begin();\n"
        );
        for j in 0..s {
            let v = format!("c{i}_{j}");
            let _ = write!(
                c,
                "    if ({v} < 10)\n      {v} = {v} + {};\n    if ({v} > 10)\n      {v} = 0;\n    \
                 assert({v} >= 0 && {v} <= 10);\n",
                i + 1
            );
        }
        c.push_str("    __VERIFIER_atomic_end();\n  }\n  return 0;\n}\n");
    }
    c.push_str("\nint main(void) {\n  pthread_t t;\n");
    for i in 0..n {
        let _ = writeln!(c, "  pthread_create(&t, 0, worker{i}, 0);");
    }
    c.push_str("  return 0;\n}\n");
    c
}

#[cfg(test)]
mod tests {
    use super::program;

    #[test]
    fn templates_and_counters_scale_with_n_and_s() {
        let p = program(3, 2);
        assert_eq!(p.matches("void *worker").count(), 3);
        assert_eq!(p.matches("pthread_create(").count(), 3);
        assert_eq!(p.matches("assert(c").count(), 6);
        assert!(p.contains("c2_1 = c2_1 + 3;"));
        assert!(!p.contains("c3_0"));
    }
}
