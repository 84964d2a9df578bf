// expect: FALSE(valid-memtrack) unwind: 2
// default engine: UNKNOWN (reachability is not decided)
// As global_kept_true.c, but main overwrites the global after the join: the worker's object is
// lost when main returns.
#include <pthread.h>
#include <stdlib.h>
int *cache;
int other;
void *worker(void *arg) {
  cache = malloc(sizeof(int));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  cache = &other;
  return 0;
}
