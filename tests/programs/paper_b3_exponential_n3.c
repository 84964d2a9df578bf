// expect: TRUE unwind: 2
// Paper example B3 (exponential-gap family) for N = 3: each thread writes x = 1 then reads x
// into its own a_i. Every write to x after the initial one writes 1, and each thread's read
// follows its own write, so every a_i == 1.
#include <pthread.h>
#include <assert.h>

int x = 0;
int a1, a2, a3;

void *T1(void *p) {
  x = 1;
  a1 = x;
  return 0;
}

void *T2(void *p) {
  x = 1;
  a2 = x;
  return 0;
}

void *T3(void *p) {
  x = 1;
  a3 = x;
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, T1, 0);
  pthread_create(&t2, 0, T2, 0);
  pthread_create(&t3, 0, T3, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  assert(a1 == 1);
  assert(a2 == 1 && a3 == 1);
  return 0;
}
