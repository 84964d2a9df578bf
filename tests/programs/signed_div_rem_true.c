// expect: TRUE unwind: 2
// C99 signed division truncates toward zero and the remainder has the sign of the dividend:
// -7 / 2 == -3, -7 % 2 == -1, 7 / -2 == -3, 7 % -2 == 1, -7 / -2 == 3, -7 % -2 == -1.
// For nondet x in [-20, 20] and d in [-5, 5] \ {0}: (x / d) * d + x % d == x, |x % d| < |d|,
// and a non-zero remainder has the sign of x. Checked in a thread, result read after join.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int x, d;
int ok = 0;

void *check(void *arg) {
  int q = x / d, r = x % d;
  int ad = d < 0 ? -d : d;
  int ar = r < 0 ? -r : r;
  ok = (q * d + r == x) && (ar < ad) && (r == 0 || ((r < 0) == (x < 0)));
  return 0;
}

int main(void) {
  pthread_t t;
  int a = -7, b = 2, c = -2, e = 7;
  assert(a / b == -3 && a % b == -1);
  assert(e / c == -3 && e % c == 1);
  assert(a / c == 3 && a % c == -1);
  x = __VERIFIER_nondet_int();
  d = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= -20 && x <= 20);
  __VERIFIER_assume(d >= -5 && d <= 5 && d != 0);
  pthread_create(&t, 0, check, 0);
  pthread_join(t, 0);
  assert(ok == 1);
  return 0;
}
