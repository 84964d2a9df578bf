// expect: TRUE unwind: 5
// A thread fills a shared array with squares in a loop; main joins and sums it in a second
// loop: 0 + 1 + 4 + 9 == 14. Loops: 4 iterations, unwind 5.
#include <pthread.h>
#include <assert.h>

int sq[4];

void *fill(void *arg) {
  int i;
  for (i = 0; i < 4; i++)
    sq[i] = i * i;
  return 0;
}

int main(void) {
  pthread_t t;
  int i, sum = 0;
  pthread_create(&t, 0, fill, 0);
  pthread_join(t, 0);
  for (i = 0; i < 4; i++)
    sum += sq[i];
  assert(sum == 14);
  return 0;
}
