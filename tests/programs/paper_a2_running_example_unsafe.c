// expect: FALSE unwind: 2
// Paper example A2: the A1 program with the assertion !(m == 2 && n == 2). (2, 2) is
// reachable: thr1 computes x = y + 1 = 2 and thr2 computes y = x + 1 = 2 from the initial
// values (both reads first), then m = y reads 2 and n = x reads 2 before either reset to 0.
#include <pthread.h>
#include <assert.h>

int x = 1, y = 1, m = 0, n = 0;

void *thr1(void *arg) {
  x = y + 1;
  m = y;
  x = 0;
  return 0;
}

void *thr2(void *arg) {
  y = x + 1;
  n = x;
  y = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(!(m == 2 && n == 2));
  return 0;
}
