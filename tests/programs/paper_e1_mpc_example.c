// expect: FALSE unwind: 2
// Paper example E1 (MPC S1/S2): T1 stores 1, 2 or 3 into x depending on two nondet inputs;
// T2 fails if it reads x == 2. Error path: i <= 0, j > 0 (T1 stores 2), and T1's store
// before T2's read.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x = 0;

void *T1(void *a) {
  int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
  if (i > 0)
    x = 1;
  else if (j > 0)
    x = 2;
  else
    x = 3;
  return 0;
}

void *T2(void *a) {
  if (x == 2)
    assert(0);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, T1, 0);
  pthread_create(&t2, 0, T2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
