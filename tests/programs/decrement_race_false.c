// expect: FALSE unwind: 2
// Two threads each release one unit of a shared resource count with `--` (read, then
// write). Starting at 2 the sequential result is 0, but if both read 2 first, both write 1.
#include <pthread.h>
#include <assert.h>

int units = 2;

void *release(void *arg) {
  units--;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, release, 0);
  pthread_create(&t2, 0, release, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(units == 0);
  return 0;
}
