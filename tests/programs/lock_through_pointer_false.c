// expect: FALSE unwind: 2
// The mutex the locker takes is named through `mp`, which two threads write. Main holds m1 for
// good; the locker passes only when it reads mp after `mp = &m2` and before `mp = &m1`, in
// the order to_m1, to_m2, locker. An explorer that decides from one run's final memory that
// the locker waits for ever (the run that ends with mp == &m1) misses that order.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t *mp = &m1;
int flag = 0;

void *to_m2(void *arg) {
  mp = &m2;
  return 0;
}

void *to_m1(void *arg) {
  mp = &m1;
  return 0;
}

void *locker(void *arg) {
  pthread_mutex_lock(mp);
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_mutex_lock(&m1);
  pthread_create(&a, 0, to_m2, 0);
  pthread_create(&b, 0, to_m1, 0);
  pthread_create(&c, 0, locker, 0);
  pthread_join(c, 0);
  if (flag)
    reach_error();
  return 0;
}
