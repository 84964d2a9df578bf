// expect: TRUE unwind: 3
// Two threads each increment a shared counter twice, every increment inside
// pthread_mutex_lock/unlock of one global mutex, so no update is lost and after both joins
// counter == 4 in every interleaving. The loop runs 2 iterations (3 loop-head passes), hence
// unwind 3.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *worker(void *arg) {
  int i;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    counter = counter + 1;
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
  assert(counter == 4);
  return 0;
}
