// expect: TRUE
// Four identical workers, created in a loop into one handle nobody reads, enter a region at
// most two at a time, forever: a counter under a mutex admits a worker only while fewer than
// two are inside. Thread numbers are unobservable, so the search stores states up to a
// permutation of the workers (symmetry reduction).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int inside = 0;

void *worker(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (inside < 2) {
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
