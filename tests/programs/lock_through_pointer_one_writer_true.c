// expect: TRUE unwind: 2
// Twin of lock_through_pointer_one_writer_false.c: main holds both mutexes, so the locker
// waits whatever idx it reads, and flag stays 0.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t ms[2];
int idx;
int flag;

void *writer(void *arg) {
  idx = 1;
  return 0;
}

void *locker(void *arg) {
  pthread_mutex_lock(&ms[idx]);
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t a, c;
  pthread_mutex_init(&ms[0], 0);
  pthread_mutex_init(&ms[1], 0);
  pthread_mutex_lock(&ms[0]);
  pthread_mutex_lock(&ms[1]);
  pthread_create(&a, 0, writer, 0);
  pthread_create(&c, 0, locker, 0);
  if (flag)
    reach_error();
  return 0;
}
