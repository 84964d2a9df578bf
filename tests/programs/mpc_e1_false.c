// expect: FALSE unwind: 2
// Two nondet inputs choose which value T1 writes to x; T2 fails when it reads 2. With i <= 0,
// j > 0 and T1 before T2, x == 2 when T2 reads it. Reachable paths (T1's branches, T2's):
// (i > 0, x != 2), (i <= 0 j > 0, x != 2), (i <= 0 j <= 0, x != 2), (i <= 0 j > 0, x == 2).
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x = 0;

void *t1(void *a) {
  int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
  if (i > 0)
    x = 1;
  else if (j > 0)
    x = 2;
  else
    x = 3;
  return 0;
}

void *t2(void *a) {
  if (x == 2)
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
