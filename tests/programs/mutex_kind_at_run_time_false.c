// expect: FALSE unwind: 2
// The kind comes from an attribute object set up through pointers with a kind chosen at run
// time: when it is recursive, the relock returns and the assertion fails.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

extern _Bool __VERIFIER_nondet_bool(void);

pthread_mutex_t m;

int setup(pthread_mutex_t *mx, pthread_mutexattr_t *a, int kind) {
  pthread_mutexattr_init(a);
  if (pthread_mutexattr_settype(a, 7) != EINVAL)
    return 1;
  pthread_mutexattr_settype(a, kind);
  int k;
  pthread_mutexattr_gettype(a, &k);
  if (k != kind)
    return 1;
  return pthread_mutex_init(mx, a);
}

int main(void) {
  pthread_mutexattr_t a;
  int recursive = __VERIFIER_nondet_bool();
  int kind = recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL;
  assert(setup(&m, &a, kind) == 0);
  pthread_mutex_lock(&m);
  int r = pthread_mutex_lock(&m);
  assert(!recursive);
  return 0;
}
