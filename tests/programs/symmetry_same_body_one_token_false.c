// expect: FALSE unwind: 2
// Twin of symmetry_same_body_true.c: two entry functions whose bodies differ in one token
// (the value they claim `first` with) are no twins. Error: the thread created second claims
// `first` before the other, and the observer sees its value 2. Taking the two as twins would
// order the first thread's claim before the second's and lose the error.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int first;

void *claim_a(void *arg) {
  __VERIFIER_atomic_begin();
  if (first == 0)
    first = 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *claim_b(void *arg) {
  __VERIFIER_atomic_begin();
  if (first == 0)
    first = 2;
  __VERIFIER_atomic_end();
  return 0;
}

void *observer(void *arg) {
  if (first == 2) {
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
