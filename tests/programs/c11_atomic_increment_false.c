// expect: FALSE unwind: 2
// The twin of c11_atomic_increment_true.c: `n = n + 1` is an atomic load and an atomic store,
// not one step, so an update can be lost.
#include <pthread.h>
_Atomic int n;

void *t(void *arg) {
  n = n + 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(n == 2, "an update can be lost");
  return 0;
}
