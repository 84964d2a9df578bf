// expect: TRUE unwind: 2
// An allocation of an input-dependent size: n ints for an input n in 1..4. A worker writes n into
// the last cell; main wrote 0 into the first and finds n in the last after the join, and the
// first still 0 unless it is the last (n = 1).
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int *buf;
int n;

void *worker(void *arg) {
  buf[n - 1] = n;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 4);
  buf = malloc(n * sizeof(int));
  if (!buf)
    return 0;
  buf[0] = 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(buf[n - 1] == n);
  assert(buf[0] == 0 || n == 1);
  return 0;
}
