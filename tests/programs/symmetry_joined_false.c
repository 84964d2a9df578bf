// expect: FALSE unwind: 2
// Twin of symmetry_twins_true.c for symmetry breaking: two threads with the same function and
// argument, but main joins the second, which tells them apart: the error needs the joined
// thread (created second) to run before the other one starts. Error: main creates both, the
// second increments `started`, main joins it and reads `started == 1`. Ordering their first
// events by creation would force the first thread's increment before the second's, hence
// before the join, and lose the error.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int started;

void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  started = started + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(b, 0);
  if (started == 1) {
    reach_error();
    abort();
  }
  return 0;
}
