// expect: TRUE unwind: 2
// The TRUE twin of stop_value_read_later_false.c: r is 0 or x in 0..9, never y + 10 >= 11,
// whatever the inputs and the order; the failing assumptions are cut (concolic::stops).
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *t1(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 9);
  g = x;
  return 0;
}

void *t2(void *arg) {
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 1 && y <= 3);
  int r = g;
  assert(r != y + 10);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
