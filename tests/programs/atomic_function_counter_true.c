// expect: TRUE unwind: 3
// Increments go through a function named __VERIFIER_atomic_inc, whose whole body runs
// atomically (SV-COMP convention). Two threads call it twice each, so no update is lost and
// counter == 4 after both joins. Loop: 2 iterations, unwind 3.
#include <pthread.h>

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "atomic_function_counter_true.c", 9, "reach_error"); }

int counter = 0;

void __VERIFIER_atomic_inc(void) {
  int tmp = counter;
  counter = tmp + 1;
}

void *worker(void *arg) {
  int i;
  for (i = 0; i < 2; i++)
    __VERIFIER_atomic_inc();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter != 4) {
    reach_error();
    abort();
  }
  return 0;
}
