// expect: TRUE unwind: 2
// The thread writes `result` and main reads it only after pthread_join, which orders the
// whole thread before the read: main always sees 42.
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
  pthread_join(t, 0);
  assert(result == 42);
  return 0;
}
