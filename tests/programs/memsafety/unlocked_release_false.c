// expect: FALSE(valid-deref) unwind: 2
// As locked_release_true.c, but main frees and unpublishes without the lock: the reader can
// see the pointer still published after the free (use after free).
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
  free(shared);
  shared = 0;
  pthread_join(t, 0);
  return 0;
}
