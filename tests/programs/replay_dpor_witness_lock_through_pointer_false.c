// expect: FALSE unwind: 2
// The run: A reads mp and locks ms[0] (one line), sets idx = 1; main reads idx == 1, so
// joins th[0] = A; A unlocks and sets idx = 0; main's join returns rv == 0 == idx. The dpor
// witness lists each creation and its write of the global handle, with the new thread's
// entry edge between them; a replay that ended the creating thread's edges at that entry
// edge left the handle write behind and let main read idx too early (found by review: no
// witness-guided run confirmed it).
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t ms[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
pthread_mutex_t *mp = &ms[0];
int idx, g;
pthread_t th[2];
void *A(void *a) {
  pthread_mutex_t *q = mp; pthread_mutex_lock(q);
  idx = 1;
  pthread_mutex_unlock(q);
  idx = 0;
  return 0;
}
void *B(void *a) { mp = &ms[1]; pthread_exit((void *)2); }
int main(void) {
  void *rv;
  pthread_create(&th[0], 0, A, 0);
  pthread_create(&th[1], 0, B, 0);
  pthread_join(th[(idx + 1) % 2], &rv); if ((long)rv == idx) reach_error();
  g = 1;
  return 0;
}
