// expect: FALSE unwind: 2
// A max function with the ?: branches swapped returns the minimum; for any inputs with
// a != b (e.g. a = 1, b = 0) the assertion mx >= a && mx >= b fails.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a, b, mx;

void *compute(void *arg) {
  mx = a > b ? b : a;
  return 0;
}

int main(void) {
  pthread_t t;
  a = __VERIFIER_nondet_int();
  b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= -50 && a <= 50 && b >= -50 && b <= 50);
  pthread_create(&t, 0, compute, 0);
  pthread_join(t, 0);
  assert(mx >= a && mx >= b);
  return 0;
}
