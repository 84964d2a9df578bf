// expect: TRUE unwind: 2
// Paper example A1 (Yogar running example). Each `x = y + 1` reads y, then writes x.
// Reachable final (m, n) under SC: (0,1) (0,2) (0,3) (1,0) (1,2) (2,0) (2,1) (2,2) (2,3)
// (3,0) (3,2). Why not (1,1): thr2 could only write y == 1 after reading x == 0, i.e. after
// thr1's last statement, so m == 1 means `m = y` read the INITIAL y, before thr2's
// `y = x + 1`; symmetrically n == 1 means `n = x` ran before thr1's `x = y + 1`. With program
// order: m-read < thr2's y-write < n-read < thr1's x-write < m-read, a cycle.
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
  assert(!(m == 1 && n == 1));
  return 0;
}
