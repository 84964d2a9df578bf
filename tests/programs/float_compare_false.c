// expect: FALSE unwind: 1
// As float_compare_true.c, but asserting v == v, which fails for the NaN (k = 3).
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 5);
  double big = 1e308;
  double inf = big * 10;
  double v = 1.0;
  if (k == 0)
    v = 0.0;
  else if (k == 1)
    v = -0.0;
  else if (k == 2)
    v = inf;
  else if (k == 3)
    v = inf - inf;
  else if (k == 4)
    v = 4.9e-324;
  assert((v != v) == (k == 3));
  assert((v < 2.0 || v >= 2.0) == (k != 3));
  assert((v == 0.0) == (k <= 1));
  assert((1.0 / v < 0) == (k == 1));
  assert((v > 1e308) == (k == 2));
  assert(!(v < 0.0));
  assert(v == v);
  assert((v > 0.0) == (k == 2 || k == 4 || k == 5));
  float f = (float)v;
  assert((f == 0.0f) == (k <= 1 || k == 4));
  assert((f != f) == (k == 3));
  return 0;
}
