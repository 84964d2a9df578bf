// expect: TRUE unwind: 3
// Two threads return their argument plus one, encoded in the void* return value; main joins
// both in a loop and sums the returned values: (10+1) + (20+1) == 32. Loops: 2 iterations,
// unwind 3.
#include <pthread.h>
#include <assert.h>

void *plus_one(void *arg) {
  long v = (long)arg;
  return (void *)(v + 1);
}

int main(void) {
  pthread_t t[2];
  long sum = 0;
  int i;
  for (i = 0; i < 2; i++)
    pthread_create(&t[i], 0, plus_one, (void *)(long)(10 * (i + 1)));
  for (i = 0; i < 2; i++) {
    void *r;
    pthread_join(t[i], &r);
    sum += (long)r;
  }
  assert(sum == 32);
  return 0;
}
