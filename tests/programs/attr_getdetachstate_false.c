// expect: FALSE unwind: 2
// pthread_attr_getdetachstate reads the detached state set before.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

int x;

void *worker(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_attr_t attr;
  int s = -1;
  pthread_attr_init(&attr);
  pthread_attr_getdetachstate(&attr, &s);
  assert(s == PTHREAD_CREATE_JOINABLE);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  assert(pthread_attr_setdetachstate(&attr, 5) == EINVAL);
  pthread_attr_getdetachstate(&attr, &s);
  assert(s == PTHREAD_CREATE_JOINABLE);
  pthread_t t;
  pthread_create(&t, &attr, worker, 0);
  return 0;
}
