// expect: FALSE unwind: 4
// As vla_thread_pool_true.c without the lock: with n >= 2, two workers read sum 0 and both
// write 1 (a lost update), so after all joins the sum is below n.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int sum;

void *worker(void *arg) {
  int s = sum;
  sum = s + 1;
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 3);
  pthread_t pool[n];
  for (int i = 0; i < n; i++)
    pthread_create(&pool[i], 0, worker, 0);
  for (int i = 0; i < n; i++)
    pthread_join(pool[i], 0);
  assert(sum == n);
  return 0;
}
