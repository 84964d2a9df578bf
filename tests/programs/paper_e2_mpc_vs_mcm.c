// expect: FALSE unwind: 2
// Paper example E2 (MPC vs MCM): T1: r1 = x; x = 1 || T2: x = 2; r2 = x. r1 > r2 happens
// only with the order T2's x = 2, T1 reads 2, T1's x = 1, T2 reads 1: r1 == 2, r2 == 1.
#include <pthread.h>
#include <assert.h>

int x = 0;
int r1, r2;

void *T1(void *a) {
  r1 = x;
  x = 1;
  return 0;
}

void *T2(void *a) {
  x = 2;
  r2 = x;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, T1, 0);
  pthread_create(&t2, 0, T2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(r1 <= r2);
  return 0;
}
