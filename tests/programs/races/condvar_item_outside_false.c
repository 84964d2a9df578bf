// expect: FALSE unwind: 3
// The twin of condvar_handoff_true.c where the consumer reads item after releasing the mutex
// and the producer writes it after its unlock: the two accesses race.
#include <pthread.h>
extern void __VERIFIER_assume(int);
int ready, item;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *producer(void *arg) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  item = 17;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  for (int k = 0; k < 2 && !ready; k++) pthread_cond_wait(&c, &m);
  __VERIFIER_assume(ready);
  pthread_mutex_unlock(&m);
  int v = item;
  pthread_join(t, 0);
  return v;
}
