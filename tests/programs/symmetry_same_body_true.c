// expect: TRUE unwind: 2
// Symmetry breaking (src/symex/symmetry.rs, same_body.rs): symmetry_twins_true.c with the
// three adders written as three functions whose bodies are the same code under different
// names (as SV-COMP's generated tasks do). They are twins: their first events are ordered by
// creation, which must not lose anything (the verdict is TRUE either way). An adder that got
// in before the stop keeps `pending` above zero until it leaves, so `stopped` is 0 at every
// adder's check.
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

void *adder0(void *arg) {
  if (enter()) {
    if (stopped) {
      reach_error();
      abort();
    }
    leave();
  }
  return 0;
}

void *adder1(void *arg) {
  if (enter()) {
    if (stopped) {
      reach_error();
      abort();
    }
    leave();
  }
  return 0;
}

void *adder2(void *arg) {
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
  pending = 1;
  pthread_create(&t, 0, stopper, 0);
  pthread_create(&t, 0, adder0, 0);
  pthread_create(&t, 0, adder1, 0);
  pthread_create(&t, 0, adder2, 0);
  return 0;
}
