// FALSE twin of branch_correlation_true.c: `z` records `x <= y`, which does not give
// `x == y` back.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
int m = 0;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { __VERIFIER_assume(m == 1); m = 0; }
void *worker(void *arg) {
  while (1) {
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    int z;
    __VERIFIER_atomic_acquire();
    if (x <= y)
      z = 0;
    else
      z = 1;
    if (z == 0) {
      if (x != y) reach_error();
    } else {
      if (x == y) reach_error();
    }
    __VERIFIER_atomic_release();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
