// expect: FALSE(valid-free) unwind: 2
// As free_heap_true.c, but the shared pointer designates a global: no heap object.
#include <pthread.h>
#include <stdlib.h>
int g;
int *p;
void *worker(void *arg) {
  free(p);
  return 0;
}
int main(void) {
  pthread_t t;
  p = &g;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
