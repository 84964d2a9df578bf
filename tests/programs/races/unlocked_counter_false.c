// expect: FALSE unwind: 2
// Two threads increment a shared counter without a lock: the read of one and the write of
// the other can be adjacent (goblint-regression shape).
#include <pthread.h>
int counter;
void *inc(void *arg) { counter = counter + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
