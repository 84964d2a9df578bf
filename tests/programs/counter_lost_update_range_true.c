// expect: TRUE unwind: 3
// Two threads each do two unprotected increments (read into a local, write back). Updates
// can be lost, but the final value is always in [2, 4]: it is the last write, which is some
// thread's SECOND write tmp + 1, where tmp was read after that thread's own first write;
// every write is >= 1, so tmp >= 1 and the final value is >= 2. At most 4 increments happen.
// Loop: 2 iterations, unwind 3.
#include <pthread.h>
#include <assert.h>

int counter = 0;

void *worker(void *arg) {
  int i, tmp;
  for (i = 0; i < 2; i++) {
    tmp = counter;
    counter = tmp + 1;
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter >= 2 && counter <= 4);
  return 0;
}
