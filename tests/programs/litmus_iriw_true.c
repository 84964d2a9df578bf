// expect: TRUE unwind: 2
// IRIW: two independent writers (x = 1 and y = 1) and two readers reading them in opposite
// orders. Under SC all threads agree on one order of the two writes, so the readers cannot
// disagree (reader 1 sees x before y: a=1,b=0; reader 2 sees y before x: c=1,d=0).
#include <pthread.h>
#include <assert.h>

int x = 0, y = 0;
int a, b, c, d;

void *wx(void *arg) {
  x = 1;
  return 0;
}

void *wy(void *arg) {
  y = 1;
  return 0;
}

void *rxy(void *arg) {
  a = x;
  b = y;
  return 0;
}

void *ryx(void *arg) {
  c = y;
  d = x;
  return 0;
}

int main(void) {
  pthread_t t[4];
  pthread_create(&t[0], 0, wx, 0);
  pthread_create(&t[1], 0, wy, 0);
  pthread_create(&t[2], 0, rxy, 0);
  pthread_create(&t[3], 0, ryx, 0);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  pthread_join(t[2], 0);
  pthread_join(t[3], 0);
  assert(!(a == 1 && b == 0 && c == 1 && d == 0));
  return 0;
}
