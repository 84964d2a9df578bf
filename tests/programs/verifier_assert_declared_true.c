// expect: TRUE unwind: 2
// __VERIFIER_assert declared without a body is an assertion (not a call that does nothing):
// with the lost update x is 1 or 2, never anything else.
#include <pthread.h>
extern void __VERIFIER_assert(int cond);
int x = 0;
void *inc(void *arg) {
  int t = x;
  x = t + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __VERIFIER_assert(x == 1 || x == 2);
  return 0;
}
