// expect: FALSE unwind: 2
// The twin of pthread_exit_main_true.c: main writes 7 before its pthread_exit, and the thread,
// which runs on after main's end, may see it.
#include <pthread.h>
int x;

void *t(void *arg) {
  __CPROVER_assert(x == 5, "main wrote 7 first");
  return 0;
}

int main(void) {
  pthread_t h;
  x = 5;
  pthread_create(&h, 0, t, 0);
  x = 7;
  pthread_exit(0);
}
