// expect: FALSE unwind: 3
// Same shape as counter_lost_update_range_true.c, but the assertion claims at most one update
// is lost. Schedule reaching 2: T1 reads 0; T2 runs both iterations (counter = 2); T1 writes
// its stale 1, then reads 1 and writes 2 -> final 2, i.e. T1.r(0), T2.r(0) T2.w(1) T2.r(1)
// T2.w(2), T1.w(1), T1.r(1), T1.w(2). Loop: 2 iterations, unwind 3.
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
  assert(counter >= 3);
  return 0;
}
