// expect: TRUE unwind: 2
// The TRUE twin of stop_assume_after_branch_false.c: T2 fails only when it reads g == 2,
// which nobody writes (T1 writes 1 for x > 7 and stops otherwise).
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
  assert(!(r == 2 && y == 2));
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(b, 0);
  return 0;
}
