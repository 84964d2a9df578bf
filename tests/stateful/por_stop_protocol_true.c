// expect: TRUE
// Partial-order reduction: six identical workers and a stopper (the I/O-counting protocol of
// a driver's stop routine). Between their shared steps the threads call and return from
// helpers whose frames are private: those steps are local, and the search takes them alone
// (ample sets of one thread). A worker that got in before the stop flag asserts that the
// device is not stopped yet, which holds in every interleaving.
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
    assert(!stopped);
    leave();
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
