// expect: FALSE unwind: 2
// Two threads write different members of the same union; they alias the same storage, so a
// write through v.u overwrites v.i: if T2 runs after T1, v.i reads back 7, not 5.
#include <pthread.h>
#include <assert.h>

union word {
  int i;
  unsigned int u;
};

union word v;

void *t1(void *arg) {
  v.i = 5;
  return 0;
}

void *t2(void *arg) {
  v.u = 7u;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(v.i == 5);
  return 0;
}
