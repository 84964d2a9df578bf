// expect: FALSE unwind: 2
// Twin of symmetry_same_body_true.c: symmetry_created_last_first_false.c with the two
// workers written as two functions of the same body. They are twins (their first events are
// ordered by creation), and the error whose obvious witness has the thread created last take
// ticket 1 must survive the renaming: the first created takes ticket 1 after `created = 2`,
// the second overlaps it, and `taken` reaches 2 at the ticket-1 holder's check.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int ticket;
int taken;
int created;

void *worker_a(void *arg) {
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

void *worker_b(void *arg) {
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
  pthread_create(&a, 0, worker_a, 0);
  created = 1;
  pthread_create(&b, 0, worker_b, 0);
  created = 2;
  return 0;
}
