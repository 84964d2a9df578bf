// expect: TRUE unwind: 2
// A recursive mutex locked twice is still held after one unlock: the write between the two
// unlocks and the other thread's read under the mutex never race. The model's own owner and
// count cells are no race either.
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
  g = 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
