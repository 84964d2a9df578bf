// expect: TRUE unwind: 2
// A worker may or may not have allocated the result (a nondet choice); main tests it before
// use and frees it. Twin: null_unchecked_false.c (the test removed).
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
  if (res != 0) {
    *res = 1;
    free(res);
  }
  return 0;
}
