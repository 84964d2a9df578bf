// Unboundedly many threads increment `c` under a lock while it is below 10; a thread that
// holds the lock never sees more than 10.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int c = 0, m = 0;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { __VERIFIER_assume(m == 1); m = 0; }
void *thr(void *arg) {
  __VERIFIER_atomic_acquire();
  if (c < 10) c = c + 1;
  if (c > 10) reach_error();
  __VERIFIER_atomic_release();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
