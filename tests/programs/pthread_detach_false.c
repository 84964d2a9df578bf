// expect: FALSE unwind: 2
// The twin of pthread_detach_true.c without its mutex: the detached workers increments race,
// so one may be lost and the counter end at 1 once both have run.
#include <pthread.h>
int count;
int done;

void *worker(void *arg) {
  pthread_detach(pthread_self());
  int c = count;
  count = c + 1;
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
  pthread_create(&a, &attr, worker, 0);
  pthread_attr_destroy(&attr);
  pthread_create(&b, 0, worker, 0);
  __CPROVER_assume(done == 2);
  __CPROVER_assert(count == 2, "no increment lost");
  return 0;
}
