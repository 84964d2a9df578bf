// expect: FALSE unwind: 2
// Twin of silent_stop_guard_true.c where main, before it aborts, writes `seen`, which the
// workers read: main reads cnt == 0 (before the workers), sets seen = 1 and aborts; a
// worker then runs and its assertion !seen fails. The stop is not silent (a write another
// thread reads), so rvf must explore the child where main's read of cnt makes it abort.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int cnt = 0;
int x = 0;
int seen = 0;

void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  cnt = cnt + 1;
  x = x + 1;
  __VERIFIER_atomic_end();
  assert(!seen);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  __VERIFIER_atomic_begin();
  if (cnt != 2)
    seen = 1;
  __VERIFIER_atomic_end();
  if (seen)
    abort();
  assert(x == 2);
  return 0;
}
