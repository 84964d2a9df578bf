// expect: TRUE unwind: 4
// Dekker's algorithm for two threads. The entry loop `while (flag[other]) { if (turn !=
// me) { back off; wait for turn; raise flag again } }` is bounded to 3 rounds; executions
// needing more rounds are cut off by assume (this only removes behaviours, it cannot hide an
// error of the bounded program). The inner wait `while (turn != me);` is one assume-check.
// Mutual exclusion holds under SC: the owner written in the critical section is never
// overwritten before the read-back. Loop: at most 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int flag0 = 0, flag1 = 0;
int turn = 0;
int owner = -1;

void *d0(void *arg) {
  int k;
  flag0 = 1;
  for (k = 0; k < 3; k++) {
    if (flag1 == 0)
      break;
    if (turn != 0) {
      flag0 = 0;
      __VERIFIER_assume(turn == 0);
      flag0 = 1;
    }
  }
  __VERIFIER_assume(k < 3);
  owner = 0;
  assert(owner == 0);
  turn = 1;
  flag0 = 0;
  return 0;
}

void *d1(void *arg) {
  int k;
  flag1 = 1;
  for (k = 0; k < 3; k++) {
    if (flag0 == 0)
      break;
    if (turn != 1) {
      flag1 = 0;
      __VERIFIER_assume(turn == 1);
      flag1 = 1;
    }
  }
  __VERIFIER_assume(k < 3);
  owner = 1;
  assert(owner == 1);
  turn = 0;
  flag1 = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, d0, 0);
  pthread_create(&b, 0, d1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
