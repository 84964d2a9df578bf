// expect: TRUE unwind: 2
// The twin of malloc_pointer_false.c with both accesses under one mutex.
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *work(void *arg) {
  int *p = arg;
  pthread_mutex_lock(&m);
  *p = 3;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int *cell = malloc(sizeof(int));
  if (!cell) return 0;
  *cell = 0;
  pthread_t t;
  pthread_create(&t, 0, work, cell);
  pthread_mutex_lock(&m);
  int v = *cell;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return v;
}
