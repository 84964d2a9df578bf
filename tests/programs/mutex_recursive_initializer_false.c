// expect: FALSE unwind: 2
// glibc's static initialiser of a recursive mutex, in a struct field, locked through a pointer
// by code that does not know its kind: after the second unlock another thread can take it.
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>

struct account {
  int balance;
  pthread_mutex_t lock;
} acc = {0, PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP};
int g;

void twice(pthread_mutex_t *m) {
  pthread_mutex_lock(m);
  pthread_mutex_lock(m);
  g = 2;
  pthread_mutex_unlock(m);
  g = 1;
  pthread_mutex_unlock(m);
}

void *owner(void *arg) {
  twice((pthread_mutex_t *)arg);
  return 0;
}

void *other(void *arg) {
  pthread_mutex_lock(&acc.lock);
  assert(g != 1);
  pthread_mutex_unlock(&acc.lock);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, owner, &acc.lock);
  pthread_create(&t2, 0, other, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
