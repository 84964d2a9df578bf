// expect: TRUE unwind: 2
// Deadlock-free and error-free: both threads take m1 then m2 (one global lock order), update
// a and b together and check a == b while holding both. After the joins a == b == 2.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
int a = 0, b = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m1);
  pthread_mutex_lock(&m2);
  a = a + 1;
  b = b + 1;
  assert(a == b);
  pthread_mutex_unlock(&m2);
  pthread_mutex_unlock(&m1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a == 2 && b == 2);
  return 0;
}
