// expect: FALSE unwind: 2
// Twin of symmetry_joined_all_true.c: the twins are all joined in one block, so they keep
// their orders, and an error whose obvious witness has the thread created second act first
// must survive. Error: main creates the first thread, sets `y = 1`, creates the second, sets
// `y = 2`; the thread created second claims first, before `y = 2`, and records `y + 1 == 2`;
// after joining both, main finds `seen == 2`. The renamed witness: the first created claims
// between `y = 1` and `y = 2`. (`y = 2` keeps the second thread's read of `y` an event, as
// the first one's is: a read folded to main's value only in some twins would tell them
// apart.)
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int y;
int taken;
int seen;

void *claim(void *arg) {
  __VERIFIER_atomic_begin();
  if (!taken) {
    taken = 1;
    seen = y + 1;
  }
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, claim, 0);
  y = 1;
  pthread_create(&b, 0, claim, 0);
  y = 2;
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (seen == 2) {
    reach_error();
    abort();
  }
  return 0;
}
