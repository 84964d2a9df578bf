// expect: TRUE unwind: 2
// A recursive mutex locked twice is released by the second unlock only: the other thread, which
// takes it, never sees the value written between the two unlocks.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m;
int g;

void *owner(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  g = 1;
  pthread_mutex_unlock(&m);
  g = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

void *other(void *arg) {
  pthread_mutex_lock(&m);
  assert(g != 1);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_t t1, t2;
  pthread_create(&t1, 0, owner, 0);
  pthread_create(&t2, 0, other, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
