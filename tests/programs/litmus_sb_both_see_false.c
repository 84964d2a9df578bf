// expect: FALSE unwind: 2
// Store-buffering shape where the assertion forbids an SC-allowed outcome: with both stores
// before both loads (x = 1, y = 1, r1 = y, r2 = x) both threads read 1.
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;
int r1, r2;

void *t1(void *arg) {
  x = 1;
  r1 = y;
  return 0;
}

void *t2(void *arg) {
  y = 1;
  r2 = x;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(r1 == 1 && r2 == 1));
  return 0;
}
