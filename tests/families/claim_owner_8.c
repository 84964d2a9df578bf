// Thread-count family for the bench (8 threads): each thread claims a shared owner slot
// under a mutex if it is free, then sets its own flag; main checks that one thread owns the
// slot and every flag is set (TRUE, no loops, so every unwind bound decides it).
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int owner = 0;
int done[8];
void *worker(void *arg) {
  int id = (int)(long)arg;
  pthread_mutex_lock(&m);
  if (owner == 0)
    owner = id + 1;
  pthread_mutex_unlock(&m);
  done[id] = 1;
  return 0;
}
int main(void) {
  pthread_t t[8];
  pthread_create(&t[0], 0, worker, (void *)0L);
  pthread_create(&t[1], 0, worker, (void *)1L);
  pthread_create(&t[2], 0, worker, (void *)2L);
  pthread_create(&t[3], 0, worker, (void *)3L);
  pthread_create(&t[4], 0, worker, (void *)4L);
  pthread_create(&t[5], 0, worker, (void *)5L);
  pthread_create(&t[6], 0, worker, (void *)6L);
  pthread_create(&t[7], 0, worker, (void *)7L);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  pthread_join(t[2], 0);
  pthread_join(t[3], 0);
  pthread_join(t[4], 0);
  pthread_join(t[5], 0);
  pthread_join(t[6], 0);
  pthread_join(t[7], 0);
  assert(owner >= 1 && owner <= 8);
  assert(done[0] && done[1] && done[2] && done[3] && done[4] && done[5] && done[6] && done[7]);
  return 0;
}
