// expect: TRUE unwind: 2
// Paper example D1 (LB+data): P: r0 = x; y = r0 + 1 || Q: r1 = y; x = 1. r1 == 2 needs Q's
// read of y after P's write y = r0 + 1 with r0 == 1, i.e. after P read x == 1, which needs
// Q's x = 1 before P's read, hence (program order) Q's read of y before it: a cycle. So
// r0 == 1 && r1 == 2 is impossible under SC (it is allowed on POWER). Reachable (r0, r1):
// (0,0), (0,1), (1,0).
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;
int r0, r1;

void *P(void *a) {
  r0 = x;
  y = r0 + 1;
  return 0;
}

void *Q(void *a) {
  r1 = y;
  x = 1;
  return 0;
}

int main(void) {
  pthread_t tp, tq;
  pthread_create(&tp, 0, P, 0);
  pthread_create(&tq, 0, Q, 0);
  pthread_join(tp, 0);
  pthread_join(tq, 0);
  assert(!(r0 == 1 && r1 == 2));
  return 0;
}
