// expect: TRUE unwind: 4
// A variable-length array of thread handles, n in [1, 3]: n workers each add 1 under a lock,
// main joins them all through the handles stored in the array, and the sum is n.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sum;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  sum = sum + 1;
  pthread_mutex_unlock(&m);
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
