// expect: FALSE unwind: 2
// Twin of symmetry_same_body_true.c: two entry functions with the same text whose behaviour
// still depends on their names, through `__func__` (a string of each function's own). They
// are no twins. Error: the thread created second (claim_b) records its name first, and the
// observer reads its last letter 'b'. Taking the two as twins would order claim_a's claim
// first and lose the error.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

const char *winner;

void *claim_a(void *arg) {
  __VERIFIER_atomic_begin();
  if (winner == 0)
    winner = __func__;
  __VERIFIER_atomic_end();
  return 0;
}

void *claim_b(void *arg) {
  __VERIFIER_atomic_begin();
  if (winner == 0)
    winner = __func__;
  __VERIFIER_atomic_end();
  return 0;
}

void *observer(void *arg) {
  const char *w = winner;
  if (w != 0 && w[6] == 'b') {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, claim_a, 0);
  pthread_create(&b, 0, claim_b, 0);
  pthread_create(&c, 0, observer, 0);
  return 0;
}
