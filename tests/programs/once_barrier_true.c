// expect: TRUE unwind: 2
// pthread_once runs its routine once, and every caller returns after it finished; a barrier
// lets no thread past before all arrived, and exactly one gets PTHREAD_BARRIER_SERIAL_THREAD.
#include <pthread.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
pthread_barrier_t barrier;
int inits;
int ready;
int arrived;
int serial;

void init(void) {
  inits = inits + 1;
  ready = 1;
}

void *t(void *arg) {
  pthread_once(&once, init);
  __CPROVER_assert(ready == 1, "initialised when pthread_once returns");
  __CPROVER_atomic_begin();
  arrived = arrived + 1;
  __CPROVER_atomic_end();
  int r = pthread_barrier_wait(&barrier);
  __CPROVER_assert(arrived == 2, "both arrived");
  if (r == PTHREAD_BARRIER_SERIAL_THREAD) {
    __CPROVER_atomic_begin();
    serial = serial + 1;
    __CPROVER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&barrier, 0, 2);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(inits == 1 && serial == 1, "once, and one serial thread");
  return 0;
}
