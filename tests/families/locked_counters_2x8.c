// Prover family (yogar-bench section `prove`): 2 distinct thread template(s), each with
// 8 counter(s) of its own, updated in an atomic section, looping forever: a counter wraps from 10 to 0,
// and each thread asserts its counters stay in 0..10. No bound closes the loops; the
// thread-modular prover proves it for every number of iterations. Generated: N templates
// (thread count axis) and S counters per template (program size axis).
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int c0_0 = 0;
int c0_1 = 0;
int c0_2 = 0;
int c0_3 = 0;
int c0_4 = 0;
int c0_5 = 0;
int c0_6 = 0;
int c0_7 = 0;
int c1_0 = 0;
int c1_1 = 0;
int c1_2 = 0;
int c1_3 = 0;
int c1_4 = 0;
int c1_5 = 0;
int c1_6 = 0;
int c1_7 = 0;

void *worker0(void *arg) {
  while (1) {
    __VERIFIER_atomic_begin();
    if (c0_0 < 10)
      c0_0 = c0_0 + 1;
    if (c0_0 > 10)
      c0_0 = 0;
    assert(c0_0 >= 0 && c0_0 <= 10);
    if (c0_1 < 10)
      c0_1 = c0_1 + 1;
    if (c0_1 > 10)
      c0_1 = 0;
    assert(c0_1 >= 0 && c0_1 <= 10);
    if (c0_2 < 10)
      c0_2 = c0_2 + 1;
    if (c0_2 > 10)
      c0_2 = 0;
    assert(c0_2 >= 0 && c0_2 <= 10);
    if (c0_3 < 10)
      c0_3 = c0_3 + 1;
    if (c0_3 > 10)
      c0_3 = 0;
    assert(c0_3 >= 0 && c0_3 <= 10);
    if (c0_4 < 10)
      c0_4 = c0_4 + 1;
    if (c0_4 > 10)
      c0_4 = 0;
    assert(c0_4 >= 0 && c0_4 <= 10);
    if (c0_5 < 10)
      c0_5 = c0_5 + 1;
    if (c0_5 > 10)
      c0_5 = 0;
    assert(c0_5 >= 0 && c0_5 <= 10);
    if (c0_6 < 10)
      c0_6 = c0_6 + 1;
    if (c0_6 > 10)
      c0_6 = 0;
    assert(c0_6 >= 0 && c0_6 <= 10);
    if (c0_7 < 10)
      c0_7 = c0_7 + 1;
    if (c0_7 > 10)
      c0_7 = 0;
    assert(c0_7 >= 0 && c0_7 <= 10);
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
    if (c1_1 < 10)
      c1_1 = c1_1 + 2;
    if (c1_1 > 10)
      c1_1 = 0;
    assert(c1_1 >= 0 && c1_1 <= 10);
    if (c1_2 < 10)
      c1_2 = c1_2 + 2;
    if (c1_2 > 10)
      c1_2 = 0;
    assert(c1_2 >= 0 && c1_2 <= 10);
    if (c1_3 < 10)
      c1_3 = c1_3 + 2;
    if (c1_3 > 10)
      c1_3 = 0;
    assert(c1_3 >= 0 && c1_3 <= 10);
    if (c1_4 < 10)
      c1_4 = c1_4 + 2;
    if (c1_4 > 10)
      c1_4 = 0;
    assert(c1_4 >= 0 && c1_4 <= 10);
    if (c1_5 < 10)
      c1_5 = c1_5 + 2;
    if (c1_5 > 10)
      c1_5 = 0;
    assert(c1_5 >= 0 && c1_5 <= 10);
    if (c1_6 < 10)
      c1_6 = c1_6 + 2;
    if (c1_6 > 10)
      c1_6 = 0;
    assert(c1_6 >= 0 && c1_6 <= 10);
    if (c1_7 < 10)
      c1_7 = c1_7 + 2;
    if (c1_7 > 10)
      c1_7 = 0;
    assert(c1_7 >= 0 && c1_7 <= 10);
    __VERIFIER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker0, 0);
  pthread_create(&t, 0, worker1, 0);
  return 0;
}
