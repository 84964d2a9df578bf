// expect: FALSE unwind: 2 spin: yes
// Twin of lock_retry_true.c: the producer raises `ready` and writes the data in two critical
// sections, so a retry between them finds ready == 1 and data == 0.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  data = 1;
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
