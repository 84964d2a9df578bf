// expect: FALSE unwind: 4
// Each of two threads runs a recursive function of depth 2 that increments a shared counter
// (non-atomically) once per level. Sequentially the total is 4, but increments can be lost:
// e.g. T1 reads 0, T2 does both its increments (2), T1 writes 1 and then 2. Recursion depth
// 3 calls (levels 2, 1, 0), unwind 4.
#include <pthread.h>
#include <assert.h>

int counter = 0;

void bump_levels(int level) {
  if (level == 0)
    return;
  counter = counter + 1;
  bump_levels(level - 1);
}

void *worker(void *arg) {
  bump_levels(2);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 4);
  return 0;
}
