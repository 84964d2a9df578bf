// expect: TRUE unwind: 2
// Paper example C1 (CDPOR working example) from z = -2, x = -2, each process body one atomic
// block: p: x = x + 1; q: if (z >= 0) z = x; r: x = x + 1; z = z + 1. Only r increments z
// (to -1), so q's test never passes; all 6 orders end in (x, z) == (0, -1).
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x = -2, z = -2;

void *p(void *arg) {
  __VERIFIER_atomic_begin();
  x = x + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *q(void *arg) {
  __VERIFIER_atomic_begin();
  if (z >= 0)
    z = x;
  __VERIFIER_atomic_end();
  return 0;
}

void *r(void *arg) {
  __VERIFIER_atomic_begin();
  x = x + 1;
  z = z + 1;
  __VERIFIER_atomic_end();
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
  assert(z == -1 && x == 0);
  return 0;
}
