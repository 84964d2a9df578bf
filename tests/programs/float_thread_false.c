// expect: FALSE unwind: 1
// As float_thread_true.c, but asserting that the value read is 0, 0.1 or 0.3: once the
// thread has added, main reads 0.30000000000000004, which is not 0.3 (checked against gcc).
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
  assert(v == 0.0 || v == 0.1 || v == 0.3);
  pthread_join(t, 0);
  assert(avg == 1.375f);
  return 0;
}
