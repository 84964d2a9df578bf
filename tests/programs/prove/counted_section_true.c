// Each thread increments t, checks s < t, then increments s (each increment atomic): t - s
// is the number of threads between their two increments, at least one for the checking
// thread. Needs a counter ghost (as SV-COMP's pthread-lit/fkp2014).
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int s, t;
void *thr(void *arg) {
  __VERIFIER_atomic_begin();
  t++;
  __VERIFIER_atomic_end();
  if (!(s < t)) reach_error();
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
