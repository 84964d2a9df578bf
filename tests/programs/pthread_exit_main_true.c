// expect: TRUE unwind: 2
// pthread_exit in main ends main's thread only: the created thread runs on, and main's code
// after the call never runs.
#include <pthread.h>
int x;

void *t(void *arg) {
  __CPROVER_assert(x == 5, "main stopped before writing 7");
  return 0;
}

int main(void) {
  pthread_t h;
  x = 5;
  pthread_create(&h, 0, t, 0);
  pthread_exit(0);
  x = 7;
  return 0;
}
