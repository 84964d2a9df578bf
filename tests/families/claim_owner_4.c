// Thread-count family for the bench (4 threads): each thread claims a shared owner slot
// under a mutex if it is free, then sets its own flag; main checks that one thread owns the
// slot and every flag is set (TRUE, no loops, so every unwind bound decides it).
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int owner = 0;
int done[4];
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
  pthread_t t[4];
  pthread_create(&t[0], 0, worker, (void *)0L);
  pthread_create(&t[1], 0, worker, (void *)1L);
  pthread_create(&t[2], 0, worker, (void *)2L);
  pthread_create(&t[3], 0, worker, (void *)3L);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  pthread_join(t[2], 0);
  pthread_join(t[3], 0);
  assert(owner >= 1 && owner <= 4);
  assert(done[0] && done[1] && done[2] && done[3]);
  return 0;
}
