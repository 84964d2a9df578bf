// expect: FALSE unwind: 2
// Szymanski's protocol (see szymanski_two_true.c) with thread 1's final entry wait
// `await flag0 < 2` removed. Both raise flag = 1, both pass `flag_other < 3`, both set 3,
// neither sees the other at 1, both set 4; thread 0 enters (it has no lower-id thread to wait
// for) and thread 1 now enters too, overwriting owner before thread 0 reads it back.
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
