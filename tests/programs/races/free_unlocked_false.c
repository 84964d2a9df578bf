// expect: FALSE unwind: 2
// As free_locked_true.c, but the worker frees the buffer before taking the lock: the free (a
// write of the whole object) and main's read are not ordered.
#include <pthread.h>
#include <stdlib.h>
int *buf;
int freed;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  free(buf);
  pthread_mutex_lock(&m);
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
