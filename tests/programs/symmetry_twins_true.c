// expect: TRUE unwind: 4
// Symmetry breaking (src/symex/symmetry.rs): three identical adders (same function, same
// argument 0, never joined, no pthread_self) and one stopper, as in the I/O-counting driver
// pattern. An adder that got in before the stop (its increment saw `stopping == 0`) keeps
// `pending` above zero until it leaves, so the stopper cannot pass its wait while it runs:
// `stopped` is 0 at every adder's assertion. The adders are twins: their first events are
// ordered by creation, which must not lose anything (the verdict is TRUE either way).
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);

int stopping;
int pending;
int event;
int stopped;

int enter(void) {
  int ok;
  __VERIFIER_atomic_begin();
  if (stopping) {
    ok = 0;
  } else {
    pending = pending + 1;
    ok = 1;
  }
  __VERIFIER_atomic_end();
  return ok;
}

void leave(void) {
  __VERIFIER_atomic_begin();
  pending = pending - 1;
  if (pending == 0)
    event = 1;
  __VERIFIER_atomic_end();
}

void *adder(void *arg) {
  if (enter()) {
    if (stopped) {
      reach_error();
      abort();
    }
    leave();
  }
  return 0;
}

void *stopper(void *arg) {
  stopping = 1;
  leave();
  __VERIFIER_assume(event);
  stopped = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  pending = 1;
  pthread_create(&t, 0, stopper, 0);
  for (i = 0; i < 3; i++)
    pthread_create(&t, 0, adder, 0);
  return 0;
}
