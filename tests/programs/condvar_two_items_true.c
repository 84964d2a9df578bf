// expect: TRUE unwind: 3
// Two consumers, one producer adding two items (signal after each). Consumers re-check the
// predicate in a bounded loop (at most 2 waits, then assume(count > 0); unwind 3), so every
// decrement happens with count > 0 under the mutex: count never goes negative, and once all
// are joined count == 0.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int count = 0;

void *consumer(void *arg) {
  int k;
  pthread_mutex_lock(&m);
  for (k = 0; k < 2 && count == 0; k++)
    pthread_cond_wait(&c, &m);
  __VERIFIER_assume(count > 0);
  count = count - 1;
  assert(count >= 0);
  pthread_mutex_unlock(&m);
  return 0;
}

void *producer(void *arg) {
  int i;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t c1, c2, p;
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&c2, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(c1, 0);
  pthread_join(c2, 0);
  pthread_join(p, 0);
  assert(count == 0);
  return 0;
}
