// expect: FALSE unwind: 2
// Twin of pointer_global_arg_mutex_true.c without the mutex: both threads read *p == 0
// through their (aliasing) pointers before either writes, so x ends as 1.
#include <pthread.h>
#include <assert.h>

int x = 0;

void *bump(void *arg) {
  int *p = (int *)arg;
  *p = *p + 1;
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
