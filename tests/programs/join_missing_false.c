// expect: FALSE unwind: 2
// Twin of join_result_true.c without the join: main may read `result` before the thread has
// written it (main runs first after pthread_create), seeing 0.
#include <pthread.h>
#include <assert.h>

int result = 0;

void *compute(void *arg) {
  int a = 6, b = 7;
  result = a * b;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, compute, 0);
  assert(result == 42);
  return 0;
}
