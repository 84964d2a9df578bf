// expect: FALSE unwind: 2
// Broken Peterson: each thread sets `turn` BEFORE raising its flag. Schedule: P0 sets
// turn = 1; P1 sets turn = 0, flag1 = 1, sees flag0 == 0 and enters; P0 sets flag0 = 1, sees
// turn == 0 (not 1) and enters too; P1 then reads owner == 0 and fails.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int flag0 = 0, flag1 = 0;
int turn = 0;
int owner = -1;

void *p0(void *arg) {
  turn = 1;
  flag0 = 1;
  __VERIFIER_assume(!(flag1 == 1 && turn == 1));
  owner = 0;
  assert(owner == 0);
  flag0 = 0;
  return 0;
}

void *p1(void *arg) {
  turn = 0;
  flag1 = 1;
  __VERIFIER_assume(!(flag0 == 1 && turn == 0));
  owner = 1;
  assert(owner == 1);
  flag1 = 0;
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
