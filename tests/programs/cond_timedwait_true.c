// expect: TRUE unwind: 2
// The twin of cond_timedwait_false.c: a timed wait returns 0 or ETIMEDOUT, and once the
// setter is joined the flag is set.
#include <pthread.h>
#include <time.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int flag;

void *setter(void *arg) {
  pthread_mutex_lock(&m);
  flag = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  struct timespec ts = {1, 0};
  pthread_create(&t, 0, setter, 0);
  pthread_mutex_lock(&m);
  int r = 0;
  if (!flag)
    r = pthread_cond_timedwait(&cv, &m, &ts);
  __CPROVER_assert(r == 0 || r == 110, "0 or ETIMEDOUT");
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  __CPROVER_assert(flag == 1, "set once joined");
  return 0;
}
