// expect: TRUE unwind: 2
// Both accesses to x are inside __VERIFIER_atomic functions: accesses that are both atomic
// never race.
#include <pthread.h>
int x;
void __VERIFIER_atomic_inc(void) { x = x + 1; }
void *inc(void *arg) { __VERIFIER_atomic_inc(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  return 0;
}
