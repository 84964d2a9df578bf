// expect: TRUE unwind: 2 spin: yes
// A spin lock taken by compare-and-swap: a failed CAS only reads (cut), the successful one is
// the loop's only effect and leaves it. Mutual exclusion holds: `in` is 1 inside.
#include <pthread.h>
#include <assert.h>

int l = 0;
int in = 0;

int __VERIFIER_atomic_cas(int *p, int old, int new) {
  if (*p == old) {
    *p = new;
    return 1;
  }
  return 0;
}

void *worker(void *arg) {
  while (!__VERIFIER_atomic_cas(&l, 0, 1))
    ;
  in = in + 1;
  assert(in == 1);
  in = in - 1;
  l = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  return 0;
}
