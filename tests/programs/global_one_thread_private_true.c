// expect: TRUE unwind: 4
// A global only one thread ever touches (the counter of the single `counting` thread) is
// private to it; main and the other thread share `done`. The counting thread increments its
// counter three times and checks it: 3, whatever the interleaving. Loops: 3 iterations,
// unwind 4.
#include <pthread.h>
#include <assert.h>

int count = 0;
int done = 0;

void *counting(void *arg) {
  int i;
  for (i = 0; i < 3; i++)
    count = count + 1;
  assert(count == 3);
  done = 1;
  return 0;
}

void *other(void *arg) {
  done = 2;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, counting, 0);
  pthread_create(&b, 0, other, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
