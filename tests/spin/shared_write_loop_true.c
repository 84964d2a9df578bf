// expect: TRUE unwind: 3 spin: no
// Twin of shared_write_loop_false.c with the loop bounded by the counter itself: at most two
// iterations, each writing `seen`, so the value after the join is at most 2. Every iteration
// writes, so nothing is cut; the bound proves it.
#include <pthread.h>
#include <assert.h>

int go = 0;
int seen = 0;

void *waiter(void *arg) {
  while (go == 0 && seen < 2)
    seen = seen + 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  go = 1;
  pthread_join(t, 0);
  assert(seen <= 2);
  return 0;
}
