// expect: TRUE unwind: 2
// The two threads take m1/m2 in opposite orders, so some schedules deadlock (T1 holds m1,
// T2 holds m2). A deadlock is not an assertion violation: deadlocked executions never reach
// main's assertion, and every execution that completes has a == b == 2 (updates happen with
// both locks held). Checks that a checker does not report deadlock as an error.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
int a = 0, b = 0;

void *t1(void *arg) {
  pthread_mutex_lock(&m1);
  pthread_mutex_lock(&m2);
  a = a + 1;
  b = b + 1;
  pthread_mutex_unlock(&m2);
  pthread_mutex_unlock(&m1);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m2);
  pthread_mutex_lock(&m1);
  a = a + 1;
  b = b + 1;
  pthread_mutex_unlock(&m1);
  pthread_mutex_unlock(&m2);
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t1, 0);
  pthread_create(&y, 0, t2, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(a == 2 && b == 2);
  return 0;
}
