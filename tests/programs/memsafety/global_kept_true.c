// expect: TRUE unwind: 2
// default engine: UNKNOWN (reachability is not decided)
// A worker allocates into a global that still points to it when main returns: not lost. The
// points-to analysis says a global may hold it, so the default engine does not decide
// memtrack here (UNKNOWN); dpor does. Twin: global_overwritten_false.c.
#include <pthread.h>
#include <stdlib.h>
int *cache;
void *worker(void *arg) {
  cache = malloc(sizeof(int));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
