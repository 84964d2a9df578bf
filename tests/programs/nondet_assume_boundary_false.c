// expect: FALSE unwind: 2
// Same as nondet_assume_range_true.c but the assertion says out < 27: the input in == 9
// (allowed by the assume) gives out == 27.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int in, out;

void *triple(void *arg) {
  out = 3 * in;
  return 0;
}

int main(void) {
  pthread_t t;
  in = __VERIFIER_nondet_int();
  __VERIFIER_assume(in >= 0 && in < 10);
  pthread_create(&t, 0, triple, 0);
  pthread_join(t, 0);
  assert(out < 27);
  return 0;
}
