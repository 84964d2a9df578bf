// expect: FALSE unwind: 2
// INT_MIN / -1 overflows.
#include <pthread.h>
int n = -2147483647 - 1, d = -1, q;
void *dv(void *arg) { q = n / d; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, dv, 0);
  pthread_join(t, 0);
  return 0;
}
