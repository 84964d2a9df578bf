// expect: FALSE unwind: 2
// The bug needs one point of the input box: the first thread stores x in -3..4, the second
// reads it as s and, with y in 10..13, fails when s < 0 and (s * y) % 40 == -39: the products
// of -3..-1 and 10..13 are -39..-10, so only s * y = -39 (s = -3, y = 13, after the store).
// The flip queries over range-bounded inputs are decided by enumerating the box
// (explore::concolic::enumerate): this program fails if a point is missed.
// input_box_point_true.c is its twin without the point.
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
  __VERIFIER_assume(y >= 10 && y <= 13);
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
