// expect: FALSE unwind: 2
// The twin of once_barrier_true.c: before the barrier the other thread may not have arrived.
#include <pthread.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
pthread_barrier_t barrier;
int inits;
int arrived;

void init(void) { inits = inits + 1; }

void *t(void *arg) {
  pthread_once(&once, init);
  __CPROVER_atomic_begin();
  arrived = arrived + 1;
  __CPROVER_atomic_end();
  __CPROVER_assert(arrived == 2 || inits != 1, "the other thread may not have arrived");
  pthread_barrier_wait(&barrier);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&barrier, 0, 2);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
