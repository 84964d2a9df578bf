// expect: FALSE unwind: 2
// The twin of pthread_create_null_handle_true.c: the thread may run before main reads x.
#include <pthread.h>
int x;

void *t(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_create(0, 0, t, 0);
  __CPROVER_assert(x == 0, "the thread may have written");
  return 0;
}
