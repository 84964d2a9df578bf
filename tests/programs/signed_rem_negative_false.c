// expect: FALSE unwind: 2
// Parity test that wrongly assumes x % 2 is 0 or 1: for a negative odd input (e.g. x == -1,
// allowed by the assume) C99 gives x % 2 == -1.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int x, parity;

void *par(void *arg) {
  parity = x % 2;
  return 0;
}

int main(void) {
  pthread_t t;
  x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= -10 && x <= 10);
  pthread_create(&t, 0, par, 0);
  pthread_join(t, 0);
  assert(parity == 0 || parity == 1);
  return 0;
}
