// expect: TRUE unwind: 2
// Twin of short_circuit_check_then_act_false.c where the whole check-then-act is a
// __VERIFIER_atomic_ function: the test and the decrement cannot be separated, so at most one
// buyer gets the single ticket and tickets never drops below 0.
#include <pthread.h>

extern void abort(void);
void reach_error() {}

int tickets = 1;
int sold = 0;

int take(void) {
  tickets--;
  return 1;
}

void __VERIFIER_atomic_buy(void) {
  if (tickets > 0 && take())
    sold = sold + 1;
}

void *buyer(void *arg) {
  __VERIFIER_atomic_buy();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, buyer, 0);
  pthread_create(&t2, 0, buyer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (!(tickets == 0 && sold == 1)) {
    reach_error();
    abort();
  }
  return 0;
}
