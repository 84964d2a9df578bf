// expect: FALSE unwind: 2
// Paper example B2 (RVF-SMC Fig. 6), first assertion: (a, b) == (1, 0) is reachable:
// T2 reads y == 0 and writes x = 1, then T1 reads x == 1 (T3's x = 0 not in between) ->
// a == 1, b == 0. Reachable (a, b) under SC: (0,0) and (1,0) (b is always 0: y is only ever 0).
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;
int a, b;

void *T1(void *p) {
  a = x;
  y = 0;
  return 0;
}

void *T2(void *p) {
  b = y;
  x = 1;
  return 0;
}

void *T3(void *p) {
  x = 0;
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
  assert(!(a == 1 && b == 0));
  return 0;
}
