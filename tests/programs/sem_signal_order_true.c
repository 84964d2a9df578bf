// expect: TRUE unwind: 2
// A semaphore initialised to 0 orders a producer's write before the consumer's read.
#include <pthread.h>
#include <semaphore.h>
sem_t ready;
int data;

void *producer(void *arg) {
  data = 42;
  sem_post(&ready);
  return 0;
}

int main(void) {
  pthread_t p;
  sem_init(&ready, 0, 0);
  pthread_create(&p, 0, producer, 0);
  sem_wait(&ready);
  __CPROVER_assert(data == 42, "posted after the write");
  return 0;
}
