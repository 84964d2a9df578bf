// expect: FALSE unwind: 4
// Twin of symmetry_twins_true.c that differs in one comparison: `leave` signals the stopper
// when `pending` drops to 1 instead of 0, so the stopper can pass its wait while an adder
// that got in before the stop is still inside, and that adder sees `stopped`. The adders'
// later blocks are ordered by creation where their states agree
// (src/symex/twin_segments.rs); the error must stay reachable under those orders.
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
  if (pending <= 1)
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
