// expect: FALSE unwind: 1
// As float_arith_true.c, but asserting that k * 0.1 / 0.1 == k for every k, which fails for
// k = 3, 6 and 12 (checked against gcc): only exact rounding finds the counterexample.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 20);
  double x = k * 0.1;
  double y = x / 0.1;
  assert(y == k);
  float fx = k * 0.1f;
  float fy = fx / 0.1f;
  assert((fy == k) == (k != 13));
  float a = 0.1f, b = 0.2f;
  assert(a + b == 0.3f);
  double c = 0.1, d = 0.2;
  assert(c + d != 0.3 && c + d > 0.3);
  double big = 1e308;
  assert(big * 10 > big);
  double tiny = 4.9e-324;
  assert(tiny / 2 == 0.0 && tiny * 0.75 == tiny);
  return 0;
}
