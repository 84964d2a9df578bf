// expect: TRUE unwind: 3
// Two threads each run a 2x2 nested loop; each inner iteration increments the shared total
// under the mutex, so no increment is lost: total == 8. Loops: 2 iterations each, unwind 3.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total = 0;

void *worker(void *arg) {
  int i, j;
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2; j++) {
      pthread_mutex_lock(&m);
      total = total + 1;
      pthread_mutex_unlock(&m);
    }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(total == 8);
  return 0;
}
