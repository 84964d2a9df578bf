// expect: FALSE unwind: 4
// Same retry loop as trylock_retry_bounded_true.c, but the assertion claims both threads
// always get the lock. T2 can make all 3 attempts while T1 holds the mutex (T1 is between its
// trylock and its unlock), then give up: done == 1. Loop: at most 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done = 0;

void *worker(void *arg) {
  int k = 0, r;
  do {
    r = pthread_mutex_trylock(&m);
    k++;
  } while (r != 0 && k < 3);
  if (r == 0) {
    done = done + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(done == 2);
  return 0;
}
