// expect: TRUE unwind: 2
// main hands a buffer to a worker as its argument; the worker frees it and main joins before
// returning. Twin: handoff_not_joined_false.c (the join removed).
#include <pthread.h>
#include <stdlib.h>
void *consumer(void *arg) {
  int *p = arg;
  *p = 3;
  free(p);
  return 0;
}
int main(void) {
  pthread_t t;
  int *p = malloc(sizeof(int));
  pthread_create(&t, 0, consumer, p);
  pthread_join(t, 0);
  return 0;
}
