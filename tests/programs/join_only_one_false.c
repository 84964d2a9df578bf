// expect: FALSE unwind: 2
// main joins only t1, then checks the values written by both threads; t2 may not have run
// yet, so r2 can still be 0.
#include <pthread.h>
#include <assert.h>

int r1 = 0, r2 = 0;

void *f1(void *arg) {
  r1 = 1;
  return 0;
}

void *f2(void *arg) {
  r2 = 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, f1, 0);
  pthread_create(&t2, 0, f2, 0);
  pthread_join(t1, 0);
  assert(r1 == 1 && r2 == 1);
  return 0;
}
