// expect: TRUE unwind: 2
// The twin of lock_through_pointer_false.c in which both writers point mp at m1, which main
// holds for good: the locker waits in every run, so flag stays 0.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t *mp = &m1;
int flag = 0;

void *also_to_m1(void *arg) {
  mp = &m1;
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
  pthread_create(&a, 0, also_to_m1, 0);
  pthread_create(&b, 0, to_m1, 0);
  pthread_create(&c, 0, locker, 0);
  pthread_join(c, 0);
  if (flag)
    reach_error();
  return 0;
}
