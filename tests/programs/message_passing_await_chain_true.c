// expect: TRUE unwind: 2
// A three-thread relay: A writes the payload then sets f1; B awaits f1 (assume-check,
// i.e. blocking), copies the payload into a second buffer, then sets f2; C awaits f2 and
// checks the copy. SC makes each flag publish everything written before it, so C sees 7.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int payload = 0, copy = 0;
int f1 = 0, f2 = 0;

void *a(void *arg) {
  payload = 7;
  f1 = 1;
  return 0;
}

void *b(void *arg) {
  __VERIFIER_assume(f1 == 1);
  copy = payload;
  f2 = 1;
  return 0;
}

void *c(void *arg) {
  __VERIFIER_assume(f2 == 1);
  assert(copy == 7);
  return 0;
}

int main(void) {
  pthread_t ta, tb, tc;
  pthread_create(&tc, 0, c, 0);
  pthread_create(&tb, 0, b, 0);
  pthread_create(&ta, 0, a, 0);
  pthread_join(ta, 0);
  pthread_join(tb, 0);
  pthread_join(tc, 0);
  return 0;
}
