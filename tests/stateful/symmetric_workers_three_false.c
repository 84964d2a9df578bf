// expect: FALSE
// The twin of symmetric_workers_true.c admitting a third worker: three can be inside.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int inside = 0;

void *worker(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (inside < 3) {
      inside = inside + 1;
      pthread_mutex_unlock(&m);
      assert(inside <= 2);
      pthread_mutex_lock(&m);
      inside = inside - 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 4; i++)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
