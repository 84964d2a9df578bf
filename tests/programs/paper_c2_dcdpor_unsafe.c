// expect: FALSE unwind: 2
// Paper example C2 (DC-DPOR comparison), second assertion: r can read x after p's or q's
// write, so v == 5 is reachable and assert(v == 0) fails.
#include <pthread.h>
#include <assert.h>

int x = 0;
int v;

void *p(void *a) {
  x = 5;
  return 0;
}

void *q(void *a) {
  x = 5;
  return 0;
}

void *r(void *a) {
  v = x;
  return 0;
}

int main(void) {
  pthread_t tp, tq, tr;
  pthread_create(&tp, 0, p, 0);
  pthread_create(&tq, 0, q, 0);
  pthread_create(&tr, 0, r, 0);
  pthread_join(tp, 0);
  pthread_join(tq, 0);
  pthread_join(tr, 0);
  assert(v == 0);
  return 0;
}
