// expect: TRUE unwind: 2
// main joins the worker before freeing the buffer it writes. Twin of
// free_before_join_false.c.
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
  pthread_join(t, 0);
  free(buf);
  return 0;
}
