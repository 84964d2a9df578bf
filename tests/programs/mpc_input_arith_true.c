// expect: TRUE unwind: 2
// As mpc_input_arith_false.c, but T2 needs m <= -1000, which the assumption on n excludes:
// y == 11 is impossible (3n + 1 == 11 has no integer solution), and z == -14 needs m <= -1000.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int y = 0;
int m = 0;

void *t1(void *a) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > -1000 && n < 1000);
  m = n;
  y = n * 3 + 1;
  return 0;
}

void *t2(void *a) {
  int v = y;
  int z = 100 / (v - 7);
  if (z == 25)
    assert(0);
  if (z == -14 && m <= -1000)
    assert(0);
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
