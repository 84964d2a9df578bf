// expect: TRUE unwind: 4
// Locals of the thread function (a local array and an accumulator) are private to each
// thread even though both threads run the same function concurrently: each computes
// base + (base+1) + (base+2) from its own argument and publishes it to its own result slot.
// Loops: 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

int results[2];

void *work(void *arg) {
  int base = (int)(long)arg;
  int buf[3];
  int i, acc = 0;
  for (i = 0; i < 3; i++)
    buf[i] = base + i;
  for (i = 0; i < 3; i++)
    acc += buf[i];
  results[base / 10 - 1] = acc;
  assert(acc == 3 * base + 3);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, work, (void *)10L);
  pthread_create(&t2, 0, work, (void *)20L);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(results[0] == 33 && results[1] == 63);
  return 0;
}
