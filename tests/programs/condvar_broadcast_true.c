// expect: TRUE unwind: 3
// Two waiters wait for `go` (predicate loop, bounded by 2 waits then assume(go), unwind 3);
// main sets go = 1 under the mutex and broadcasts. Each waiter increments `woke` under the
// mutex after seeing go, so once both are joined woke == 2, and no waiter ever passes the
// wait with go == 0.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int go = 0;
int woke = 0;

void *waiter(void *arg) {
  int k;
  pthread_mutex_lock(&m);
  for (k = 0; k < 2 && !go; k++)
    pthread_cond_wait(&c, &m);
  __VERIFIER_assume(go);
  assert(go == 1);
  woke = woke + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t w[2];
  int i;
  for (i = 0; i < 2; i++)
    pthread_create(&w[i], 0, waiter, 0);
  pthread_mutex_lock(&m);
  go = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  for (i = 0; i < 2; i++)
    pthread_join(w[i], 0);
  assert(woke == 2);
  return 0;
}
