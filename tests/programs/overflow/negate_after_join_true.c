// expect: TRUE unwind: 2
// The twin of negate_min_false.c where the setter writes INT_MIN + 1.
#include <pthread.h>
int v = 5;
int r;
void *setter(void *arg) { v = -2147483647; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  r = -v;
  pthread_join(t, 0);
  return 0;
}
