// expect: FALSE unwind: 2
// Twin of symmetry_private_objects_true.c for symmetry breaking: two workers with the same
// function and argument, each with its own local, but each compares its local's address
// with a number `main` chose, which tells them apart (their locals lie at different
// addresses). Error: the worker whose local lies above `mark` enters the block first and the
// other, whose local lies at or below it, second. Symbolic execution numbers the first-created
// worker's local below the second's, so the error needs the second-created worker first:
// ordering the workers' first events by creation would lose it.
// replay: unordered addresses (the replayer does not compare the addresses of two objects)
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern unsigned long __VERIFIER_nondet_ulong(void);

unsigned long mark;
int entered;
int first_high;

void *worker(void *arg) {
  int mine = 0;
  int high = (unsigned long)&mine > mark;
  __VERIFIER_atomic_begin();
  if (entered == 0) {
    entered = 1;
    first_high = high;
  } else if (first_high && !high) {
    reach_error();
    abort();
  }
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t;
  mark = __VERIFIER_nondet_ulong();
  pthread_create(&t, 0, worker, 0);
  pthread_create(&t, 0, worker, 0);
  return 0;
}
