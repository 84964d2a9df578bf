// expect: TRUE unwind: 2
// Untyped heap memory written as two ints by a worker and read back as shorts at a nondet
// index by main after the join: little-endian, s[0..3] are 6, 5, 8, 7.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

void *m;

void *worker(void *arg) {
  int *i = m;
  i[0] = 0x00050006;
  i[1] = 0x00070008;
  return 0;
}

int main(void) {
  pthread_t t;
  m = malloc(8);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  short *s = m;
  assert(s[0] == 6 && s[1] == 5);
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < 4);
  short v = s[k];
  if (k == 2)
    assert(v == 8);
  if (k == 3)
    assert(v == 7);
  assert(v >= 5 && v <= 8);
  return 0;
}
