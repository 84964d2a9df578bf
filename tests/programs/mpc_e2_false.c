// expect: FALSE unwind: 2
// r1 <= r2 fails only in the order T2: x = 2; T1: r1 = x; T1: x = 1; T2: r2 = x
// (r1 == 2, r2 == 1).
#include <pthread.h>
#include <assert.h>

int x = 0;
int r1, r2;

void *t1(void *a) {
  r1 = x;
  x = 1;
  return 0;
}

void *t2(void *a) {
  x = 2;
  r2 = x;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(r1 <= r2);
  return 0;
}
