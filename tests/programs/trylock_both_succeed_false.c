// expect: FALSE unwind: 2
// The assertion claims the two trylocks cannot both succeed. They can: if T1 locks and
// unlocks before T2 tries, both get the mutex (ok1 == 1 and ok2 == 1).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ok1 = 0, ok2 = 0;

void *t1(void *arg) {
  if (pthread_mutex_trylock(&m) == 0) {
    ok1 = 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *t2(void *arg) {
  if (pthread_mutex_trylock(&m) == 0) {
    ok2 = 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(ok1 == 1 && ok2 == 1));
  return 0;
}
