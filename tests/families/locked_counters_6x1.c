// Prover family (yogar-bench section `prove`): 6 distinct thread template(s), each with
// 1 counter(s) of its own, updated in an atomic section, looping forever: a counter wraps from 10 to 0,
// and each thread asserts its counters stay in 0..10. No bound closes the loops; the
// thread-modular prover proves it for every number of iterations. Generated: N templates
// (thread count axis) and S counters per template (program size axis).
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int c0_0 = 0;
int c1_0 = 0;
int c2_0 = 0;
int c3_0 = 0;
int c4_0 = 0;
int c5_0 = 0;

void *worker0(void *arg) {
  while (1) {
    __VERIFIER_atomic_begin();
    if (c0_0 < 10)
      c0_0 = c0_0 + 1;
    if (c0_0 > 10)
      c0_0 = 0;
    assert(c0_0 >= 0 && c0_0 <= 10);
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *worker1(void *arg) {
  while (1) {
    __VERIFIER_atomic_begin();
    if (c1_0 < 10)
      c1_0 = c1_0 + 2;
    if (c1_0 > 10)
      c1_0 = 0;
    assert(c1_0 >= 0 && c1_0 <= 10);
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *worker2(void *arg) {
  while (1) {
    __VERIFIER_atomic_begin();
    if (c2_0 < 10)
      c2_0 = c2_0 + 3;
    if (c2_0 > 10)
      c2_0 = 0;
    assert(c2_0 >= 0 && c2_0 <= 10);
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *worker3(void *arg) {
  while (1) {
    __VERIFIER_atomic_begin();
    if (c3_0 < 10)
      c3_0 = c3_0 + 4;
    if (c3_0 > 10)
      c3_0 = 0;
    assert(c3_0 >= 0 && c3_0 <= 10);
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *worker4(void *arg) {
  while (1) {
    __VERIFIER_atomic_begin();
    if (c4_0 < 10)
      c4_0 = c4_0 + 5;
    if (c4_0 > 10)
      c4_0 = 0;
    assert(c4_0 >= 0 && c4_0 <= 10);
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *worker5(void *arg) {
  while (1) {
    __VERIFIER_atomic_begin();
    if (c5_0 < 10)
      c5_0 = c5_0 + 6;
    if (c5_0 > 10)
      c5_0 = 0;
    assert(c5_0 >= 0 && c5_0 <= 10);
    __VERIFIER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker0, 0);
  pthread_create(&t, 0, worker1, 0);
  pthread_create(&t, 0, worker2, 0);
  pthread_create(&t, 0, worker3, 0);
  pthread_create(&t, 0, worker4, 0);
  pthread_create(&t, 0, worker5, 0);
  return 0;
}
