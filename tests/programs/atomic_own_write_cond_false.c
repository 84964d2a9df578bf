// expect: FALSE unwind: 2
// Twin of atomic_own_write_read_true.c: inside the block the write happens only when c holds,
// the read always; when c is 0 the read takes the initial value or t's write (a write under
// another guard than the read's must not prune the other candidates).
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x;
void *t(void *arg) { x = 2; return 0; }
int main(void) {
  pthread_t h;
  int r;
  int c = __VERIFIER_nondet_int();
  pthread_create(&h, 0, t, 0);
  __VERIFIER_atomic_begin();
  if (c) x = 1;
  r = x;
  __VERIFIER_atomic_end();
  if (r != 1) reach_error();
  pthread_join(h, 0);
  return 0;
}
