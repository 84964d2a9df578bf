// expect: TRUE unwind: 2
// A worker that detaches itself, run twice: once created detached (the SV-COMP shape), once
// joinable. Both add to a counter under a mutex; main never joins, so detaching is a no-op.
// Once both have run, no increment is lost (the twin, pthread_detach_false.c, drops the mutex).
#include <pthread.h>
int count;
int done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_detach(pthread_self());
  pthread_mutex_lock(&m);
  int c = count;
  count = c + 1;
  pthread_mutex_unlock(&m);
  __CPROVER_atomic_begin();
  done = done + 1;
  __CPROVER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 1 << 16);
  pthread_create(&a, &attr, worker, 0);
  pthread_attr_destroy(&attr);
  pthread_create(&b, 0, worker, 0);
  __CPROVER_assume(done == 2);
  __CPROVER_assert(count == 2, "no increment lost");
  return 0;
}
