// expect: FALSE unwind: 2
// The twin of atomic_sections_true.c where main writes x outside any atomic section: an
// atomic and a non-atomic access race.
#include <pthread.h>
int x;
void __VERIFIER_atomic_inc(void) { x = x + 1; }
void *inc(void *arg) { __VERIFIER_atomic_inc(); return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, inc, 0);
  x = 5;
  return 0;
}
