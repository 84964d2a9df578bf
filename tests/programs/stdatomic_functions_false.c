// expect: FALSE unwind: 2
// The twin of stdatomic_functions_true.c: a compare-exchange without a retry loop can fail
// when the other thread got in between, so one increment may be missing.
#include <pthread.h>
#include <stdatomic.h>
atomic_int cas_counter;

void *t(void *arg) {
  int old = atomic_load(&cas_counter);
  atomic_compare_exchange_strong(&cas_counter, &old, old + 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(cas_counter == 2, "a compare-exchange may fail");
  return 0;
}
