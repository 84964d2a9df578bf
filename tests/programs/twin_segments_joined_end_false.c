// expect: FALSE unwind: 2
// Twins joined in one block whose end (the assume after the last event) depends on a read
// made before their atomic block: t1 reads x = 0, t2 reads x = 1, and both finish only when
// t2's block runs first. The segment order on the blocks must take the end condition into
// account (the twins differ in r), or the error after the joins is lost.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int x = 0, c = 0;

void *worker(void *arg) {
  int r = x;
  int s;
  __VERIFIER_atomic_begin();
  s = c;
  c = c + 1;
  __VERIFIER_atomic_end();
  __VERIFIER_assume(r != s);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  x = 1;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  reach_error();
  return 0;
}
