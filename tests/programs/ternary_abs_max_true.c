// expect: TRUE unwind: 2
// ?: selects one operand: for a, b in [-50, 50], (a < 0 ? -a : a) is |a| >= 0 and
// (a > b ? a : b) is the maximum. Only the selected operand is evaluated, so exactly one of
// the two side-effecting counters is incremented.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a, b, abs_a, mx;
int left = 0, right = 0;

void *compute(void *arg) {
  abs_a = a < 0 ? -a : a;
  mx = a > b ? a : b;
  (void)(a > b ? left++ : right++);
  return 0;
}

int main(void) {
  pthread_t t;
  a = __VERIFIER_nondet_int();
  b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= -50 && a <= 50 && b >= -50 && b <= 50);
  pthread_create(&t, 0, compute, 0);
  pthread_join(t, 0);
  assert(abs_a >= 0 && (abs_a == a || abs_a == -a));
  assert(mx >= a && mx >= b && (mx == a || mx == b));
  assert(left + right == 1);
  return 0;
}
