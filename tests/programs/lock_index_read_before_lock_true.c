// expect: TRUE unwind: 2
// The twin of lock_index_read_before_lock_false.c: the locker reads idx and takes ms[idx]
// while it holds g, and main writes idx under g, so no write comes between the read and the
// lock. A locker that read 0 takes ms[0] before main can, and main then waits for ever at its
// own lock of ms[0]; a locker that read 1 leaves ms[0] free for main's trylock.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t g;
pthread_mutex_t ms[2];
int idx;

void *locker(void *arg) {
  pthread_mutex_lock(&g);
  pthread_mutex_lock(&ms[idx]);
  pthread_mutex_unlock(&g);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_init(&g, 0);
  pthread_mutex_init(&ms[0], 0);
  pthread_mutex_init(&ms[1], 0);
  pthread_create(&t, 0, locker, 0);
  pthread_mutex_lock(&g);
  idx = 1;
  pthread_mutex_unlock(&g);
  pthread_mutex_lock(&ms[0]);
  pthread_mutex_unlock(&ms[0]);
  pthread_join(t, 0);
  if (pthread_mutex_trylock(&ms[0]) != 0)
    reach_error();
  return 0;
}
