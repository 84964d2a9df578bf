// expect: TRUE unwind: 1
// Conversions (checked against gcc): integers of every width to float and double round to
// nearest even (2^24 + 1 is not a float, 2^24 + 3 rounds up), float to integer truncates
// toward zero, double to float rounds, float to double is exact, and a float tested as a
// condition is true when non-zero.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 4);
  int n = 16777216 + k;
  float f = n;
  assert((double)f == (k == 1 ? 16777216.0 : k == 3 ? 16777220.0 : (double)n));
  long long big = 9007199254740993LL + k;
  double d = big;
  assert((long long)d == (k == 0 || k == 4 ? big - 1 : k == 2 ? big + 1 : big));
  unsigned char c = 250 + k;
  float fc = c;
  assert((unsigned char)(fc * 0.5f * 2.0f) == c);
  short s = -k;
  double ds = s / 2.0;
  assert((int)ds == -(k / 2));
  unsigned u = 4294967295u - k;
  float fu = u;
  assert(fu == 4294967296.0f);
  double third = 1.0 / 3.0;
  float ft = third;
  assert((double)ft != third && (double)(float)0.5 == 0.5);
  float z = k - 2;
  if (z)
    assert(k != 2);
  else
    assert(k == 2);
  _Bool b = z;
  assert(b == (k != 2));
  return 0;
}
