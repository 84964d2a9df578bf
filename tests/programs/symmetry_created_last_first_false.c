// expect: FALSE unwind: 2
// Twin of symmetry_twins_true.c for symmetry breaking: two identical threads (twins, whose
// first events are ordered by creation) and an error whose obvious witness has the thread
// created last start first: the thread that takes ticket 1 must take it after main's
// `created = 2` (after both creates), and the other thread must overlap it. Error: main
// creates both threads and sets `created = 2`; the second takes ticket 1; the first takes
// ticket 2 and increments `taken`; the second increments `taken` to 2 and reaches the error.
// Symmetry breaking may only rename the threads (the first created takes ticket 1 after
// `created = 2`), which keeps the error; ordering whole threads one after the other, or the
// first thread's start before the second create, would lose it.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int ticket;
int taken;
int created;

void *worker(void *arg) {
  int me;
  __VERIFIER_atomic_begin();
  ticket = ticket + 1;
  me = ticket;
  __VERIFIER_atomic_end();
  taken = taken + 1;
  if (me == 1 && created == 2 && taken == 2) {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  created = 1;
  pthread_create(&b, 0, worker, 0);
  created = 2;
  return 0;
}
