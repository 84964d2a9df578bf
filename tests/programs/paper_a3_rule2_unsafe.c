// expect: FALSE unwind: 2
// Paper example A3, first variant: T1 writes x = 1 then reads x into r; T2 writes x = 2. If
// T2's write falls between T1's write and read, r == 2 and the assertion fails.
#include <pthread.h>
#include <assert.h>

int x = 0;
int r;

void *T1(void *arg) {
  x = 1;
  r = x;
  return 0;
}

void *T2(void *arg) {
  x = 2;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, T1, 0);
  pthread_create(&b, 0, T2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(r != 2);
  return 0;
}
