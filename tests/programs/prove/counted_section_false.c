// FALSE twin of counted_section_true.c: it claims two threads are always between their
// increments (s + 1 < t), but a thread alone there sees t - s == 1.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int s, t;
void *thr(void *arg) {
  __VERIFIER_atomic_begin();
  t++;
  __VERIFIER_atomic_end();
  if (!(s + 1 < t)) reach_error();
  __VERIFIER_atomic_begin();
  s++;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t h;
  while (1) pthread_create(&h, 0, thr, 0);
  return 0;
}
