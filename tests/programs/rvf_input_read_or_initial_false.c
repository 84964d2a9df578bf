// expect: FALSE unwind: 2
// A worker stores its input in g, then 0; main reads g before, between or after. Under the
// first inputs the explorer tries (all 0) the three values are all 0: an explorer that told
// the reads apart by their bits alone would keep one of them, the first its witness search
// finds (the last store's constant 0, read as late as possible). The write of h ends main's
// step before the assertion, so no run of the dropped read's step decides r == 5 either:
// such an explorer would find no decision on the input in main and never try x = 5.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g, h;

void *w(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 10);
  g = x;
  g = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  int r = g;
  h = 1;
  assert(r != 5);
  pthread_join(t, 0);
  return 0;
}
