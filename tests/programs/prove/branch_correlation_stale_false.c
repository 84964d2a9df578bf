// FALSE twin of branch_correlation_true.c: `x` changes after `z` recorded `x == y`, so the
// relation is stale when it is used.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void *worker(void *arg) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int z;
  if (x == y)
    z = 0;
  else
    z = 1;
  x = x + 1;
  if (z == 0) {
    if (x != y) reach_error();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
