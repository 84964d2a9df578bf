// expect: TRUE unwind: 2
// The two threads write different elements of a shared array (constant indices), so the
// writes never interfere: after the joins a[0] == 1, a[1] == 2, a[2] untouched.
#include <pthread.h>
#include <assert.h>

int a[3];

void *w0(void *arg) {
  a[0] = 1;
  return 0;
}

void *w1(void *arg) {
  a[1] = 2;
  return 0;
}

int main(void) {
  pthread_t t0, t1;
  pthread_create(&t0, 0, w0, 0);
  pthread_create(&t1, 0, w1, 0);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  assert(a[0] + a[1] == 3 && a[2] == 0);
  return 0;
}
