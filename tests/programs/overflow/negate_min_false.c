// expect: FALSE unwind: 2
// A thread negates a shared value another thread may have set to INT_MIN.
#include <pthread.h>
int v = 5;
int r;
void *setter(void *arg) { v = -2147483647 - 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  r = -v;
  pthread_join(t, 0);
  return 0;
}
