// expect: TRUE unwind: 2
// A worker frees what the shared pointer designates: a heap object. Twin:
// free_global_false.c (the pointer designates a global).
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
  p = malloc(sizeof(int));
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
