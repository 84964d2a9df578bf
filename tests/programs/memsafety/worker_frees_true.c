// expect: TRUE unwind: 2
// A worker allocates a scratch buffer, uses it and frees it; main joins. Twin:
// worker_leaks_false.c (the free removed).
#include <pthread.h>
#include <stdlib.h>
int result;
void *worker(void *arg) {
  int *scratch = malloc(4 * sizeof(int));
  scratch[3] = 7;
  result = scratch[3];
  free(scratch);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
