// expect: TRUE unwind: 2
// Load buffering: r1 = x; y = 1 || r2 = y; x = 1. For r1 == 1 the write x = 1 must precede
// the load of x, hence (program order) r2 = y precedes it too, and r2 == 1 would need y = 1
// before r2 = y, i.e. after r1 = x: a cycle. Impossible under SC.
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;
int r1, r2;

void *t1(void *arg) {
  r1 = x;
  y = 1;
  return 0;
}

void *t2(void *arg) {
  r2 = y;
  x = 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(r1 == 1 && r2 == 1));
  return 0;
}
