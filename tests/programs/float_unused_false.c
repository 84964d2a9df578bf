// expect: FALSE unwind: 3
// As float_unused_true.c without the lock in main: the two increments can interleave and one
// is lost. The floating-point code is on a branch (mode != 0); the lost update also happens
// with mode == 0, where no floating-point operation runs, so that execution is a real
// counterexample and the over-approximation of floats must not hide it.
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
  int c = count;
  count = c + 1;
  pthread_join(t, 0);
  assert(count == 2);
  return 0;
}
