// expect: FALSE unwind: 2
// An error-checking mutex: relocking by its owner returns EDEADLK (a normal mutex would block,
// and nothing after it would be reachable).
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;
int other_unlock;

void *other(void *arg) {
  other_unlock = pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  int r = pthread_mutex_lock(&m);
  assert(r != EDEADLK);
  assert(pthread_mutex_trylock(&m) == EBUSY);
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  pthread_join(t, 0);
  assert(other_unlock == EPERM);
  assert(pthread_mutex_unlock(&m) == 0);
  assert(pthread_mutex_unlock(&m) == EPERM);
  return 0;
}
