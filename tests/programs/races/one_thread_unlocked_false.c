// expect: FALSE unwind: 2
// The lock is taken by one thread only: its write and main's unlocked read race.
#include <pthread.h>
int data;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *writer(void *arg) {
  pthread_mutex_lock(&m);
  data = 42;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int seen = data;
  pthread_join(t, 0);
  return seen;
}
