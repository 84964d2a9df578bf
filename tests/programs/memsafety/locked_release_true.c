// expect: TRUE unwind: 2
// A reader uses the shared object only while it is published, under the lock; main
// unpublishes and frees it under the same lock. Twin: unlocked_release_false.c.
#include <pthread.h>
#include <stdlib.h>
int *shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (shared != 0)
    *shared = 2;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  shared = malloc(sizeof(int));
  pthread_create(&t, 0, reader, 0);
  pthread_mutex_lock(&m);
  free(shared);
  shared = 0;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
