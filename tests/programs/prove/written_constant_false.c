// FALSE twin of written_constant_true.c: `main` writes the arbitrary value after the first
// creation, when a thread may be between its write and its check.
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
  pthread_create(&t, 0, thr, 0);
  s = __VERIFIER_nondet_int();
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
