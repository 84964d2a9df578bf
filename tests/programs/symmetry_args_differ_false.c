// expect: FALSE unwind: 2
// Twin of symmetry_twins_true.c for symmetry breaking: two threads run the same function but
// with different arguments (0, then 1), so they are no twins and their first events must not
// be ordered by creation. The error needs the thread created second (argument 1) to enter
// the atomic block first: main creates both, the second runs its block (`first = 2`), then
// the first runs its block (nothing) and the second reaches the error.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int first;

void *worker(void *arg) {
  long v = (long)arg;
  __VERIFIER_atomic_begin();
  if (first == 0)
    first = (int)v + 1;
  __VERIFIER_atomic_end();
  if (first == 2) {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0);
  pthread_create(&b, 0, worker, (void *)1);
  return 0;
}
