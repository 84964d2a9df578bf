// expect: TRUE unwind: 1
// One thread computes a double in two steps, another reads it at any point: it sees 0, 0.1,
// or 0.1 + 0.2, which is 0.30000000000000004 and not 0.3 (checked against gcc); the thread's
// float average of two floats is exact.
#include <assert.h>
#include <pthread.h>

double sum;
float avg;

void *worker(void *arg) {
  sum = 0.1;
  sum = sum + 0.2;
  float a = 0.5f, b = 2.25f;
  avg = (a + b) / 2;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  double v = sum;
  assert(v == 0.0 || v == 0.1 || (v > 0.3 && v < 0.3000000000000001));
  pthread_join(t, 0);
  assert(avg == 1.375f);
  return 0;
}
