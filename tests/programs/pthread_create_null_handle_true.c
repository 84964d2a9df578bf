// expect: TRUE unwind: 2
// `pthread_create` with a null `pthread_t *`: the thread runs; only its id is not stored.
#include <pthread.h>
int x;

void *t(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_create(0, 0, t, 0);
  int seen = x;
  __CPROVER_assert(seen == 0 || seen == 1, "0 before the thread's write, 1 after");
  return 0;
}
