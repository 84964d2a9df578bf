// expect: FALSE unwind: 2
// A thread locks a recursive mutex twice and unlocks it once too few: after the join it is
// still held by the finished thread, and main's trylock fails with EBUSY.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  assert(pthread_mutex_unlock(&m) == EPERM);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int r = pthread_mutex_trylock(&m);
  assert(r == 0);
  assert(pthread_mutex_trylock(&m) == 0);
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
