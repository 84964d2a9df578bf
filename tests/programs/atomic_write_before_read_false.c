// expect: FALSE unwind: 2
// Why the paper's backtrack signals cannot be used as they stand: `q` reads x and writes y
// in one atomic step, and only writes y if it runs before `t` sets x. If the explorer
// processed t's read of y first, that read sees 0, and below it q's step can only run after
// x = 1 and writes nothing: no new write of y is ever met, yet the run where q's step comes
// first makes t read 5.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x, y;
void *t(void *arg) { x = 1; int a = y; if (a == 5) reach_error(); return 0; }
void *q(void *arg) {
  __VERIFIER_atomic_begin();
  if (x == 0) y = 5;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, q, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
