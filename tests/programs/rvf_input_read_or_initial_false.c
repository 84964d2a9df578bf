// expect: FALSE unwind: 2
// A worker stores its input in g; main reads g before or after the store. Under the first
// inputs the explorer tries (all 0) the stored value and the initial one are both 0: an
// explorer that told the two reads apart by their bits alone would take the read of the
// stored input for the read of the constant initial value, find no decision on the input
// in main, and never try x = 5.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *w(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 10);
  g = x;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  int r = g;
  assert(r != 5);
  pthread_join(t, 0);
  return 0;
}
