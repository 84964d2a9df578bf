// expect: FALSE unwind: 2 spin: yes
// Twin of condwait_signaller_true.c with a buggy signaller: it raises `ready` and signals in
// one critical section and writes the data in a second one, so the consumer can wake up
// (after waiting any number of times) between the two and see data == 0.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  data = 42;
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
