// expect: TRUE unwind: 2
// pthread_cond_wait on an error-checking mutex the caller does not hold returns EPERM at once;
// held, the wait releases it (the signalling thread can take it) and takes it back.
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *signaller(void *arg) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  int r = pthread_cond_wait(&c, &m);
  assert(r == EPERM);
  pthread_t t;
  pthread_create(&t, 0, signaller, 0);
  pthread_mutex_lock(&m);
  if (!ready)
    assert(pthread_cond_wait(&c, &m) == 0);
  assert(pthread_mutex_lock(&m) == EDEADLK);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
