// expect: FALSE
// FALSE twin of por_stop_protocol_true.c: the worker leaves before it asserts, so the stopper
// can finish between the worker's leave and its assertion. The bug shows only where the
// stopper's steps come between two shared steps of a worker that has local steps (a return,
// a call) in between: the reduction must not prune that interleaving.
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
extern void abort(void);

int stopping_flag = 0;
int pending = 1;
int stopping_event = 0;
int stopped = 0;

int enter(void) {
  __VERIFIER_atomic_begin();
  if (stopping_flag) {
    __VERIFIER_atomic_end();
    return -1;
  }
  pending = pending + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void leave(void) {
  __VERIFIER_atomic_begin();
  pending = pending - 1;
  if (pending == 0)
    stopping_event = 1;
  __VERIFIER_atomic_end();
}

int check(int s) { return s == 0; }

void *worker(void *arg) {
  int status = enter();
  if (check(status)) {
    leave();
    assert(!stopped);
  }
  return 0;
}

void *stopper(void *arg) {
  stopping_flag = 1;
  leave();
  if (!stopping_event)
    abort();
  stopped = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, stopper, 0);
  for (int i = 0; i < 6; i++)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
