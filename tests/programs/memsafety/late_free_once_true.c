// expect: TRUE unwind: 2
// A worker allocates into a global; main joins, writes through it and frees it. (The object
// is made by a thread symbolic execution runs after main: main's checks are decided once every
// thread has run.) Twins: late_double_free_false.c (the free doubled),
// late_freed_by_worker_false.c (the free moved into the worker).
#include <pthread.h>
#include <stdlib.h>
int *g;
void *worker(void *arg) {
  g = malloc(sizeof(int));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  *g = 1;
  free(g);
  return 0;
}
