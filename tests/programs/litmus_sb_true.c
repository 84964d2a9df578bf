// expect: TRUE unwind: 2
// Store buffering (SB / Dekker core): x = 1; r1 = y || y = 1; r2 = x. Under SC the last of
// the four events in the global order is a load, and it comes after both stores, so it reads
// 1: r1 == 0 && r2 == 0 (allowed on TSO and weaker) is impossible.
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;
int r1, r2;

void *t1(void *arg) {
  x = 1;
  r1 = y;
  return 0;
}

void *t2(void *arg) {
  y = 1;
  r2 = x;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(r1 == 0 && r2 == 0));
  return 0;
}
