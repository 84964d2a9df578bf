// expect: TRUE unwind: 2
// 2+2W: T1: x = 1; y = 2 || T2: y = 1; x = 2. A final state x == 1 && y == 1 would need
// T2's x = 2 before T1's x = 1 and T1's y = 2 before T2's y = 1; with program order that is a
// cycle, so under SC it is unreachable.
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;

void *t1(void *arg) {
  x = 1;
  y = 2;
  return 0;
}

void *t2(void *arg) {
  y = 1;
  x = 2;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(x == 1 && y == 1));
  return 0;
}
