// expect: FALSE unwind: 2
// The thread entry is chosen through a function pointer selected by a nondet input: `good`
// stores 1, `bad` stores -1. With a non-zero input the bad entry runs and the assertion
// x >= 0 fails after the join.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x = 0;

void *good(void *arg) {
  x = 1;
  return 0;
}

void *bad(void *arg) {
  x = -1;
  return 0;
}

int main(void) {
  pthread_t t;
  void *(*entry)(void *);
  entry = __VERIFIER_nondet_int() ? bad : good;
  pthread_create(&t, 0, entry, 0);
  pthread_join(t, 0);
  assert(x >= 0);
  return 0;
}
