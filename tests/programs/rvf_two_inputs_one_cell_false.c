// expect: FALSE unwind: 2
// Two workers store their inputs in one global; main reads it twice. Under the first inputs
// (all 0) both stores write the bytes of the initial value: a closure or a greedy rule that
// compared those bytes would take the stores for equal (or for unneeded) under every
// input. The violation needs x = 3 read first and y = 4 after it: w1, the first read, w2,
// the second read.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *w1(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 8);
  g = x;
  return 0;
}

void *w2(void *arg) {
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 0 && y < 8);
  g = y;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w1, 0);
  pthread_create(&t2, 0, w2, 0);
  int r1 = g;
  int r2 = g;
  assert(!(r1 == 3 && r2 == 4));
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
