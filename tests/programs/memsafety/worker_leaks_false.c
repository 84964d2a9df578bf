// expect: FALSE(valid-memtrack) unwind: 2
// As worker_frees_true.c without the free: the buffer is alive and unreachable when main
// returns (memory lost).
#include <pthread.h>
#include <stdlib.h>
int result;
void *worker(void *arg) {
  int *scratch = malloc(4 * sizeof(int));
  scratch[3] = 7;
  result = scratch[3];
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
