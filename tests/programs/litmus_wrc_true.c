// expect: TRUE unwind: 2
// WRC (write-to-read causality), three threads: T1 writes x = 1; T2 reads x and, if it saw
// 1, writes y = 1; T3 reads y then x. Under SC, T3 seeing y == 1 implies x = 1 came earlier,
// so r3 == 0 together with r1 == 1 && r2 == 1 is impossible.
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;
int r1 = -1, r2 = -1, r3 = -1;

void *t1(void *arg) {
  x = 1;
  return 0;
}

void *t2(void *arg) {
  r1 = x;
  if (r1 == 1)
    y = 1;
  return 0;
}

void *t3(void *arg) {
  r2 = y;
  r3 = x;
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_create(&c, 0, t3, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  assert(!(r1 == 1 && r2 == 1 && r3 == 0));
  return 0;
}
