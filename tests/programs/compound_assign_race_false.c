// expect: FALSE unwind: 2
// T1 does x += 2, T2 does x -= 1 on a shared x (initially 0), both non-atomic
// read-modify-writes. If both read 0 before either writes, the final value is the last
// writer's: 2 or -1, so `x == 1` fails (e.g. T1.r(0), T2.r(0), T2.w(-1), T1.w(2)).
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
  assert(x == 1);
  return 0;
}
