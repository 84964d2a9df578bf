// expect: FALSE unwind: 2
// The twin of sem_signal_order_true.c: the post comes before the write.
#include <pthread.h>
#include <semaphore.h>
sem_t ready;
int data;

void *producer(void *arg) {
  sem_post(&ready);
  data = 42;
  return 0;
}

int main(void) {
  pthread_t p;
  sem_init(&ready, 0, 0);
  pthread_create(&p, 0, producer, 0);
  sem_wait(&ready);
  __CPROVER_assert(data == 42, "posted before the write");
  return 0;
}
