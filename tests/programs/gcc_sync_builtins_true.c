// expect: TRUE unwind: 2
// GCC's __sync builtins: a test-and-set lock (taken when it reads 0: the executions of a spin
// loop that end), fetch-and-add, compare-and-swap.
#include <pthread.h>
int lock;
int counter;
int plain;
int cas;

void *t(void *arg) {
  __CPROVER_assume(__sync_lock_test_and_set(&lock, 1) == 0);
  plain = plain + 1;
  __sync_lock_release(&lock);
  __sync_fetch_and_add(&counter, 3);
  __sync_sub_and_fetch(&counter, 1);
  int v = cas;
  __CPROVER_assume(__sync_bool_compare_and_swap(&cas, v, v + 1));
  __sync_synchronize();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(plain == 2 && counter == 4 && cas == 2, "all atomic");
  __CPROVER_assert(__sync_val_compare_and_swap(&cas, 5, 9) == 2 && cas == 2, "no swap");
  return 0;
}
