// expect: TRUE unwind: 2 spin: yes
// The consumer retries: take the mutex, look at `ready`, release it and try again. An attempt
// that finds ready == 0 only held the mutex for a while (no trylock here can see that), so it
// is cut; the consumer that finds ready == 1 still holds the mutex and sees data == 1, which
// the producer wrote in the same critical section.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 1;
  ready = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (1) {
    pthread_mutex_lock(&m);
    if (ready)
      break;
    pthread_mutex_unlock(&m);
  }
  assert(data == 1);
  pthread_mutex_unlock(&m);
  return 0;
}
