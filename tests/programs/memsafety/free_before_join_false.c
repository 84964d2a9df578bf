// expect: FALSE(valid-deref) unwind: 2
// main frees the buffer a worker writes before joining it: the worker's write may come
// after the free (use after free). Twin: free_after_join_true.c (the join moved up).
#include <pthread.h>
#include <stdlib.h>
int *buf;
void *worker(void *arg) {
  buf[0] = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  buf = malloc(2 * sizeof(int));
  pthread_create(&t, 0, worker, 0);
  free(buf);
  pthread_join(t, 0);
  return 0;
}
