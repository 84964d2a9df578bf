// Every thread writes 4 into the shared `s` and asserts it reads 4 back: other threads write
// only 4. `main` writes an arbitrary value, but before the first creation.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int s;
void *thr(void *arg) {
  int l = 4;
  s = l;
  if (s != l) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  s = __VERIFIER_nondet_int();
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
