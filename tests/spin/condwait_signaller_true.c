// expect: TRUE unwind: 2 spin: yes
// The consumer waits for `ready` in a cond_wait loop; the producer sets data and ready in one
// critical section. A repeated wait that found nothing changed blocks the consumer with the
// mutex released; the consumer that wakes up to ready == 1 sees data == 42.
#include <pthread.h>
#include <assert.h>

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

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  while (ready == 0)
    pthread_cond_wait(&c, &m);
  assert(data == 42);
  pthread_mutex_unlock(&m);
  return 0;
}
