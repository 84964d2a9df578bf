// expect: FALSE unwind: 2
// The thread computes y = x + 1 for an unconstrained unsigned input x; the assertion y > x
// fails exactly for x == 4294967295 (UINT_MAX), where y wraps to 0.
#include <pthread.h>
#include <assert.h>

extern unsigned int __VERIFIER_nondet_uint(void);

unsigned int x, y;

void *succ(void *arg) {
  y = x + 1;
  return 0;
}

int main(void) {
  pthread_t t;
  x = __VERIFIER_nondet_uint();
  pthread_create(&t, 0, succ, 0);
  pthread_join(t, 0);
  assert(y > x);
  return 0;
}
