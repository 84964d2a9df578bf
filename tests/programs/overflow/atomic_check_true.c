// expect: TRUE unwind: 2
// The twin of interleaved_check_false.c with check and increment in one atomic section.
#include <pthread.h>
int x = 2147483646;
void __VERIFIER_atomic_inc(void) { if (x < 2147483647) x = x + 1; }
void *inc(void *arg) { __VERIFIER_atomic_inc(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  return 0;
}
