// expect: FALSE unwind: 2
// The locker evaluates `&ms[idx]` before it calls the lock, as C orders an argument before
// its call, and other threads may run in between. It reads idx == 0; main then sets idx = 1
// and passes ms[0]; the locker then takes ms[0] and ends holding it, so main's trylock fails.
// An engine that reads idx in the lock's own step never sees this order.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t ms[2];
int idx;

void *locker(void *arg) {
  pthread_mutex_lock(&ms[idx]);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_init(&ms[0], 0);
  pthread_mutex_init(&ms[1], 0);
  pthread_create(&t, 0, locker, 0);
  idx = 1;
  pthread_mutex_lock(&ms[0]);
  pthread_mutex_unlock(&ms[0]);
  pthread_join(t, 0);
  if (pthread_mutex_trylock(&ms[0]) != 0)
    reach_error();
  return 0;
}
