// expect: TRUE unwind: 2
// Threads whose assumption on an input fails stop before any shared access. The stopper's
// assumption never holds; the setter stores x + 1 for an input x in 0..1 unless its assumption
// fails; the checker reads g and
// checks that it is not 3 (the values are 0, 1 and 2): the TRUE twin of
// silent_stop_input_false.c.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;

void *stopper(void *arg) {
  int z = __VERIFIER_nondet_int();
  __VERIFIER_assume(z > 5 && z < 3);
  g = 7;
  return 0;
}

void *setter(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 1);
  g = x + 1;
  return 0;
}

void *checker(void *arg) {
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 0 && y <= 2);
  int v = g;
  assert(v != 3);
  return 0;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, stopper, 0);
  pthread_create(&t[1], 0, setter, 0);
  pthread_create(&t[2], 0, checker, 0);
  pthread_join(t[1], 0);
  pthread_join(t[2], 0);
  return 0;
}
