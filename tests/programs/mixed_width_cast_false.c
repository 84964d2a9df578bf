// expect: FALSE unwind: 2
// As mixed_width_cast_true, but main reads byte 1 before the join and expects the old value:
// when the worker writes p[1] = 9 first, main reads 9 and the assertion fails.
#include <pthread.h>
#include <assert.h>

unsigned int x = 0x01020304;

void *worker(void *arg) {
  unsigned char *p = (unsigned char *)&x;
  p[1] = 9;
  return 0;
}

int main(void) {
  pthread_t t;
  unsigned char *p = (unsigned char *)&x;
  pthread_create(&t, 0, worker, 0);
  assert(p[1] == 3);
  pthread_join(t, 0);
  assert(x == 0x01020904);
  return 0;
}
