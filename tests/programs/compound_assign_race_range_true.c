// expect: TRUE unwind: 2
// T1 does x += 2, T2 does x -= 1 (x starts at 0). Each thread reads x once and writes once,
// so the final value is either the sequential result 1, or a lost update leaving only the
// last writer's value computed from 0: 2 or -1. Nothing else is possible.
#include <pthread.h>
#include <assert.h>

int x = 0;

void *add2(void *arg) {
  x += 2;
  return 0;
}

void *sub1(void *arg) {
  x -= 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, add2, 0);
  pthread_create(&t2, 0, sub1, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 1 || x == 2 || x == -1);
  return 0;
}
