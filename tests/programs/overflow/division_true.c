// expect: TRUE unwind: 2
// The twin of division_false.c: INT_MIN / 1 fits; an assertion that fails is no overflow.
#include <pthread.h>
#include <assert.h>
int n = -2147483647 - 1, d = 1, q;
void *dv(void *arg) { q = n / d; assert(q > 0); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, dv, 0);
  pthread_join(t, 0);
  return 0;
}
