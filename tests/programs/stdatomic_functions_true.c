// expect: TRUE unwind: 2
// <stdatomic.h>: fetch-add, exchange, compare-exchange (strong, and weak where it succeeds),
// explicit memory orders (accepted, and SC), a flag lock (taken when test-and-set reads it
// clear: the executions of a spin loop that end), load and store.
#include <pthread.h>
#include <stdatomic.h>
atomic_int counter;
atomic_int cas_counter;
atomic_flag lock = ATOMIC_FLAG_INIT;
int plain;
atomic_int owner;

void *t(void *arg) {
  atomic_fetch_add(&counter, 1);
  atomic_fetch_sub_explicit(&counter, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&counter, 2, memory_order_acq_rel);
  int old = atomic_load(&cas_counter);
  __CPROVER_assume(atomic_compare_exchange_weak(&cas_counter, &old, old + 1));
  __CPROVER_assume(!atomic_flag_test_and_set(&lock));
  plain = plain + 1;
  atomic_flag_clear(&lock);
  int prev = atomic_exchange(&owner, (int)(long)arg);
  __CPROVER_assert(prev == 0 || prev == 1 || prev == 2, "exchange gives a stored value");
  return 0;
}

int main(void) {
  pthread_t a, b;
  atomic_init(&owner, 0);
  pthread_create(&a, 0, t, (void *)1);
  pthread_create(&b, 0, t, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(atomic_load_explicit(&counter, memory_order_acquire) == 4, "fetch ops");
  __CPROVER_assert(cas_counter == 2, "CAS loop");
  __CPROVER_assert(plain == 2, "flag lock");
  int e = 2;
  __CPROVER_assert(!atomic_compare_exchange_strong(&counter, &e, 7) && e == 4, "fails, reads 4");
  atomic_store(&counter, 0);
  __CPROVER_assert(counter == 0, "store");
  return 0;
}
