// expect: FALSE unwind: 2
// As mixed_width_malloc_true, but main claims the short at index 3 is not 7: with k = 3 it
// reads the high half of i[1], which is 7.
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
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < 4);
  short v = s[k];
  assert(v != 7);
  return 0;
}
