// expect: FALSE unwind: 2
// A recursive mutex (pthread_mutexattr_settype): its owner locks it again and the lock returns
// 0 at once; a normal mutex would block there and the assertion would be unreachable.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m;

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_mutexattr_destroy(&a);
  pthread_mutex_lock(&m);
  int r = pthread_mutex_lock(&m);
  assert(r != 0);
  return 0;
}
