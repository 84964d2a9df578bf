// expect: FALSE unwind: 2
// Two threads each execute `counter++` on a shared int without any lock. `counter++` is a
// read followed by a write, so the schedule T1 reads 0, T2 reads 0, T1 writes 1, T2 writes 1
// loses one update and main (after joining both) sees counter == 1. No loops.
#include <pthread.h>
#include <assert.h>

int counter;

void *inc(void *arg) {
  counter++;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
