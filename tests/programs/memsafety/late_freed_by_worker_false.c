// expect: FALSE(valid-deref) unwind: 2
// As late_free_once_true.c, but the worker frees its object before returning: main writes
// through the dangling global (use after free).
#include <pthread.h>
#include <stdlib.h>
int *g;
void *worker(void *arg) {
  int *p = malloc(sizeof(int));
  g = p;
  free(p);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  *g = 1;
  return 0;
}
