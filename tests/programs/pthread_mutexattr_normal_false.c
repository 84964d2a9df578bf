// expect: FALSE unwind: 2
// The twin of pthread_mutexattr_normal_true.c where main's own increment does not lock: it
// races with the worker's, and one may be lost.
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
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
  pthread_mutex_init(&m, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t a;
  pthread_create(&a, 0, worker, 0);
  int c = count;
  count = c + 1;
  pthread_join(a, 0);
  __CPROVER_assert(count == 2, "no increment lost");
  return 0;
}
