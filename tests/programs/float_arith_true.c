// expect: TRUE unwind: 1
// Float and double arithmetic exactly as the machine rounds it (C with FLT_EVAL_METHOD 0;
// every result here was checked against gcc): k * 0.1 / 0.1 gives k back except for
// k = 3, 6, 12 in double and k = 13 in float; 0.1f + 0.2f is 0.3f but 0.1 + 0.2 is above 0.3;
// overflow to infinity; a tie in the denormal range rounds to even.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 20);
  double x = k * 0.1;
  double y = x / 0.1;
  assert((y == k) == (k != 3 && k != 6 && k != 12));
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
