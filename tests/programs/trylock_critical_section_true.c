// expect: TRUE unwind: 2
// Each thread enters the critical section only if pthread_mutex_trylock succeeded (returned
// 0). Inside, it writes its id to `owner` and checks it is still there; since the holder of
// the mutex is the only thread inside, nobody can overwrite `owner` in between.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int owner = 0;

void *worker(void *arg) {
  int me = (int)(long)arg;
  if (pthread_mutex_trylock(&m) == 0) {
    owner = me;
    assert(owner == me);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
