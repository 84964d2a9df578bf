// expect: FALSE unwind: 3
// Twin of condvar_flag_true.c where the producer sets `ready` and signals BEFORE writing
// data, outside the mutex. The consumer can get the mutex right after the producer unlocks,
// see ready == 1 (no wait needed, or woken by the signal) and read data == 0 before the
// producer writes 42. Wait loop bounded by 2 (unwind 3) as in the twin.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  data = 42;
  return 0;
}

void *consumer(void *arg) {
  int k;
  pthread_mutex_lock(&m);
  for (k = 0; k < 2 && !ready; k++)
    pthread_cond_wait(&c, &m);
  __VERIFIER_assume(ready);
  assert(data == 42);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&q, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
