// expect: TRUE unwind: 3
// A value handed over under a mutex and a condition variable (producer/consumer): every
// access to ready and item is inside the critical section. The wait loop is bounded (at most
// 2 waits) and followed by an assumption, so that spurious wake-ups stay within the bound.
#include <pthread.h>
extern void __VERIFIER_assume(int);
int ready, item;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *producer(void *arg) {
  pthread_mutex_lock(&m);
  item = 17;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  for (int k = 0; k < 2 && !ready; k++) pthread_cond_wait(&c, &m);
  __VERIFIER_assume(ready);
  int v = item;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return v;
}
