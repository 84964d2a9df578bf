// expect: TRUE unwind: 2
// A pointer to a global is passed as the thread argument; both threads increment through the
// pointer inside the mutex, so x == 2 after the joins.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;

void *bump(void *arg) {
  int *p = (int *)arg;
  pthread_mutex_lock(&m);
  *p = *p + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, bump, &x);
  pthread_create(&t2, 0, bump, &x);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 2);
  return 0;
}
