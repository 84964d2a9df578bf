// expect: FALSE unwind: 2
// Two threads increment a shared counter without a lock: an update can be lost, so the final
// value can be 1 and the assertion can fail.
#include <pthread.h>
#include <assert.h>

int counter = 0;

void *worker(void *arg) {
  int tmp = counter;
  counter = tmp + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  return 0;
}
