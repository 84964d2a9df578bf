// expect: TRUE unwind: 2
// Two workers each add 1 to cnt and to x in one atomic section. main copies `cnt == 2` into
// a global only main touches and aborts unless it holds: past the abort both workers have
// run, so x == 2. rvf does not explore the children where main's read of cnt makes it abort
// (a silent stop: nothing main did is visible to the workers); the FALSE twin
// silent_stop_seen_false.c makes the stop visible.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int cnt = 0;
int x = 0;
int guard;

void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  cnt = cnt + 1;
  x = x + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  __VERIFIER_atomic_begin();
  guard = cnt == 2;
  __VERIFIER_atomic_end();
  if (!guard)
    abort();
  assert(x == 2);
  return 0;
}
