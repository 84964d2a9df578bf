// expect: TRUE unwind: 2
// A mutex initialised with attributes whose type is set to PTHREAD_MUTEX_NORMAL (and one with
// PTHREAD_MUTEX_DEFAULT): an ordinary mutex, so the two increments cannot interleave. The
// twin, pthread_mutexattr_normal_false.c, locks only in one thread.
#include <pthread.h>
int count;
pthread_mutex_t m;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int c = count;
  count = c + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_DEFAULT);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
  pthread_mutex_init(&m, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(count == 2, "no increment lost");
  return 0;
}
