// expect: FALSE unwind: 2
// Twin of symmetry_twins_true.c for symmetry breaking: two threads with the same function and
// argument that tell themselves apart by pthread_self: the error needs the thread created
// second to enter the atomic block first. Error: main stores both handles and sets `ready`;
// the second thread's block passes its wait, finds `first == 0` and its own handle equal to
// `h[1]`. Ordering their first events (the read of `ready`) by creation would lose it.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);

pthread_t h[2];
int ready;
int first;

void *worker(void *arg) {
  pthread_t me = pthread_self();
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(ready);
  if (first == 0) {
    first = 1;
    if (pthread_equal(me, h[1])) {
      reach_error();
      abort();
    }
  }
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_create(&h[0], 0, worker, 0);
  pthread_create(&h[1], 0, worker, 0);
  ready = 1;
  return 0;
}
