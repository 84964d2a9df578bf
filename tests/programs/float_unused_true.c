// expect: TRUE unwind: 3
// Floating-point code that does not decide the property: a thread averages two samples in
// double precision (when asked to) and publishes only whether it ran; the counter the
// assertion is about is updated under a lock by both threads, so it ends at 2. Floating-point
// values are arbitrary in the model, which only adds executions: TRUE still holds.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;
double avg;
int mode;

void *worker(void *arg) {
  if (mode) {
    double a = 0.5, b = 2.25;
    avg = (a + b) / 2;
    if (avg > 1.0)
      avg = avg * 0.5f;
  }
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  mode = __VERIFIER_nondet_int();
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(count == 2);
  return 0;
}
