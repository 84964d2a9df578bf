// FALSE twin of branch_correlation_true.c where the compared value is the shared `g`, which
// other workers change between the comparison and the check: a path fact may only relate an
// instance's own variables.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int g;
void *worker(void *arg) {
  while (1) {
    int x = __VERIFIER_nondet_int();
    int z;
    if (x == g)
      z = 0;
    else
      z = 1;
    if (z == 0) {
      if (x != g) reach_error();
    }
    g = __VERIFIER_nondet_int();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
