// expect: FALSE unwind: 2
// (x << s) >> s == x is false when x has bits in the top s positions: e.g. x == 0x80000000,
// s == 1 gives 0. Inputs: any unsigned x, s in [0, 31].
#include <pthread.h>
#include <assert.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

unsigned int x, s, back;

void *worker(void *arg) {
  back = (x << s) >> s;
  return 0;
}

int main(void) {
  pthread_t t;
  x = __VERIFIER_nondet_uint();
  s = __VERIFIER_nondet_uint();
  __VERIFIER_assume(s < 32);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(back == x);
  return 0;
}
