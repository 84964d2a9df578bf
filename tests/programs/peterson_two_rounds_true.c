// expect: TRUE unwind: 3
// Peterson's mutual exclusion for two threads, each entering the critical section twice.
// The busy-wait `while (flag[other] && turn == other);` is written as one check under
// __VERIFIER_assume (blocking until the check passes); only the final, successful check of a
// spin loop matters, so this has the same behaviours. Under sequential consistency no two
// threads are in the critical section at once: the owner a thread writes there is still its
// own when it reads it back. Loop: 2 rounds, unwind 3.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int flag0 = 0, flag1 = 0;
int turn = 0;
int owner = -1;

void *p0(void *arg) {
  int r;
  for (r = 0; r < 2; r++) {
    flag0 = 1;
    turn = 1;
    __VERIFIER_assume(!(flag1 == 1 && turn == 1));
    owner = 0;
    assert(owner == 0);
    flag0 = 0;
  }
  return 0;
}

void *p1(void *arg) {
  int r;
  for (r = 0; r < 2; r++) {
    flag1 = 1;
    turn = 0;
    __VERIFIER_assume(!(flag0 == 1 && turn == 0));
    owner = 1;
    assert(owner == 1);
    flag1 = 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p0, 0);
  pthread_create(&b, 0, p1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
