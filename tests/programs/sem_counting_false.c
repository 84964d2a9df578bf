// expect: FALSE unwind: 2
// The twin of sem_counting_true.c: two units let two threads in at once, so claiming mutual
// exclusion fails.
#include <pthread.h>
#include <semaphore.h>
sem_t slots;
int inside;

void *t(void *arg) {
  sem_wait(&slots);
  __CPROVER_atomic_begin();
  inside = inside + 1;
  __CPROVER_atomic_end();
  __CPROVER_assert(inside <= 1, "two may be inside");
  __CPROVER_atomic_begin();
  inside = inside - 1;
  __CPROVER_atomic_end();
  sem_post(&slots);
  return 0;
}

int main(void) {
  pthread_t a, b;
  sem_init(&slots, 0, 2);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
