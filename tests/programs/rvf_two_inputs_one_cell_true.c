// expect: TRUE unwind: 2
// As rvf_two_inputs_one_cell_false.c, but the first worker's input stays below 3: main
// never reads 3 and then 4.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *w1(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 3);
  g = x;
  return 0;
}

void *w2(void *arg) {
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 0 && y < 8);
  g = y;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w1, 0);
  pthread_create(&t2, 0, w2, 0);
  int r1 = g;
  int r2 = g;
  assert(!(r1 == 3 && r2 == 4));
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
