// expect: TRUE unwind: 2
// Signed arithmetic without overflow: for a, b in [-100, 100], (a - b) + b == a,
// (a * 3) / 3 == a, -(-a) == a, (a + b) * 2 == a * 2 + b * 2 and (a < b) == (a - b < 0).
// Two threads compute parts of the check into separate globals; main combines them after
// joining.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a, b;
int ok1 = 0, ok2 = 0;

void *part1(void *arg) {
  ok1 = ((a - b) + b == a) && ((a * 3) / 3 == a) && (-(-a) == a);
  return 0;
}

void *part2(void *arg) {
  ok2 = ((a + b) * 2 == a * 2 + b * 2) && ((a < b) == (a - b < 0));
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  a = __VERIFIER_nondet_int();
  b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= -100 && a <= 100 && b >= -100 && b <= 100);
  pthread_create(&t1, 0, part1, 0);
  pthread_create(&t2, 0, part2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(ok1 && ok2);
  return 0;
}
