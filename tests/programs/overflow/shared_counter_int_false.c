// expect: FALSE unwind: 2
// A shared int counter near INT_MAX incremented by two threads under a lock (a shared
// read-modify-write): the second increment overflows.
#include <pthread.h>
int counter = 2147483646;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *arg) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
