//! The thread-count families of the `growth` section, generated rather than kept as files:
//! programs without loops whose only size parameter is the number of threads, so at unwind 2
//! the growth they show is the threads' and not the bound's. Both are TRUE for every `n`.
//!
//! - `lock_counter(n)`: `n` identical threads each add 1 to a shared counter under a mutex;
//!   main joins them all and asserts the counter is `n` (n! orders of the critical sections,
//!   all with the same outcome).
//! - `pending_adders(n)`: the shape of the KISS "stopper and adders" example (Qadeer and Wu,
//!   PLDI 2004): a pending-request count starting at 1, `n` adder threads that each take a
//!   reference unless stopping has begun and assert that the device is not stopped while they
//!   hold it, and one stopper that raises the stopping flag, drops the initial reference and
//!   marks the device stopped only once the count reached 0. Written for this bench.

use std::fmt::Write as _;

/// `n` identical lock-protected increments, checked after joining.
pub fn lock_counter(n: u32) -> String {
    let mut c = format!(
        "// Growth family (yogar-bench section `growth`): {n} lock-counter thread(s).\n\
         #include <assert.h>\n#include <pthread.h>\n\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint counter = 0;\n\n\
         void *add_one(void *arg) {{\n  pthread_mutex_lock(&m);\n  counter = counter + 1;\n  \
         pthread_mutex_unlock(&m);\n  return 0;\n}}\n\nint main(void) {{\n"
    );
    for i in 0..n {
        let _ = writeln!(c, "  pthread_t t{i};");
    }
    for i in 0..n {
        let _ = writeln!(c, "  pthread_create(&t{i}, 0, add_one, 0);");
    }
    for i in 0..n {
        let _ = writeln!(c, "  pthread_join(t{i}, 0);");
    }
    let _ = write!(c, "  assert(counter == {n});\n  return 0;\n}}\n");
    c
}

/// One stopper and `n` adders around a pending-request count.
pub fn pending_adders(n: u32) -> String {
    let mut c = format!(
        "// Growth family (yogar-bench section `growth`): a stopper and {n} adder thread(s).\n\
         #include <assert.h>\n#include <pthread.h>\n\n\
         void __VERIFIER_atomic_begin(void);\nvoid __VERIFIER_atomic_end(void);\n\
         void __VERIFIER_assume(int);\n\n\
         int stopping = 0;\nint pending = 1;\nint drained = 0;\nint stopped = 0;\n\n\
         void release(void) {{\n  __VERIFIER_atomic_begin();\n  pending = pending - 1;\n  \
         if (pending == 0)\n    drained = 1;\n  __VERIFIER_atomic_end();\n}}\n\n\
         void *adder(void *arg) {{\n  int got = 0;\n  __VERIFIER_atomic_begin();\n  \
         if (!stopping) {{\n    pending = pending + 1;\n    got = 1;\n  }}\n  \
         __VERIFIER_atomic_end();\n  if (got) {{\n    assert(!stopped);\n    release();\n  }}\n  \
         return 0;\n}}\n\n\
         void *stopper(void *arg) {{\n  stopping = 1;\n  release();\n  \
         __VERIFIER_assume(drained);\n  stopped = 1;\n  return 0;\n}}\n\n\
         int main(void) {{\n  pthread_t t;\n  pthread_create(&t, 0, stopper, 0);\n"
    );
    for _ in 0..n {
        c.push_str("  pthread_create(&t, 0, adder, 0);\n");
    }
    c.push_str("  return 0;\n}\n");
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_counter_has_n_threads_and_checks_n() {
        let p = lock_counter(3);
        assert_eq!(p.matches("pthread_create(").count(), 3);
        assert_eq!(p.matches("pthread_join(").count(), 3);
        assert!(p.contains("assert(counter == 3);"));
        assert!(!p.contains("t3"));
    }

    #[test]
    fn pending_adders_has_one_stopper_and_n_adders() {
        let p = pending_adders(4);
        assert_eq!(p.matches("pthread_create(&t, 0, adder, 0);").count(), 4);
        assert_eq!(p.matches("pthread_create(&t, 0, stopper, 0);").count(), 1);
        assert!(p.contains("assert(!stopped);"));
    }
}
