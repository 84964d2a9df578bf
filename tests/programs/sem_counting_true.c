// expect: TRUE unwind: 2
// A counting semaphore initialised to 2: at most two of three threads are inside at once.
#include <pthread.h>
#include <semaphore.h>
sem_t slots;
int inside;

void *t(void *arg) {
  sem_wait(&slots);
  __CPROVER_atomic_begin();
  inside = inside + 1;
  __CPROVER_atomic_end();
  __CPROVER_assert(inside <= 2, "at most two inside");
  __CPROVER_atomic_begin();
  inside = inside - 1;
  __CPROVER_atomic_end();
  sem_post(&slots);
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  sem_init(&slots, 0, 2);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_create(&c, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  int v;
  sem_getvalue(&slots, &v);
  __CPROVER_assert(v == 2, "every unit is back");
  __CPROVER_assert(sem_trywait(&slots) == 0 && sem_trywait(&slots) == 0, "two units");
  __CPROVER_assert(sem_trywait(&slots) == -1, "none left");
  return 0;
}
