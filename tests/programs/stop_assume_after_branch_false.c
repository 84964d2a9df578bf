// expect: FALSE unwind: 2
// A failed assumption on a condition its thread branched on before must not be cut
// (rvf::assume_stops, condition 3 over every decision of the thread, repeats included).
// T1 draws x; for x > 7 it writes g = 1, otherwise it assumes x > 7, which fails: the same
// condition, decided false by the branch, so the assumption cannot hold there. T2 draws y
// and fails its assertion when it reads g == 0 with y == 2: reached with T1 stopped (or
// T1 not yet run). The satisfiability check over the input log, where the condition stands
// once, would see only the assumption and call it satisfiable.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *t1(void *arg) {
  int x = __VERIFIER_nondet_int();
  if (x > 7) {
    g = 1;
  } else {
    __VERIFIER_assume(x > 7);
  }
  return 0;
}

void *t2(void *arg) {
  int y = __VERIFIER_nondet_int();
  int r = g;
  assert(!(r == 0 && y == 2));
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(b, 0);
  return 0;
}
