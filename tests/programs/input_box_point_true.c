// expect: TRUE unwind: 2
// As input_box_point_false.c, with y in 10..12: the products of -3..-1 and 10..12 are
// -36..-10, and (s * y) % 40 is the product itself, never -39 (nor is 0 * y, before the
// store). Every flip query of the exploration is decided over the whole box.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *one(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= -3 && x <= 4);
  g = x;
  return 0;
}

void *two(void *arg) {
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 10 && y <= 12);
  int s = g;
  if (s < 0 && (s * y) % 40 == -39) {
    assert(0);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, one, 0);
  pthread_create(&t2, 0, two, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
