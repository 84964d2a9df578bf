// expect: FALSE unwind: 2
// Threads whose assumption on an input fails stop before any shared access. The stopper's
// assumption never holds; the setter stores x + 1 for an input x in 0..1 unless its assumption
// fails; the checker reads g and
// fails on 2, which needs x = 1 and the setter first. The stopper's assumption never holds, so
// only the other threads can move after its first step: an explorer must still run them (a
// stopped thread is no end of the run).
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
  assert(v != 2);
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
