// expect: FALSE unwind: 2
// Broken Dekker-style entry: each thread waits for the other's flag to be down BEFORE raising
// its own. Both can pass the check (both flags still 0), then both raise their flags and
// enter: D0 reads flag1 == 0, D1 reads flag0 == 0, both enter, D1 overwrites owner before D0
// reads it back.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int flag0 = 0, flag1 = 0;
int owner = -1;

void *d0(void *arg) {
  __VERIFIER_assume(flag1 == 0);
  flag0 = 1;
  owner = 0;
  assert(owner == 0);
  flag0 = 0;
  return 0;
}

void *d1(void *arg) {
  __VERIFIER_assume(flag0 == 0);
  flag1 = 1;
  owner = 1;
  assert(owner == 1);
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
