// expect: FALSE(valid-deref) unwind: 2
// As static_result_true.c, but the published variable is automatic: main reads it after the
// worker returned (a dangling pointer).
#include <pthread.h>
int *out;
void *worker(void *arg) {
  int value;
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
