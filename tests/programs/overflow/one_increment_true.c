// expect: TRUE unwind: 2
// The twin of shared_counter_int_false.c with one thread: INT_MAX - 1 + 1 fits.
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
  pthread_t a;
  pthread_create(&a, 0, inc, 0);
  pthread_join(a, 0);
  return 0;
}
