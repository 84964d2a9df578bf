// expect: FALSE(valid-deref) unwind: 2
// As null_checked_true.c without the test: the worker may not have allocated, and main
// writes through the null pointer.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int *res;
void *worker(void *arg) {
  if (__VERIFIER_nondet_int())
    res = malloc(sizeof(int));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  *res = 1;
  free(res);
  return 0;
}
