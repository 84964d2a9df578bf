// expect: TRUE unwind: 2
// As rvf_input_read_or_initial_false.c, but the input stays below 5: main never reads 5.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g, h;

void *w(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 5);
  g = x;
  g = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  int r = g;
  h = 1;
  assert(r != 5);
  pthread_join(t, 0);
  return 0;
}
