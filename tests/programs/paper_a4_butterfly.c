// expect: TRUE unwind: 2
// Paper example A4 (butterfly-like event-order graph): four threads on x, y, n. Every read
// in the asserted combination reads a write of another thread (r0: P2's y=1, r1: P0's n=1,
// r2: P3's y=2, r3: P3's n=2, r4: P0's x=1, r5: P1's x=2), and no total order fits.
// Case y=1 before y=2: r0 == 1 puts all of P0 before y=2, so n=1 precedes n=2 and x=1
// precedes P3's x-read; r5 == 2 then forces x=1 before x=2, and r4 == 1 forces P2's x-read
// before x=2; so P2's n-read < x=2 < P1's n-read, and r1 == 1 puts P1's n-read before n=2:
// P2's n-read precedes n=2 and cannot return 2 (r3). Case y=2 before y=1: r2 == 2 puts all
// of P1 before y=1, so x=2 precedes P2's x-read and r4 == 1 forces x=2 before x=1, which is
// the mirror image of the first case (swap x/y, values 1/2, P0<->P3, P1<->P2).
// So the assertion holds under SC (also confirmed by exhaustive enumeration).
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0, n = 0;
int r0, r1, r2, r3, r4, r5;

void *P0(void *arg) {
  x = 1;
  n = 1;
  r0 = y;
  return 0;
}

void *P1(void *arg) {
  x = 2;
  r1 = n;
  r2 = y;
  return 0;
}

void *P2(void *arg) {
  y = 1;
  r3 = n;
  r4 = x;
  return 0;
}

void *P3(void *arg) {
  y = 2;
  n = 2;
  r5 = x;
  return 0;
}

int main(void) {
  pthread_t t[4];
  pthread_create(&t[0], 0, P0, 0);
  pthread_create(&t[1], 0, P1, 0);
  pthread_create(&t[2], 0, P2, 0);
  pthread_create(&t[3], 0, P3, 0);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  pthread_join(t[2], 0);
  pthread_join(t[3], 0);
  assert(!(r0 == 1 && r1 == 1 && r2 == 2 && r3 == 2 && r4 == 1 && r5 == 2));
  return 0;
}
