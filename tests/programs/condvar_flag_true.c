// expect: TRUE unwind: 3
// Producer publishes data and sets `ready` under the mutex, then signals. The consumer waits
// for the predicate `ready` under the same mutex, so when it gets past the wait it sees
// data == 42. The wait loop is bounded (at most 2 waits, unwind 3) and followed by
// __VERIFIER_assume(ready): executions with more wake-ups than that are cut off, which keeps
// the verdict the same whether pthread_cond_wait may wake up spuriously or not.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 42;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
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
