// expect: FALSE unwind: 2
// Inputs that share a path but differ in a value an assertion reads later: x = 3 and x = 7
// make T1 take the same steps (its assumption holds, it writes g = x), but only x = 7 with
// y = 2 fails T2's assertion (T2 reading g after T1's write). The failing assumptions of both
// threads are cut (concolic::stops: each thread is silent before them and they can hold);
// the outcomes where they hold must still cover every value of x and y.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *t1(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 9);
  g = x;
  return 0;
}

void *t2(void *arg) {
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 1 && y <= 3);
  int r = g;
  assert(r != y + 5);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
