// expect: FALSE unwind: 2
// A weak compare-exchange may fail spuriously (C11 7.17.7.4) even alone: trusting one call is
// a bug.
#include <stdatomic.h>
atomic_int x;

int main(void) {
  int e = 0;
  int ok = atomic_compare_exchange_weak(&x, &e, 1);
  __CPROVER_assert(ok, "may fail spuriously");
  return 0;
}
