// expect: FALSE unwind: 2
// The twin of gcc_sync_builtins_true.c: a single compare-and-swap without a retry loses an
// increment when the other thread got in between.
#include <pthread.h>
int cas;

void *t(void *arg) {
  int v = cas;
  __sync_bool_compare_and_swap(&cas, v, v + 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(cas == 2, "a swap may fail");
  return 0;
}
