// expect: TRUE unwind: 2
// Szymanski's mutual-exclusion protocol for two threads (flag values: 1 = intends to enter,
// 2 = waiting for others, 3 = in the doorway, 4 = closed the door; 0 = idle). Awaits are
// assume-checks (blocking until they pass). Thread 1 (higher id) additionally waits in the
// entry for thread 0's flag < 2; thread 0 waits at the exit until thread 1 is not between
// the doorway states (flag1 < 2 or flag1 > 3). Under SC the two critical sections exclude
// each other: the owner written there is never overwritten before the read-back. No loops.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int flag0 = 0, flag1 = 0;
int owner = -1;

void *s0(void *arg) {
  flag0 = 1;
  __VERIFIER_assume(flag1 < 3);
  flag0 = 3;
  if (flag1 == 1) {
    flag0 = 2;
    __VERIFIER_assume(flag1 == 4);
  }
  flag0 = 4;
  owner = 0;
  assert(owner == 0);
  __VERIFIER_assume(flag1 < 2 || flag1 > 3);
  flag0 = 0;
  return 0;
}

void *s1(void *arg) {
  flag1 = 1;
  __VERIFIER_assume(flag0 < 3);
  flag1 = 3;
  if (flag0 == 1) {
    flag1 = 2;
    __VERIFIER_assume(flag0 == 4);
  }
  flag1 = 4;
  __VERIFIER_assume(flag0 < 2);
  owner = 1;
  assert(owner == 1);
  flag1 = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, s0, 0);
  pthread_create(&b, 0, s1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
