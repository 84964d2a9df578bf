#include <pthread.h>
#include <assert.h>
extern void __yogar_sync(void);
/* Dekker-style store buffering (Abdulla et al., CAV 2016, Fig. 11 with 2 stores): each
   thread raises its flag, reads the other's, and enters when it reads 0. Both in the
   critical section is possible on POWER without barriers, impossible under SC. */
int x, y, z, in0, in1;

void *p(void *a) {
  x = 1;
  int r = y;
  if (r == 0) {
    in0 = 1;
    z = 1;
    z = 2;
  }
  return 0;
}

void *q(void *a) {
  y = 1;
  int r = x;
  if (r == 0) {
    in1 = 1;
    z = 3;
    z = 4;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p, 0);
  pthread_create(&b, 0, q, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(in0 == 1 && in1 == 1));
  return 0;
}
