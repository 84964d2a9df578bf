// The random-generator shape: `seed` starts non-zero and every update stores a value the
// loop has made different from 0, so `seed != 0` always holds.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int seed = 1, m = 0;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { __VERIFIER_assume(m == 1); m = 0; }
void *thr(void *arg) {
  int read, next;
  if (seed == 0) reach_error();
  __VERIFIER_atomic_acquire();
  read = seed;
  do next = __VERIFIER_nondet_int();
  while (next == read || next == 0);
  seed = next;
  __VERIFIER_atomic_release();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
