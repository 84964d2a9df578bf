// expect: TRUE unwind: 3
// Two threads each do two unprotected increments (read into a local, write back). Updates
// can be lost, but never more than two of the four: the final value is always in [2, 4].
// (The minimum 2 needs T1's first read to be stale when T1 finishes last; a final value of 1
// would need both last writes to write 1, i.e. both last reads to see 0, which is impossible
// because each thread's second read follows its own first write of at least 1.)
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
