// expect: FALSE unwind: 2
// The twin of mutex_recursive_held_true.c with the write after the second unlock, when the
// recursive mutex is free: it races with the other thread's read under the mutex.
#define _GNU_SOURCE
#include <pthread.h>

pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int g;

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  int seen = g;
  pthread_mutex_unlock(&m);
  return (void *)(long)seen;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  g = 1;
  pthread_join(t, 0);
  return 0;
}
