// expect: FALSE unwind: 2
// Paper example C1 (CDPOR working example) from z = -1, x = -2, each process body one atomic
// block. Orders p.q.r, p.r.q, q.p.r, q.r.p, r.p.q end in (x, z) == (0, 0); r.q.p ends in
// (0, -1): r makes x = -1, z = 0, then q sees z >= 0 and copies z = x = -1, then p makes
// x = 0. So the assertion z == 0 fails (witness r.q.p).
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x = -2, z = -1;

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
  assert(z == 0);
  return 0;
}
