// expect: FALSE(valid-free) unwind: 2
// As late_free_once_true.c, but main frees the worker's object twice.
#include <pthread.h>
#include <stdlib.h>
int *g;
void *worker(void *arg) {
  g = malloc(sizeof(int));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  *g = 1;
  free(g);
  free(g);
  return 0;
}
