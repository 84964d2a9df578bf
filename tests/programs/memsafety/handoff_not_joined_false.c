// expect: FALSE(valid-memtrack) unwind: 2
// As handoff_joined_true.c without the join: main can return (the end of the program) before
// the worker frees the buffer, which no global reaches then (memory lost).
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
  return 0;
}
