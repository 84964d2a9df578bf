// expect: TRUE unwind: 2
// Paper example C1 (CDPOR working example) from z = -2, x = -2. Each process body is one
// critical section of a single global mutex: p: x = x + 1; q: if (z >= 0) z = x;
// r: x = x + 1; z = z + 1. z starts at -2 and only r increments it (to -1), so q's test
// z >= 0 never passes; p and r bring x to 0. All 6 orders end in (x, z) == (0, -1).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
int x = -2, z = -2;

void *p(void *arg) {
  pthread_mutex_lock(&g);
  x = x + 1;
  pthread_mutex_unlock(&g);
  return 0;
}

void *q(void *arg) {
  pthread_mutex_lock(&g);
  if (z >= 0)
    z = x;
  pthread_mutex_unlock(&g);
  return 0;
}

void *r(void *arg) {
  pthread_mutex_lock(&g);
  x = x + 1;
  z = z + 1;
  pthread_mutex_unlock(&g);
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
  assert(z == -1);
  assert(x == 0);
  return 0;
}
