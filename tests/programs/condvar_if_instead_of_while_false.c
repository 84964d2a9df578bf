// expect: FALSE unwind: 2
// Classic bug: consumers test the predicate with `if` instead of a loop. One item is
// produced, two consumers each take one. C1 finds count == 0 and waits; the producer sets
// count = 1 and signals C1; before C1 re-acquires the mutex, C2 locks, sees count == 1 and
// takes the item; C1 then wakes up and decrements to -1. (Also reachable with a spurious
// wake-up.) No loops.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int count = 0;

void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  if (count == 0)
    pthread_cond_wait(&c, &m);
  count = count - 1;
  assert(count >= 0);
  pthread_mutex_unlock(&m);
  return 0;
}

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
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
  return 0;
}
