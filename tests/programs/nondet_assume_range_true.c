// expect: TRUE unwind: 2
// main picks a nondet input restricted by assume to 0 <= in < 10, the thread computes
// out = 3 * in, main joins and checks: out is a multiple of 3 below 30.
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
  assert(out % 3 == 0 && out >= 0 && out < 30);
  return 0;
}
