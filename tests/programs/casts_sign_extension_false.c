// expect: FALSE unwind: 2
// A byte value v in [-128, 127] is widened once via signed char (sign extension) and once
// via unsigned char (zero extension); they differ for every negative v (e.g. -1 gives -1
// and 255), so the assertion that they agree fails.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int v, as_signed, as_unsigned;

void *widen(void *arg) {
  signed char c = (signed char)v;
  as_signed = c;
  as_unsigned = (unsigned char)c;
  return 0;
}

int main(void) {
  pthread_t t;
  v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v >= -128 && v <= 127);
  pthread_create(&t, 0, widen, 0);
  pthread_join(t, 0);
  assert(as_signed == as_unsigned);
  return 0;
}
