// expect: TRUE unwind: 2
// A worker publishes the address of a static variable; main reads it after the join. Twin:
// dangling_result_false.c (an automatic variable: dead once the worker returns).
#include <pthread.h>
int *out;
void *worker(void *arg) {
  static int value;
  value = 4;
  out = &value;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return *out;
}
