// expect: TRUE unwind: 2
// As free_unlocked_false.c, but the worker frees the buffer under the lock (and says so), and
// main reads it under the lock only while it is not freed: the free and the read are ordered.
#include <pthread.h>
#include <stdlib.h>
int *buf;
int freed;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  free(buf);
  freed = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  int x = 0;
  buf = malloc(sizeof(int));
  *buf = 1;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  if (!freed)
    x = *buf;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return x;
}
